/// The text of one debugger add-on (`_printHierarchy`, recognizer descriptions, control
/// target answers) as its descriptions read, with the way it was printed undone:
///
/// - NSLog of an NSArray quotes each element that holds spaces (`"<UITapGestureRecognizer: …>",`)
///   and escapes its line breaks as `\n`; Cycript prints strings as `#"…"` and arrays as
///   `@["…"]`. With `unquote`, a `"` opens a quoted element, whose `\n`, `\t`, `\"`, `\\` and
///   `\Uxxxx` escapes are resolved and whose quotes are dropped.
/// - No-break spaces (U+00A0, which blogs use to indent) read as spaces; carriage returns are
///   dropped.
///
/// Every byte keeps the input offset it came from, so that an error names the line and column of
/// the paste, not of the unquoted text.
struct AddOnText {
    private(set) var bytes: [UInt8] = []
    private(set) var origins: [Int] = []
    /// Input offset just past the last character that is not white space: where a cut-off
    /// description is reported.
    private(set) var endOffset: Int

    init(_ src: SourceText, _ range: Range<Int>, unquote: Bool) throws(ImportError) {
        endOffset = range.lowerBound
        bytes.reserveCapacity(range.count)
        origins.reserveCapacity(range.count)
        var i = range.lowerBound
        var quoteStart: Int?
        while i < range.upperBound {
            let b = src[i]
            if b == 0xC2, i + 1 < range.upperBound, src[i + 1] == 0xA0 {
                append(0x20, i); i += 2; continue
            }
            if b == 0x0D { i += 1; continue }
            if unquote, b == UInt8(ascii: "\"") {
                if quoteStart == nil { quoteStart = i } else { quoteStart = nil }
                i += 1
                continue
            }
            if quoteStart != nil, b == UInt8(ascii: "\\"), i + 1 < range.upperBound {
                let e = src[i + 1]
                switch e {
                case UInt8(ascii: "n"): append(0x0A, i); i += 2; continue
                case UInt8(ascii: "t"): append(0x09, i); i += 2; continue
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): append(e, i); i += 2; continue
                case UInt8(ascii: "U"), UInt8(ascii: "u"):
                    if i + 6 <= range.upperBound,
                       let v = UInt32(src.string((i + 2)..<(i + 6)), radix: 16), let scalar = Unicode.Scalar(v) {
                        for u in String(Character(scalar)).utf8 { append(u, i) }
                        i += 6
                        continue
                    }
                default: break
                }
            }
            if quoteStart != nil, b == 0x0A {
                // NSLog escapes line breaks inside an element: a real one means the quote was
                // never closed.
                throw src.error(at: quoteStart!, "the quoted text opened here is not closed on its line (expected '\"')")
            }
            append(b, i)
            i += 1
        }
        if let q = quoteStart {
            throw src.error(at: q, "the quoted text opened here is not closed (expected '\"')")
        }
        var k = bytes.count - 1
        while k >= 0, AddOnText.isWhite(bytes[k]) { k -= 1 }
        if k >= 0 {
            // Past the whole scalar the last byte belongs to.
            var end = origins[k] + 1
            while end < src.count, src[end] & 0xC0 == 0x80 { end += 1 }
            endOffset = end
        }
    }

    private mutating func append(_ b: UInt8, _ origin: Int) {
        bytes.append(b)
        origins.append(origin)
    }

    var count: Int { bytes.count }

    static func isWhite(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
}

/// Reads an `AddOnText` byte by byte; errors are reported at the input offset of the byte read.
struct AddOnCursor {
    let text: AddOnText
    let src: SourceText
    var i = 0

    init(_ text: AddOnText, _ src: SourceText) {
        self.text = text
        self.src = src
    }

    var atEnd: Bool { i >= text.count }
    var current: UInt8 { text.bytes[i] }
    func peek(_ k: Int = 0) -> UInt8? { i + k < text.count ? text.bytes[i + k] : nil }
    func isAt(_ c: Character) -> Bool { peek() == c.asciiValue }

    /// The input offset of logical byte `k` (the end of the text past its last byte).
    func offset(_ k: Int) -> Int { k < text.count ? text.origins[k] : text.endOffset }
    var offset: Int { offset(i) }

    func error(_ message: String, at k: Int? = nil) -> ImportError {
        src.error(at: offset(k ?? i), message)
    }

    /// Spaces and tabs.
    mutating func skipSpaces() {
        while i < text.count, text.bytes[i] == 0x20 || text.bytes[i] == 0x09 { i += 1 }
    }

    /// Spaces, tabs and line breaks.
    mutating func skipWhite() {
        while i < text.count, AddOnText.isWhite(text.bytes[i]) { i += 1 }
    }

    /// Moves past `s` when the text continues with it.
    mutating func take(_ s: String) -> Bool {
        let p = Array(s.utf8)
        guard i + p.count <= text.count else { return false }
        for k in 0..<p.count where text.bytes[i + k] != p[k] { return false }
        i += p.count
        return true
    }

    mutating func expect(_ s: String, _ what: @autoclosure () -> String) throws(ImportError) {
        guard take(s) else { throw error("expected \(what()), found \(found)") }
    }

    /// Letters, digits, `_`, `-`, `.`, `$`: a word like `state`, `must-fail-for`, `0x7fb5`.
    mutating func word() -> String {
        let start = i
        while i < text.count, AddOnCursor.isWordByte(text.bytes[i]) { i += 1 }
        return string(start..<i)
    }

