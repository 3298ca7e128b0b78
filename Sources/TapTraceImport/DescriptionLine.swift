/// One line of `-[UIView recursiveDescription]`, split into its parts without interpreting
/// them:
///
///     <indent of '|'><ClassName: 0xADDRESS; name = value; name: value; ...> trailing text
///
/// Depth is the number of `|` before the `<` (spaces vary between sources). Fields are split on
/// `;` outside brackets, so `frame = (0 0; 375 667)`, `animations = { position=<…>; }` and
/// `layer = <CALayer: 0x…>` stay whole; a value that starts with `'` (UIKit's `text = '…'`)
/// ends at the first `'` followed by `;` or `>`, so `'What's'` is one value. Some classes wrap
/// the description in their own (`<<_UITextContainerView: …> minSize = …>`), and some print text
/// after the closing `>`: both are kept as `extras`.
struct DescriptionLine {
    struct Field {
        var name: String
        var nameOffset: Int
        /// Byte range of the value (quotes included), trimmed.
        var value: Range<Int>
    }

    var depth: Int
    /// Offset of the `<` that opens the view's own description.
    var start: Int
    var className: String
    var address: String?
    var fields: [Field]
    /// Text outside the view's own description (wrapping class extras, trailing text).
    var extras: [Range<Int>]
}

enum DescriptionLineKind {
    case blank
    /// `...` (or `…`): lines left out by whoever pasted the dump.
    case elision
    /// A debugger prompt line like `(lldb) po view.recursiveDescription()` or `cy# …`.
    case prompt
    case view(DescriptionLine)
}

struct DescriptionLineScanner {
    let src: SourceText
    private let bytes: [UInt8]

    init(_ src: SourceText) {
        self.src = src
        bytes = src.bytes
    }

    /// Scans the line `lo..<hi` (without its line feed).
    func scan(_ lo: Int, _ rawHi: Int) throws(ImportError) -> DescriptionLineKind {
        var hi = rawHi
        while hi > lo, bytes[hi - 1] == 0x0D || bytes[hi - 1] == 0x20 || bytes[hi - 1] == 0x09 { hi -= 1 }
        var i = lo
        var depth = 0
        while i < hi, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == UInt8(ascii: "|") {
            if bytes[i] == UInt8(ascii: "|") { depth += 1 }
            i += 1
        }
        if i == hi { return .blank }
        if isElision(i, hi) { return .elision }
        if startsWith("(lldb)", at: i, hi) || startsWith("cy#", at: i, hi) { return .prompt }
        // Cycript wraps its string result in backticks.
        if bytes[i] == UInt8(ascii: "`") { i += 1 }
        if hi > i, bytes[hi - 1] == UInt8(ascii: "`") { hi -= 1 }
        guard i < hi, bytes[i] == UInt8(ascii: "<") else {
            throw src.error(at: i, "expected '<' starting a view description like <UIView: 0x…; frame = (0 0; 10 10); …> (recursiveDescription lines are '|' for depth, then the view)")
        }
        var wrappers = 0
        while i + wrappers < hi, bytes[i + wrappers] == UInt8(ascii: "<") { wrappers += 1 }
        let start = i + wrappers - 1
        var j = start + 1

        // Class name: up to ':' ';' '>' or a space, with balanced <…> for generic Swift names.
        let classStart = j
        var angle = 0
        while j < hi {
            let b = bytes[j]
            if b == UInt8(ascii: "<") { angle += 1 } else if b == UInt8(ascii: ">") {
                if angle == 0 { break }
                angle -= 1
            } else if angle == 0, b == UInt8(ascii: ":") || b == UInt8(ascii: ";") || b == 0x20 || b == 0x09 {
                break
            }
            j += 1
        }
        guard j > classStart else { throw src.error(at: j, "expected a class name after '<'") }
        let className = src.string(classStart..<j)
        var line = DescriptionLine(depth: depth, start: start, className: className, address: nil, fields: [], extras: [])
        j = skipSpaces(j, hi)
        if j < hi, bytes[j] == UInt8(ascii: ":") {
            j = skipSpaces(j + 1, hi)
            let a = j
            while j < hi, bytes[j] != UInt8(ascii: ";"), bytes[j] != UInt8(ascii: ">"), bytes[j] != 0x20 { j += 1 }
            if j > a { line.address = src.string(a..<j) }
            j = skipSpaces(j, hi)
        }
        // Fields.
        while true {
            guard j < hi else {
                throw src.error(at: hi, "the description begun at column \(src.location(of: start).column) is not closed: expected ';' and a field, or '>'")
            }
            if bytes[j] == UInt8(ascii: ">") { j += 1; break }
            guard bytes[j] == UInt8(ascii: ";") else {
                throw src.error(at: j, "expected ';' or '>' after \(line.fields.last.map { "the value of \($0.name)" } ?? "the class name")")
            }
            j = skipSpaces(j + 1, hi)
            if j < hi, bytes[j] == UInt8(ascii: ">") { j += 1; break }
            let field = try scanField(&j, hi)
            line.fields.append(field)
        }
        // Wrapping descriptions: their extra text up to each closing '>'.
        for level in 1..<max(wrappers, 1) {
            let extraStart = j
            j = try scanBalanced(j, hi, stopAtSemicolon: false)
            guard j < hi else {
                throw src.error(at: hi, "expected '>' closing the '<' at column \(src.location(of: start - level).column)")
            }
            if let r = trimmed(extraStart, j) { line.extras.append(r) }
            j += 1
        }
        if let r = trimmed(j, hi) { line.extras.append(r) }
        return .view(line)
    }

