/// Which importer a dump is for, from its first significant line: what `POST /v1/import` and
/// `taptrace import auto` use, and what turns "expected '<'" into "this is an Appium page
/// source" when a dump reaches the wrong importer.
extension ImportFormat {
    /// The format a dump's first significant line shows, after the `#` lines, blank lines and
    /// debugger prompts (`(lldb) …`, `cy# …`):
    /// - XML (`<?xml`, `<!--`, `<AppiumAUT`, `<XCUIElementType…`, `<hierarchy`): Appium page
    ///   source;
    /// - `Attributes:`, `Element subtree:`, or an element line like `Window, 0x…, {{0.0, 0.0},
    ///   {…}}` (the `→` marker optional): XCUITest `debugDescription`;
    /// - `<Class: 0x…; …>` or `|`-indented lines (Cycript's backtick first): recursiveDescription.
    /// Anything else is refused at that line, naming the three shapes.
    public static func detect(_ bytes: [UInt8]) throws(ImportError) -> ImportFormat {
        let src = try SourceText(bytes)
        var lo = src.contentStart
        while lo < src.count {
            let hi = src.lineEnd(from: lo)
            let line = Substring(src.string(lo..<hi)).drop { $0 == " " || $0 == "\t" }
            defer { lo = hi + 1 }
            let text = line.hasSuffix("\r") ? line.dropLast() : line
            if text.isEmpty || text.hasPrefix("(lldb)") || text.hasPrefix("cy#") { continue }
            if let format = format(ofFirstLine: text) { return format }
            throw src.error(at: lo + line.base.utf8.distance(from: line.base.startIndex, to: line.startIndex),
                            "cannot tell which dump this is: expected the text of recursiveDescription (<UIView: 0x…; frame = …>), an Appium page source (<?xml …> or <XCUIElementType…>) or an XCUITest debugDescription (Attributes: … / Element subtree:)")
        }
        throw src.error(at: src.count, "the input is empty: expected a view dump")
    }

    private static func format(ofFirstLine line: Substring) -> ImportFormat? {
        for prefix in ["<?xml", "<!--", "<AppiumAUT", "<XCUIElementType", "<hierarchy"] where line.hasPrefix(prefix) {
            return .appium
        }
        for prefix in ["Attributes:", "Element subtree:", "Path to element:", "→"] where line.hasPrefix(prefix) {
            return .xcuitest
        }
        // An XCUITest element line: `Type[ (qualifier)], 0x…, {{x, y}, {w, h}}`.
        if let comma = line.firstRange(of: ", 0x"), line[comma.upperBound...].contains("{{"),
           !line[..<comma.lowerBound].contains("<") {
            return .xcuitest
        }
        if line.hasPrefix("<") || line.hasPrefix("|") || line.hasPrefix("`<") { return .recursiveDescription }
        return nil
    }

    /// What a person calls the format, in messages.
    public var title: String {
        switch self {
        case .recursiveDescription: return "the text of -[UIView recursiveDescription]"
        case .appium: return "an Appium page source (XML)"
        case .xcuitest: return "an XCUITest debugDescription"
        }
    }
}
