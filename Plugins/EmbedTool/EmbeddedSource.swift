struct EmbedError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The Swift source that carries files' texts: one raw string literal each, whose value is the
/// file's text exactly.
enum EmbeddedSource {
    static func render(type: String, files: [(name: String, text: String)]) throws -> String {
        var out = """
            // Generated at build time by the EmbedFiles plugin (Plugins/EmbedFiles); not in the repository.

            enum \(type) {
                /// Each embedded file's name and text, in the order of their names.
                static let files: [(name: String, text: String)] = [

            """
        for file in files {
            guard !file.name.contains(where: { $0 == "\"" || $0 == "\\" || $0.isNewline }) else {
                throw EmbedError("\(file.name): a name with quotes, backslashes or line breaks")
            }
            out += "        (\"\(file.name)\", \(try literal(file.text, name: file.name))),\n"
        }
        out += "    ]\n}\n"
        return out
    }

    /// A multi-line raw string literal (`#"""` … `"""#`) whose value is exactly `text`: with
    /// enough `#`s that no `"""#…` or `\#…` inside ends it or escapes. Line endings must be LF:
    /// a multi-line literal would turn CRLF into LF.
    static func literal(_ text: String, name: String) throws -> String {
        guard !text.utf8.contains(0x0D) else { throw EmbedError("\(name) has CR line endings: only LF is kept exactly") }
        var hashes = 1
        while text.contains("\"\"\"" + String(repeating: "#", count: hashes))
                || text.contains("\\" + String(repeating: "#", count: hashes)) {
            hashes += 1
        }
        let h = String(repeating: "#", count: hashes)
        // The newline right before the closing delimiter is not part of the value.
        return "\(h)\"\"\"\n\(text)\n\"\"\"\(h)"
    }
}
