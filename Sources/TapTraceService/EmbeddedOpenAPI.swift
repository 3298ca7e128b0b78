enum EmbeddedOpenAPI {
    static let yaml = ""
}
