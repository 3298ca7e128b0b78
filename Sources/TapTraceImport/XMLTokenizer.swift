/// One attribute of a start tag, with its value's entities resolved.
struct XMLAttribute: Sendable, Hashable {
    var name: String
    var value: String
    /// Byte offsets of the name and of the first character inside the quotes.
    var nameOffset: Int
    var valueOffset: Int
}

struct XMLStartTag: Sendable, Hashable {
    var name: String
    /// Byte offset of the `<`.
    var offset: Int
    var attributes: [XMLAttribute]
    var selfClosing: Bool

    func attribute(_ name: String) -> XMLAttribute? { attributes.first { $0.name == name } }
}

enum XMLToken: Sendable, Hashable {
    case start(XMLStartTag)
    /// An end tag `</name>` and the offset of its `<`.
    case end(name: String, offset: Int)
    /// Character data (or CDATA) that is not only whitespace, at this offset.
    case text(offset: Int)
}

/// The lexical layer of a small XML 1.0 reader: start and end tags with their attributes, text,
/// and skipped markup (the XML declaration and other processing instructions, comments, a
/// DOCTYPE without an internal subset). It does not check nesting (`XMLReader` does).
///
/// Attribute values may be quoted with `"` or `'`; entities `&amp; &lt; &gt; &quot; &apos;`
/// and character references `&#NN;` `&#xNN;` are resolved. Anything else is refused with the
/// exact line and column, in words that say what was expected, including the typographic quotes
/// (“ ” ‘ ’) that word processors and chat apps put in pasted XML.
struct XMLTokenizer {
    let src: SourceText
    private(set) var pos: Int

    private let bytes: [UInt8]

    init(_ src: SourceText) {
        self.src = src
        bytes = src.bytes
        pos = src.contentStart
    }

    mutating func next() throws(ImportError) -> XMLToken? {
        while pos < bytes.count {
            if bytes[pos] != UInt8(ascii: "<") {
                if let textAt = try skipText() { return .text(offset: textAt) }
                continue
            }
            let start = pos
            guard pos + 1 < bytes.count else { throw src.error(pos + 1, "the document ends right after '<' (cut off?)") }
            switch bytes[pos + 1] {
            case UInt8(ascii: "?"):
                try skip(past: "?>", from: start, what: "the processing instruction (like <?xml … ?>)")
            case UInt8(ascii: "!"):
                if hasPrefix("<!--", at: start) {
                    try skip(past: "-->", from: start, what: "the comment")
                } else if hasPrefix("<![CDATA[", at: start) {
                    let inner = start + 9
                    try skip(past: "]]>", from: start, what: "the CDATA section")
                    if bytes[inner..<(pos - 3)].contains(where: { !XMLTokenizer.isSpace($0) }) { return .text(offset: inner) }
                } else if hasPrefix("<!DOCTYPE", at: start) {
                    try skipDoctype(from: start)
                } else {
                    throw src.error(start, "expected a comment <!-- … -->, <![CDATA[ … ]]> or <!DOCTYPE …> after '<!'")
                }
            case UInt8(ascii: "/"):
                return try endTag(at: start)
            default:
                return .start(try startTag(at: start))
            }
        }
        return nil
    }

    // MARK: markup

    private mutating func startTag(at start: Int) throws(ImportError) -> XMLStartTag {
        pos = start + 1
        let name = try self.name(what: "an element name after '<'")
        var tag = XMLStartTag(name: name, offset: start, attributes: [], selfClosing: false)
        var names: Set<String> = []
        while true {
            let hadSpace = skipSpaces()
            guard pos < bytes.count else {
                throw src.error(pos, "the document ends inside the start tag <\(name)> begun at \(where_(start)) (cut off?)")
            }
            switch bytes[pos] {
            case UInt8(ascii: ">"):
                pos += 1
                return tag
            case UInt8(ascii: "/"):
                guard pos + 1 < bytes.count else {
                    throw src.error(pos + 1, "the document ends inside the start tag <\(name)> begun at \(where_(start)) (cut off?)")
                }
                guard bytes[pos + 1] == UInt8(ascii: ">") else { throw src.error(pos + 1, "expected '>' after '/' to end the empty element <\(name)/>") }
                pos += 2
                tag.selfClosing = true
                return tag
            default:
                guard hadSpace else {
                    throw src.error(pos, "expected whitespace, '>' or '/>' after \(tag.attributes.last.map { "the value of \($0.name)" } ?? "<\(name)")")
                }
                let attribute = try self.attribute(in: name, tagStart: start)
                if !names.insert(attribute.name).inserted {
                    throw src.error(attribute.nameOffset, "attribute \(attribute.name) appears twice in <\(name)>")
                }
                tag.attributes.append(attribute)
            }
        }
    }

