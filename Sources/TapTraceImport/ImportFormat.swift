/// The dump formats the importers read, by the name the CLI and HTTP use
/// (`taptrace import <name>`, `POST /v1/import/<name>`).
public enum ImportFormat: String, Sendable, CaseIterable {
    /// `-[UIView recursiveDescription]` text.
    case recursiveDescription = "recursive-description"
    /// Appium XCUITest driver (WebDriverAgent) page source XML.
    case appium
    /// XCUIElement `debugDescription` text (`print(app.debugDescription)`, Appium's
    /// `mobile: source` with `format: description`).
    case xcuitest

    /// The media type a request body of this format has.
    public var mediaType: String {
        switch self {
        case .recursiveDescription: return "text/plain"
        case .appium: return "application/xml"
        case .xcuitest: return "text/plain"
        }
    }

    /// Imports a dump of this format. A dump that fails here but looks like another format is
    /// refused with that format named (`ImportError.suggestedFormat`).
    public func parse(_ bytes: [UInt8], _ options: ImportOptions = ImportOptions()) throws(ImportError) -> ImportResult {
        do {
            var result = try parseAsGiven(bytes, options)
            result.format = self
            return result
        } catch {
            var error = error
            if let detected = try? ImportFormat.detect(bytes), detected != self { error.suggestedFormat = detected }
            throw error
        }
    }

    private func parseAsGiven(_ bytes: [UInt8], _ options: ImportOptions) throws(ImportError) -> ImportResult {
        switch self {
        case .recursiveDescription: return try RecursiveDescriptionParser.parse(bytes, options)
        case .appium: return try AppiumSourceParser.parse(bytes, options)
        case .xcuitest: return try XCUITestDescriptionParser.parse(bytes, options)
        }
    }
}