    /// `name = value` or `name: value`, from `j` to the `;` or `>` that ends it.
    private func scanField(_ j: inout Int, _ hi: Int) throws(ImportError) -> DescriptionLine.Field {
        let nameStart = j
        while j < hi, bytes[j] != UInt8(ascii: "="), bytes[j] != UInt8(ascii: ":"),
              bytes[j] != UInt8(ascii: ";"), bytes[j] != UInt8(ascii: ">") {
            j += 1
        }
        let name = trimmed(nameStart, j).map { src.string($0) } ?? ""
        guard !name.isEmpty else { throw src.error(at: nameStart, "expected a field name like frame = …") }
        guard j < hi, bytes[j] == UInt8(ascii: "=") || bytes[j] == UInt8(ascii: ":") else {
            // A bare word (no value), like some classes print.
            return DescriptionLine.Field(name: name, nameOffset: nameStart, value: j..<j)
        }
        j = skipSpaces(j + 1, hi)
        let valueStart = j
        if j < hi, bytes[j] == UInt8(ascii: "'") {
            var k = j + 1
            while k < hi {
                if bytes[k] == UInt8(ascii: "'"), k + 1 == hi || bytes[k + 1] == UInt8(ascii: ";") || bytes[k + 1] == UInt8(ascii: ">") { break }
                k += 1
            }
            guard k < hi else { throw src.error(at: j, "the quoted text of \(name) is not closed (expected ' followed by ';' or '>')") }
            j = k + 1
            return DescriptionLine.Field(name: name, nameOffset: nameStart, value: valueStart..<j)
        }
        j = try scanBalanced(j, hi, stopAtSemicolon: true)
        let value = trimmed(valueStart, j) ?? valueStart..<valueStart
        return DescriptionLine.Field(name: name, nameOffset: nameStart, value: value)
    }

    /// Moves past text with balanced () [] {} <> to the first `;` (if asked) or `>` outside
    /// them, or to `hi`. A mismatched or unclosed bracket is an error at the bracket.
    private func scanBalanced(_ from: Int, _ hi: Int, stopAtSemicolon: Bool) throws(ImportError) -> Int {
        var open: [(closer: UInt8, at: Int)] = []
        var j = from
        while j < hi {
            let b = bytes[j]
            switch b {
            case UInt8(ascii: "("): open.append((UInt8(ascii: ")"), j))
            case UInt8(ascii: "["): open.append((UInt8(ascii: "]"), j))
            case UInt8(ascii: "{"): open.append((UInt8(ascii: "}"), j))
            case UInt8(ascii: "<"): open.append((UInt8(ascii: ">"), j))
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ">"):
                if let top = open.last {
                    guard top.closer == b else {
                        throw src.error(at: j, "'\(Character(Unicode.Scalar(b)))' does not close the '\(Character(Unicode.Scalar(DescriptionLineScanner.opener(of: top.closer))))' at column \(src.location(of: top.at).column)")
                    }
                    open.removeLast()
                } else if b == UInt8(ascii: ">") {
                    return j
                }
            case UInt8(ascii: ";") where open.isEmpty && stopAtSemicolon:
                return j
            default: break
            }
            j += 1
        }
        if let top = open.last {
            throw src.error(at: top.at, "'\(Character(Unicode.Scalar(DescriptionLineScanner.opener(of: top.closer))))' is not closed on this line")
        }
        return j
    }

    private static func opener(of closer: UInt8) -> UInt8 {
        switch closer {
        case UInt8(ascii: ")"): return UInt8(ascii: "(")
        case UInt8(ascii: "]"): return UInt8(ascii: "[")
        case UInt8(ascii: "}"): return UInt8(ascii: "{")
        default: return UInt8(ascii: "<")
        }
    }

    private func skipSpaces(_ from: Int, _ hi: Int) -> Int {
        var j = from
        while j < hi, bytes[j] == 0x20 || bytes[j] == 0x09 { j += 1 }
        return j
    }

    private func trimmed(_ lo: Int, _ hi: Int) -> Range<Int>? {
        var a = lo, b = hi
        while a < b, bytes[a] == 0x20 || bytes[a] == 0x09 { a += 1 }
        while b > a, bytes[b - 1] == 0x20 || bytes[b - 1] == 0x09 { b -= 1 }
        return a < b ? a..<b : nil
    }

    private func isElision(_ lo: Int, _ hi: Int) -> Bool {
        var i = lo
        var dots = 0
        while i < hi {
            if bytes[i] == UInt8(ascii: ".") { dots += 1; i += 1 }
            else if i + 2 < hi, bytes[i] == 0xE2, bytes[i + 1] == 0x80, bytes[i + 2] == 0xA6 { dots += 3; i += 3 }
            else if bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
            else { return false }
        }
        return dots >= 2
    }

    private func startsWith(_ s: String, at i: Int, _ hi: Int) -> Bool {
        let p = Array(s.utf8)
        return i + p.count <= hi && Array(bytes[i..<(i + p.count)]) == p
    }
}