    static func isWordByte(_ b: UInt8) -> Bool {
        (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A || (b >= 0x30 && b <= 0x39)
            || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || b == UInt8(ascii: "$")
            || b >= 0x80
    }

    func string(_ r: Range<Int>) -> String { String(decoding: text.bytes[r], as: UTF8.self) }

    /// What is at the cursor, quoted, for an error message.
    var found: String {
        guard i < text.count else { return "the end of the text" }
        if text.bytes[i] == 0x0A { return "the end of the line" }
        var end = i + 1
        while end < text.count, text.bytes[end] & 0xC0 == 0x80 { end += 1 }
        return "'\(string(i..<end))'"
    }

    /// Moves past text with balanced () [] {} <> up to the first `;` (if asked), `,` (if asked)
    /// or unbalanced closer, or to the end. A mismatched or unclosed bracket is an error at the
    /// bracket.
    mutating func skipBalanced(stopAtSemicolon: Bool, stopAtComma: Bool = false) throws(ImportError) {
        var open: [(closer: UInt8, at: Int)] = []
        while i < text.count {
            let b = text.bytes[i]
            switch b {
            case UInt8(ascii: "("): open.append((UInt8(ascii: ")"), i))
            case UInt8(ascii: "["): open.append((UInt8(ascii: "]"), i))
            case UInt8(ascii: "{"): open.append((UInt8(ascii: "}"), i))
            case UInt8(ascii: "<"): open.append((UInt8(ascii: ">"), i))
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ">"):
                guard let top = open.last else { return }
                guard top.closer == b else {
                    throw error("'\(Character(Unicode.Scalar(b)))' does not close the '\(Character(Unicode.Scalar(AddOnCursor.opener(of: top.closer))))' at line \(src.location(of: offset(top.at)).line), column \(src.location(of: offset(top.at)).column)")
                }
                open.removeLast()
            case UInt8(ascii: ";") where open.isEmpty && stopAtSemicolon: return
            case UInt8(ascii: ",") where open.isEmpty && stopAtComma: return
            default: break
            }
            i += 1
        }
        if let top = open.last {
            throw error("'\(Character(Unicode.Scalar(AddOnCursor.opener(of: top.closer))))' is not closed", at: top.at)
        }
    }

    static func opener(of closer: UInt8) -> UInt8 {
        switch closer {
        case UInt8(ascii: ")"): return UInt8(ascii: "(")
        case UInt8(ascii: "]"): return UInt8(ascii: "[")
        case UInt8(ascii: "}"): return UInt8(ascii: "{")
        default: return UInt8(ascii: "<")
        }
    }

    // MARK: object references

    /// `<Class 0xADDR>`, `<Class: 0xADDR>`, `<Class>` (addresses purged), or a whole description
    /// `<Class: 0xADDR; frame = …>` (an allTargets element that is a view): the class and the
    /// address, the rest skipped. The cursor is at `<`; Swift generic class names keep their
    /// own `<…>`.
    mutating func objectReference(_ what: String) throws(ImportError) -> ObjectReference {
        let start = i
        guard take("<") else { throw error("expected \(what) like <UIView 0x7f…>, found \(found)") }
        let classStart = i
        var angle = 0
        while i < text.count {
            let b = text.bytes[i]
            if b == UInt8(ascii: "<") { angle += 1 } else if b == UInt8(ascii: ">") {
                if angle == 0 { break }
                angle -= 1
            } else if angle == 0, b == UInt8(ascii: ":") || b == UInt8(ascii: ";") || b == 0x20 || b == 0x09 || b == 0x0A {
                break
            }
            i += 1
        }
        guard i > classStart else { throw error("expected a class name after '<'") }
        var ref = ObjectReference(className: string(classStart..<i), address: nil, offset: offset(start))
        if take(":") {}
        skipSpaces()
        if take("0x") || take("0X") {
            let a = i
            while i < text.count, AddOnCursor.isHexDigit(text.bytes[i]) { i += 1 }
            guard i > a else { throw error("expected the hex digits of an address after 0x") }
            ref.address = "0x" + string(a..<i)
        }
        skipSpaces()
        if take(">") { return ref }
        if isAt(";") {
            // A full description: skip its fields.
            try skipBalanced(stopAtSemicolon: false)
            if take(">") { return ref }
        }
        if atEnd { throw error("\(what) begun at column \(src.location(of: ref.offset).column) is cut off: expected '>'") }
        throw error("expected '>' closing \(what), found \(found)")
    }

    static func isHexDigit(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x66)
    }
}

/// An object a debugger printed as `<Class 0xADDR>`; `offset` is where its `<` is in the input.
struct ObjectReference: Hashable {
    var className: String
    var address: String?
    var offset: Int

    /// `Class 0xADDR` (or the class alone), as warnings name objects.
    var text: String { address.map { "\(className) \($0)" } ?? className }
}

/// Addresses as join keys: `0x00007FB5…`, `0x7fb5…` and Cycript's `#0x7fb5…` are one object.
enum AddressKey {
    static func of(_ printed: String?) -> String? {
        guard let printed else { return nil }
        var s = Substring(printed)
        if s.hasPrefix("#") { s = s.dropFirst() }
        guard s.hasPrefix("0x") || s.hasPrefix("0X") else { return nil }
        var digits = s.dropFirst(2)
        guard !digits.isEmpty, digits.utf8.allSatisfy(AddOnCursor.isHexDigit) else { return nil }
        while digits.count > 1, digits.first == "0" { digits = digits.dropFirst() }
        return digits.lowercased()
    }
}