    private mutating func attribute(in element: String, tagStart: Int) throws(ImportError) -> XMLAttribute {
        let nameOffset = pos
        let name = try self.name(what: "an attribute name, '>' or '/>' in <\(element)>")
        skipSpaces()
        guard pos < bytes.count else { throw src.error(pos, "the document ends inside the start tag <\(element)> begun at \(where_(tagStart)) (cut off?)") }
        guard bytes[pos] == UInt8(ascii: "=") else {
            throw src.error(pos, "expected '=' and a quoted value after attribute \(name)")
        }
        pos += 1
        skipSpaces()
        guard pos < bytes.count else { throw src.error(pos, "the document ends inside the start tag <\(element)> begun at \(where_(tagStart)) (cut off?)") }
        let quote = bytes[pos]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            if let typographic = typographicQuote(at: pos) {
                throw src.error(pos, "the value of attribute \(name) starts with the typographic quote \(typographic); XML needs a straight \" or ' (was the text pasted through a word processor or chat app?)")
            }
            throw src.error(pos, "the value of attribute \(name) must be quoted with \" or '")
        }
        pos += 1
        let valueOffset = pos
        var value: [UInt8] = []
        while true {
            guard pos < bytes.count else {
                throw src.error(pos, "the document ends inside the value of attribute \(name) begun at \(where_(valueOffset - 1)) (cut off?)")
            }
            let b = bytes[pos]
            if b == quote { pos += 1; break }
            switch b {
            case UInt8(ascii: "<"):
                throw src.error(pos, "'<' is not allowed in an attribute value (write &lt;); is the closing \(quote == 0x22 ? "\"" : "'") of attribute \(name) missing?")
            case UInt8(ascii: "&"):
                value.append(contentsOf: try entity())
            case 0x09, 0x0A:
                // Attribute-value normalization (XML 1.0 §3.3.3); CR LF was one line end.
                value.append(0x20); pos += 1
            case 0x0D:
                value.append(0x20); pos += 1
                if pos < bytes.count, bytes[pos] == 0x0A { pos += 1 }
            default:
                value.append(b); pos += 1
            }
        }
        return XMLAttribute(name: name, value: String(decoding: value, as: UTF8.self),
                            nameOffset: nameOffset, valueOffset: valueOffset)
    }

    private mutating func endTag(at start: Int) throws(ImportError) -> XMLToken {
        pos = start + 2
        let name = try self.name(what: "an element name after '</'")
        skipSpaces()
        guard pos < bytes.count else { throw src.error(pos, "the document ends inside the end tag </\(name)> (cut off?)") }
        guard bytes[pos] == UInt8(ascii: ">") else { throw src.error(pos, "expected '>' to end the end tag </\(name)>") }
        pos += 1
        return .end(name: name, offset: start)
    }

    /// An XML name (letters, digits, `_ - . :` and any non-ASCII character; not starting with a
    /// digit, `-` or `.`).
    private mutating func name(what: String) throws(ImportError) -> String {
        let start = pos
        while pos < bytes.count {
            let b = bytes[pos]
            if b >= 0x80, typographicQuote(at: pos) != nil { break }
            let isStart = XMLTokenizer.isNameStart(b)
            if pos == start ? !isStart : !(isStart || XMLTokenizer.isNameChar(b)) { break }
            pos += 1
        }
        guard pos > start else {
            if pos >= bytes.count { throw src.error(pos, "the document ends where \(what) was expected (cut off?)") }
            if let typographic = typographicQuote(at: pos) {
                throw src.error(pos, "expected \(what), found the typographic quote \(typographic)")
            }
            throw src.error(pos, "expected \(what), found \(describe(at: pos))")
        }
        return src.string(start..<pos)
    }

    /// Resolves the entity or character reference at `pos` (on `&`) and moves past its `;`.
    private mutating func entity() throws(ImportError) -> [UInt8] {
        let start = pos
        var end = pos + 1
        while end < bytes.count, end - start <= 12, bytes[end] != UInt8(ascii: ";") {
            let b = bytes[end]
            guard XMLTokenizer.isNameChar(b) || b == UInt8(ascii: "#") else { break }
            end += 1
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
            throw src.error(start, "'&' must start an entity like &amp; or &#10; (write &amp; for a literal '&')")
        }
        let body = src.string((start + 1)..<end)
        pos = end + 1
        switch body {
        case "amp": return [UInt8(ascii: "&")]
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default: break
        }
        guard body.hasPrefix("#") else {
            throw src.error(start, "unknown entity &\(body); (XML has only &amp; &lt; &gt; &quot; &apos; and character references like &#10;)")
        }
        let digits = body.dropFirst()
        let value: UInt32?
        if digits.hasPrefix("x") {
            value = digits.count > 1 ? UInt32(digits.dropFirst(), radix: 16) : nil
        } else {
            value = digits.isEmpty ? nil : UInt32(digits, radix: 10)
        }
        guard let value, let scalar = Unicode.Scalar(value), XMLTokenizer.isXMLChar(value) else {
            throw src.error(start, "&\(body); is not a character XML allows")
        }
        return Array(String(Character(scalar)).utf8)
    }

    // MARK: skipping

    /// Text between tags; returns the offset of its first non-space character, if any.
    private mutating func skipText() throws(ImportError) -> Int? {
        var firstNonSpace: Int?
        while pos < bytes.count, bytes[pos] != UInt8(ascii: "<") {
            let b = bytes[pos]
            if b == UInt8(ascii: "&") {
                if firstNonSpace == nil { firstNonSpace = pos }
                _ = try entity()
                continue
            }
            if firstNonSpace == nil, !XMLTokenizer.isSpace(b) { firstNonSpace = pos }
            pos += 1
        }
        return firstNonSpace
    }

    private mutating func skip(past terminator: String, from start: Int, what: String) throws(ImportError) {
        let t = Array(terminator.utf8)
        var i = start + 2
        while i + t.count <= bytes.count {
            if bytes[i] == t[0], Array(bytes[i..<(i + t.count)]) == t {
                pos = i + t.count
                return
            }
            i += 1
        }
        throw src.error(bytes.count, "the document ends inside \(what) begun at \(where_(start)) (missing \(terminator))")
    }

    private mutating func skipDoctype(from start: Int) throws(ImportError) {
        var i = start + 9
        var inSubset = false
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "["): inSubset = true
            case UInt8(ascii: "]"): inSubset = false
            case UInt8(ascii: ">") where !inSubset:
                pos = i + 1
                return
            default: break
            }
            i += 1
        }
        throw src.error(bytes.count, "the document ends inside the <!DOCTYPE …> begun at \(where_(start))")
    }

    @discardableResult
    private mutating func skipSpaces() -> Bool {
        let start = pos
        while pos < bytes.count, XMLTokenizer.isSpace(bytes[pos]) { pos += 1 }
        return pos > start
    }

    // MARK: helpers

    private func hasPrefix(_ s: String, at offset: Int) -> Bool {
        let p = Array(s.utf8)
        return offset + p.count <= bytes.count && Array(bytes[offset..<(offset + p.count)]) == p
    }

    func where_(_ offset: Int) -> String {
        let (line, column) = src.location(of: offset)
        return "line \(line), column \(column)"
    }

    /// “ ” ‘ ’ „ ‚ « » ″ as they appear in UTF-8, named for the message.
    private func typographicQuote(at offset: Int) -> String? {
        let quotes: [(bytes: [UInt8], text: String)] = [
            ([0xE2, 0x80, 0x9C], "“ (U+201C)"), ([0xE2, 0x80, 0x9D], "” (U+201D)"),
            ([0xE2, 0x80, 0x98], "‘ (U+2018)"), ([0xE2, 0x80, 0x99], "’ (U+2019)"),
            ([0xE2, 0x80, 0x9E], "„ (U+201E)"), ([0xE2, 0x80, 0x9A], "‚ (U+201A)"),
            ([0xC2, 0xAB], "« (U+00AB)"), ([0xC2, 0xBB], "» (U+00BB)"),
            ([0xE2, 0x80, 0xB3], "″ (U+2033)"),
        ]
        for q in quotes where offset + q.bytes.count <= bytes.count
            && Array(bytes[offset..<(offset + q.bytes.count)]) == q.bytes {
            return q.text
        }
        return nil
    }

    private func describe(at offset: Int) -> String {
        let b = bytes[offset]
        switch b {
        case 0x20: return "a space"
        case 0x09: return "a tab"
        case 0x0A, 0x0D: return "the end of the line"
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(b)))'"
        default:
            var end = offset + 1
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            return "'\(src.string(offset..<end))'"
        }
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    static func isNameStart(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == UInt8(ascii: "_") || b == UInt8(ascii: ":") || b >= 0x80
    }

    static func isNameChar(_ b: UInt8) -> Bool {
        isNameStart(b) || (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
    }

    static func isXMLChar(_ v: UInt32) -> Bool {
        v == 0x9 || v == 0xA || v == 0xD || (0x20...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v) || (0x10000...0x10FFFF).contains(v)
    }
}

extension SourceText {
    fileprivate func error(_ offset: Int, _ message: String) -> ImportError { error(at: offset, message) }
}
