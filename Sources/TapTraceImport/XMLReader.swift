/// An element of a parsed XML document, stored flat in document order (each element before its
/// children) so that neither parsing nor walking a deeply nested document recurses.
struct XMLElement: Sendable {
    var tag: XMLStartTag
    /// Index of the parent element in the list; nil for the root.
    var parent: Int?
    var name: String { tag.name }
}

/// Checks that the tokens form one well-formed document (one root element, every start tag
/// closed by the matching end tag, no text outside the root) and returns its elements.
/// Iterative: nesting depth costs one stack entry, not a native call frame.
enum XMLReader {
    static func elements(_ src: SourceText) throws(ImportError) -> [XMLElement] {
        var tokenizer = XMLTokenizer(src)
        var elements: [XMLElement] = []
        var open: [Int] = []
        var rootClosed = false
        while let token = try tokenizer.next() {
            switch token {
            case .start(let tag):
                if open.isEmpty, !elements.isEmpty {
                    throw src.error(at: tag.offset, "a second top-level element <\(tag.name)>: an XML document has exactly one root element (was the first one \(rootClosed ? "closed too early" : "pasted twice")?)")
                }
                elements.append(XMLElement(tag: tag, parent: open.last))
                if !tag.selfClosing { open.append(elements.count - 1) } else if open.isEmpty { rootClosed = true }
            case .end(let name, let offset):
                guard let top = open.last else {
                    throw src.error(at: offset, "</\(name)> closes an element that was never opened")
                }
                let opened = elements[top].tag
                guard opened.name == name else {
                    throw src.error(at: offset, "</\(name)> does not match <\(opened.name)> opened at \(tokenizer.where_(opened.offset))")
                }
                open.removeLast()
                if open.isEmpty { rootClosed = true }
            case .text(let offset):
                if open.isEmpty {
                    throw src.error(at: offset, "text outside the root element; an XML document is one element (with optional <?xml …?> and comments around it)")
                }
            }
        }
        if let top = open.last {
            let opened = elements[top].tag
            throw src.error(at: src.count, "the document ends while <\(opened.name)> opened at \(tokenizer.where_(opened.offset)) is still open (cut off?)")
        }
        guard !elements.isEmpty else {
            throw src.error(at: src.count, "no XML element found (the input is empty or only a declaration and comments)")
        }
        return elements
    }
}
