import TapTraceCore

/// Reads the values of the fields UIKit prints in a view description, reporting the exact
/// column where a value stops matching its form:
/// `frame = (x y; w h)`, `transform = [a, b, c, d, tx, ty]`, `contentOffset: {x, y}`,
/// `hidden = YES`, `alpha = 0.5`, `text = '…'`.
struct DescriptionValues {
    let src: SourceText
    let name: String
    let range: Range<Int>
    private var i: Int
    private var bytes: [UInt8] { src.bytes }

    init(_ src: SourceText, field: DescriptionLine.Field) {
        self.src = src
        name = field.name
        range = field.value
        i = field.value.lowerBound
    }

    private var text: String { src.string(range) }

    /// `(x y; w h)`. Non-finite numbers (`nan`, `inf`), which UIKit prints for broken layouts,
    /// give nil so that the caller can warn.
    mutating func frame() throws(ImportError) -> Rect? {
        try expect("(", form: "(x y; width height)")
        let x = try number(form: "(x y; width height)")
        let y = try number(form: "(x y; width height)")
        try expect(";", form: "(x y; width height)")
        let w = try number(form: "(x y; width height)")
        let h = try number(form: "(x y; width height)")
        try expect(")", form: "(x y; width height)")
        try end(form: "(x y; width height)")
        guard [x, y, w, h].allSatisfy(\.isFinite) else { return nil }
        guard w >= 0, h >= 0 else { throw src.error(at: range.lowerBound, "frame \(text) has a negative size") }
        return Rect(x, y, w, h)
    }

    /// `[a, b, c, d, tx, ty]`.
    mutating func transform() throws(ImportError) -> AffineTransform {
        let form = "[a, b, c, d, tx, ty]"
        try expect("[", form: form)
        var v: [Double] = []
        for k in 0..<6 {
            if k > 0 { try expect(",", form: form) }
            let n = try number(form: form)
            guard n.isFinite else { throw src.error(at: range.lowerBound, "transform \(text) has a value that is not finite") }
            v.append(n)
        }
        try expect("]", form: form)
        try end(form: form)
        return AffineTransform(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5])
    }

    /// `{x, y}` (contentOffset, contentSize).
    mutating func pair() throws(ImportError) -> (Double, Double) {
        let form = "{x, y}"
        try expect("{", form: form)
        let a = try number(form: form)
        try expect(",", form: form)
        let b = try number(form: form)
        try expect("}", form: form)
        try end(form: form)
        guard a.isFinite, b.isFinite else { throw src.error(at: range.lowerBound, "\(name) \(text) is not finite") }
        return (a, b)
    }

    /// `YES` or `NO`.
    func flag() throws(ImportError) -> Bool {
        switch text {
        case "YES": return true
        case "NO": return false
        default: throw src.error(at: range.lowerBound, "\(name) must be YES or NO, not \(text.isEmpty ? "nothing" : text)")
        }
    }

    /// A number in 0…1.
    mutating func alpha() throws(ImportError) -> Double {
        let n = try number(form: "a number from 0 to 1")
        try end(form: "a number from 0 to 1")
        guard n.isFinite, n >= 0, n <= 1 else { throw src.error(at: range.lowerBound, "alpha must be from 0 to 1, not \(text)") }
        return n
    }

    /// The word of `baseClass = UILabel`.
    func word() throws(ImportError) -> String {
        guard !text.isEmpty, !text.contains(" ") else { throw src.error(at: range.lowerBound, "\(name) must be a class name, not \(text.isEmpty ? "nothing" : text)") }
        return text
    }

    /// Text as printed: without the surrounding quotes, with the `\uXXXX`, `\xXX`, `\n`, `\t`,
    /// `\\` and `\'` escapes (Cycript prints them) resolved.
    func quotedText() -> String {
        var body = Substring(text)
        if body.count >= 2, body.first == "'", body.last == "'" { body = body.dropFirst().dropLast() }
        guard body.contains("\\") else { return String(body) }
        var out = ""
        var scalars = Array(body.unicodeScalars)[...]
        while let c = scalars.popFirst() {
            guard c == "\\", let e = scalars.first else { out.unicodeScalars.append(c); continue }
            func hex(_ n: Int) -> Unicode.Scalar? {
                let digits = scalars.dropFirst().prefix(n)
                guard digits.count == n, let v = UInt32(String(String.UnicodeScalarView(digits)), radix: 16) else { return nil }
                return Unicode.Scalar(v)
            }
            switch e {
            case "u":
                if let s = hex(4) { out.unicodeScalars.append(s); scalars = scalars.dropFirst(5); continue }
            case "x":
                if let s = hex(2) { out.unicodeScalars.append(s); scalars = scalars.dropFirst(3); continue }
            case "n": out += "\n"; scalars = scalars.dropFirst(); continue
            case "t": out += "\t"; scalars = scalars.dropFirst(); continue
            case "\\", "'", "\"": out.unicodeScalars.append(e); scalars = scalars.dropFirst(); continue
            default: break
            }
            out.unicodeScalars.append(c)
        }
        return out
    }

    // MARK: grammar

    private mutating func skipSpaces() {
        while i < range.upperBound, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
    }

    private mutating func expect(_ c: Character, form: String) throws(ImportError) {
        skipSpaces()
        guard i < range.upperBound, bytes[i] == c.asciiValue! else {
            throw src.error(at: i, "\(name) must look like \(form): expected '\(c)', found \(found)")
        }
        i += 1
    }

    private mutating func number(form: String) throws(ImportError) -> Double {
        skipSpaces()
        let start = i
        while i < range.upperBound {
            let b = bytes[i]
            let isNumberByte = (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
                || b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E")
                || b == UInt8(ascii: "n") || b == UInt8(ascii: "a") || b == UInt8(ascii: "i") || b == UInt8(ascii: "f")
            guard isNumberByte else { break }
            i += 1
        }
        let word = src.string(start..<i)
        switch word {
        case "nan", "-nan": return .nan
        case "inf", "+inf": return .infinity
        case "-inf": return -.infinity
        default: break
        }
        guard let n = Double(word), n.isFinite else {
            i = start
            throw src.error(at: start, "\(name) must look like \(form): expected a number, found \(found)")
        }
        return n
    }

    private mutating func end(form: String) throws(ImportError) {
        skipSpaces()
        guard i >= range.upperBound else {
            throw src.error(at: i, "\(name) must look like \(form): unexpected \(found) after it")
        }
    }

    private var found: String {
        guard i < range.upperBound else { return "the end of the value" }
        var end = i + 1
        while end < range.upperBound, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return "'\(src.string(i..<end))'"
    }
}
