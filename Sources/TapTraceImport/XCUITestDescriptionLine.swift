import TapTraceCore

/// One element line of an XCUITest `debugDescription`, split into what XCTest printed:
///
///     <spaces>[→|↳]Type[ (Main)], 0xADDRESS, {{x, y}, {w, h}}[, identifier: '…'][, label: '…']
///         [, placeholderValue: '…'][, value: …][, Selected][, Disabled][, Keyboard Focused]
///
/// Xcode 9 and later separate the parts with `, `; some versions put `traits: N` before the
/// frame, and the Application has `pid: N` and no frame. Xcode 7–8 wrote
/// `Type 0xADDRESS: [Main Window, ][traits: N, ]{{x, y}, {w, h}}, …`; both read the same here.
///
/// XCTest quotes `identifier`, `label`, `placeholderValue` and `title` without escaping, so a
/// label may hold `'`, `, ` and even line breaks: a quoted value ends at the first `'` that is
/// followed by the end of the line or by `, ` and a known attribute (`XCUITestLineScanner.keys`,
/// `.flags`, a frame). `value` is printed unquoted and may hold commas too (`value: 1, 2`); it
/// ends where the next known attribute starts.
struct XCUITestElementLine {
    /// Offset of the marker (`→`, `↳`), or of the type name when there is none.
    var start: Int
    /// Columns before the type name, a marker counting as one. XCTest indents each level of the
    /// tree by two spaces; the `→` takes the place of the last space before the element the
    /// description is of.
    var indent: Int
    var typeOffset: Int
    /// The type without the `XCUIElementType` prefix: `Window`, `Other`, `StaticText`.
    var type: String
    /// `Main` of `Window (Main)` (Xcode 7–8: the `Main Window` attribute).
    var qualifier: String?
    /// `0x2836b42a0`, where XCTest printed one.
    var address: String?
    /// Screen coordinates, in points.
    var frame: Rect?
    var identifier: String?
    var label: String?
    var placeholderValue: String?
    /// Bare attributes in the order printed: `Selected`, `Disabled`, `Keyboard Focused`, …
    var flags: [String] = []
    /// Attributes read but not modelled, in the order printed: keys of `key: value` attributes
    /// (`value`, `traits`, `pid`, `hitPoint`, `title`, …) and flags other than `Disabled` and
    /// `Keyboard Focused` (`Selected`, …).
    var unmodelled: [String] = []
    /// Offset of the line feed that ends the line (after any lines a value ran on to), or the
    /// end of the input.
    var end: Int

    func hasFlag(_ flag: String) -> Bool { flags.contains(flag) }
}

/// The section headers of a `debugDescription`.
enum XCUITestSection: Equatable {
    /// `Attributes: Window (Main), {{…}}`: the element itself, on the header's line.
    case attributes
    /// `Element subtree:`: the element and everything below it, one per line.
    case subtree
    /// `Path to element:`: the element's ancestors from the Application, `↳` before each.
    case path
    /// `Query chain:`: how XCTest found the element (`→Find: …`, `Output: { … }`).
    case queryChain
}

/// Reads `XCUITestElementLine`s, reporting the exact line and column where a line stops
/// matching XCTest's grammar.
struct XCUITestLineScanner {
    let src: SourceText
    private let bytes: [UInt8]

    init(_ src: SourceText) {
        self.src = src
        bytes = src.bytes
    }

    /// Attributes printed as `key: value` that end a quoted or unquoted value before them.
    static let keys: [[UInt8]] = ["identifier", "label", "placeholderValue", "title", "value", "pid", "traits",
                                  "hitPoint", "activationBundleId"].map { Array($0.utf8) }
    /// Keys whose value XCTest prints between single quotes.
    static let quotedKeys: Set<String> = ["identifier", "label", "placeholderValue", "title"]
    /// Bare attributes XCTest prints (`Main Window`: Xcode 7–8's `(Main)`).
    static let flags: [[UInt8]] = ["Selected", "Disabled", "Keyboard Focused", "Main Window"].map { Array($0.utf8) }

    private static let arrow: [UInt8] = Array("→".utf8)
    private static let hook: [UInt8] = Array("↳".utf8)

    // MARK: lines

    /// End of the line starting at `lo` without its `\r` (`raw`), and without trailing blanks.
    func bounds(_ lo: Int) -> (end: Int, raw: Int, trimmed: Int) {
        let end = src.lineEnd(from: lo)
        var raw = end
        if raw > lo, bytes[raw - 1] == 0x0D { raw -= 1 }
        var trimmed = raw
        while trimmed > lo, bytes[trimmed - 1] == 0x20 || bytes[trimmed - 1] == 0x09 || bytes[trimmed - 1] == 0x0D { trimmed -= 1 }
        return (end, raw, trimmed)
    }

    /// Offset of the first byte that is not a space or tab on the line `lo..<hi`.
    func firstNonBlank(_ lo: Int, _ hi: Int) -> Int {
        var i = lo
        while i < hi, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
        return i
    }

    /// The section a line opens, if it is a header (leading blanks allowed: pastes indent).
    func header(_ lo: Int) -> XCUITestSection? {
        let b = bounds(lo)
        let i = firstNonBlank(lo, b.trimmed)
        if startsWith("Attributes:", at: i, b.trimmed) { return .attributes }
        let rest = b.trimmed - i
        if rest == 16, startsWith("Element subtree:", at: i, b.trimmed) { return .subtree }
        if rest == 16, startsWith("Path to element:", at: i, b.trimmed) { return .path }
        if rest == 12, startsWith("Query chain:", at: i, b.trimmed) { return .queryChain }
        return nil
    }

    /// Whether the line starting at `lo` is a header or begins like an element line
    /// (`Type, 0x…`, `Type (Main), 0x…`, `Type 0x…:`, `Type, {{…`, `Application, pid: …`): a
    /// quoted label or a value that runs over a line break never runs into such a line.
    func startsElementOrSection(_ lo: Int) -> Bool {
        if header(lo) != nil { return true }
        let hi = bounds(lo).trimmed
        var i = firstNonBlank(lo, hi)
        if startsWith(Self.arrow, at: i, hi) || startsWith(Self.hook, at: i, hi) { i += 3 }
        guard i < hi, isUpper(bytes[i]) else { return false }
        while i < hi, isAlphanumeric(bytes[i]) { i += 1 }
        if startsWith(" (", at: i, hi) {
            while i < hi, bytes[i] != UInt8(ascii: ")") { i += 1 }
            i += 1
        }
        return startsWith(", 0x", at: i, hi) || startsWith(" 0x", at: i, hi) || startsWith(", {{", at: i, hi)
            || startsWith(", pid:", at: i, hi)
    }

    // MARK: one element

    /// Scans the element line that starts at `lo` (and the lines a quoted label or a value
    /// runs on to).
    func scan(_ lo: Int) throws(ImportError) -> XCUITestElementLine {
        var cursor = Cursor(scanner: self, lineStart: lo)
        var i = lo
        var indent = 0
        while i < cursor.hi, bytes[i] == 0x20 { i += 1; indent += 1 }
        let start = i
        if startsWith(Self.arrow, at: i, cursor.hi) || startsWith(Self.hook, at: i, cursor.hi) {
            i += 3
            indent += 1
        }
        let typeOffset = i
        guard i < cursor.hi, isLetter(bytes[i]) else {
            if i < cursor.hi, bytes[i] == 0x09 {
                throw src.error(at: i, "a tab in the indentation: XCUITest indents the Element subtree with spaces, two per level")
            }
            throw src.error(at: i, "expected an element line like Button, 0x…, {{x, y}, {w, h}}, label: '…' (an element type such as Window, Other or Button first)")
        }
        while i < cursor.hi, isAlphanumeric(bytes[i]) { i += 1 }
        var line = XCUITestElementLine(start: start, indent: indent, typeOffset: typeOffset,
                                       type: src.string(typeOffset..<i), end: cursor.end)
        if startsWith(" (", at: i, cursor.hi) {
            var close = i + 2
            while close < cursor.hi, bytes[close] != UInt8(ascii: ")") { close += 1 }
            guard close < cursor.hi else { throw src.error(at: i + 1, "the '(' after the element type is not closed") }
            line.qualifier = src.string(i + 2..<close)
            i = close + 1
        }
        if i == cursor.hi { return line }
        if startsWith(" 0x", at: i, cursor.hi) {
            // Xcode 7–8: `Type 0xADDRESS: attributes`.
            let a = i + 1
            i = hexEnd(a + 2, cursor.hi)
            guard i > a + 2, i < cursor.hi, bytes[i] == UInt8(ascii: ":") else {
                throw src.error(at: i, "expected ':' after the address (Xcode 7–8 wrote Type 0xADDRESS: {{x, y}, {w, h}}, …)")
            }
            line.address = src.string(a..<i)
            i = skipSpaces(i + 1, cursor.hi)
            if i == cursor.hi { return line }
        } else {
            guard bytes[i] == UInt8(ascii: ",") else {
                throw src.error(at: i, "expected ', ' after the element type \(line.type)")
            }
            i = skipSpaces(i + 1, cursor.hi)
        }
        try scanAttributes(&line, &i, &cursor)
        line.end = cursor.end
        return line
    }

    /// The attributes after the type: `item, item, …` to the end of the line.
    private func scanAttributes(_ line: inout XCUITestElementLine, _ i: inout Int, _ cursor: inout Cursor) throws(ImportError) {
        var lastWasUnquotedValue = false
        while true {
            guard i < cursor.hi else {
                throw src.error(at: i, "expected an attribute after ','")
            }
            lastWasUnquotedValue = false
            if startsWith("{{", at: i, cursor.hi) {
                guard line.frame == nil else { throw src.error(at: i, "a second frame on one element line") }
                line.frame = try frame(&i, cursor.hi)
            } else if line.address == nil, line.frame == nil, startsWith("0x", at: i, cursor.hi),
                      hexEnd(i + 2, cursor.hi) > i + 2 {
                let a = i
                i = hexEnd(i + 2, cursor.hi)
                line.address = src.string(a..<i)
            } else if let keyEnd = keyEnd(i, cursor.hi) {
                let key = src.string(i..<keyEnd)
                i = skipSpaces(keyEnd + 1, cursor.hi)
                if Self.quotedKeys.contains(key) {
                    guard i < cursor.hi, bytes[i] == UInt8(ascii: "'") else {
                        throw src.error(at: i, "expected a quoted value after \(key): ('…')")
                    }
                    let text = try quoted(&i, &cursor)
                    switch key {
                    case "identifier": line.identifier = text
                    case "label": line.label = text
                    case "placeholderValue": line.placeholderValue = text
                    default: line.unmodelled.append(key)
                    }
                } else if i < cursor.hi, bytes[i] == UInt8(ascii: "{") {
                    i = try braces(i, cursor.hi)
                    line.unmodelled.append(key)
                } else if key != "value", i < cursor.hi, bytes[i] == UInt8(ascii: "'") {
                    _ = try quoted(&i, &cursor)
                    line.unmodelled.append(key)
                } else {
                    i = unquotedEnd(i, cursor.hi)
                    line.unmodelled.append(key)
                    lastWasUnquotedValue = true
                }
            } else {
                let flagStart = i
                var j = i
                while j < cursor.hi, bytes[j] != UInt8(ascii: ",") { j += 1 }
                var flagEnd = j
                while flagEnd > flagStart, bytes[flagEnd - 1] == 0x20 { flagEnd -= 1 }
                guard isLetter(bytes[flagStart]),
                      (flagStart..<flagEnd).allSatisfy({ isAlphanumeric(bytes[$0]) || bytes[$0] == 0x20 }) else {
                    throw src.error(at: flagStart, "unexpected text: expected an attribute such as {{x, y}, {w, h}}, identifier: '…', label: '…', value: … or Disabled")
                }
                let flag = src.string(flagStart..<flagEnd)
                if flag == "Main Window" {
                    if line.qualifier == nil { line.qualifier = "Main" }
                } else {
                    line.flags.append(flag)
                    if flag != "Disabled", flag != "Keyboard Focused" { line.unmodelled.append(flag) }
                }
                i = j
            }
            if i == cursor.hi { break }
            guard bytes[i] == UInt8(ascii: ",") else {
                throw src.error(at: i, "expected ', ' and the next attribute, or the end of the line")
            }
            i = skipSpaces(i + 1, cursor.hi)
        }
        // XCTest prints a value with line breaks as it is: the lines up to the next element
        // (or blank line, or section) belong to it.
        if lastWasUnquotedValue {
            while cursor.end < src.count {
                let next = cursor.end + 1
                let b = bounds(next)
                guard firstNonBlank(next, b.trimmed) < b.trimmed, !startsElementOrSection(next) else { break }
                cursor.moveTo(next)
            }
        }
    }

    // MARK: values

    /// A quoted value from the `'` at `i`, possibly over several lines; `i` ends after the
    /// closing quote.
    private func quoted(_ i: inout Int, _ cursor: inout Cursor) throws(ImportError) -> String {
        let open = i
        var pieces: [Range<Int>] = []
        var j = i + 1
        var pieceStart = j
        while true {
            if j >= cursor.hi {
                // No closing quote on this line: the value holds a line break, unless the next
                // line is an element of its own.
                pieces.append(pieceStart..<max(pieceStart, cursor.raw))
                let next = cursor.end + 1
                guard cursor.end < src.count, !startsElementOrSection(next) else {
                    let before = cursor.end < src.count ? "before the next element or section (line \(src.line(of: next)))" : "before the end of the input"
                    throw src.error(at: open, "the quoted value begun here is not closed \(before): expected ' followed by the end of the line or by ', ' and the next attribute")
                }
                cursor.moveTo(next)
                j = next
                pieceStart = next
                continue
            }
            if bytes[j] == UInt8(ascii: "'"), j + 1 == cursor.hi || (bytes[j + 1] == UInt8(ascii: ",") && isBoundary(j + 1, cursor.hi)) {
                pieces.append(pieceStart..<j)
                i = j + 1
                return pieces.map { src.string($0) }.joined(separator: "\n")
            }
            j += 1
        }
    }

    /// End of an unquoted value from `i`: the next `, ` that starts a known attribute, or the
    /// end of the line.
    private func unquotedEnd(_ i: Int, _ hi: Int) -> Int {
        var j = i
        while j < hi {
            if bytes[j] == UInt8(ascii: ","), isBoundary(j, hi) { return j }
            j += 1
        }
        return hi
    }

    /// Whether the `,` at `comma` is followed by a space and a known attribute: a key and
    /// `:`, a known flag ending at `,` or the end of the line, or a frame.
    private func isBoundary(_ comma: Int, _ hi: Int) -> Bool {
        guard comma + 1 < hi, bytes[comma + 1] == 0x20 else { return false }
        let k = skipSpaces(comma + 1, hi)
        if startsWith("{{", at: k, hi) { return true }
        for key in Self.keys where startsWith(key, at: k, hi) {
            if k + key.count < hi, bytes[k + key.count] == UInt8(ascii: ":") { return true }
        }
        for flag in Self.flags where startsWith(flag, at: k, hi) {
            let e = k + flag.count
            if e == hi || bytes[e] == UInt8(ascii: ",") { return true }
        }
        return false
    }

    /// `{…}` with nested braces (`hitPoint: {16.0, 22.5}`), on one line; returns the offset
    /// after the closing brace.
    private func braces(_ i: Int, _ hi: Int) throws(ImportError) -> Int {
        var depth = 0
        var j = i
        while j < hi {
            if bytes[j] == UInt8(ascii: "{") { depth += 1 }
            if bytes[j] == UInt8(ascii: "}") {
                depth -= 1
                if depth == 0 { return j + 1 }
            }
            j += 1
        }
        throw src.error(at: i, "the '{' begun here is not closed on this line")
    }

    /// `{{x, y}, {w, h}}`: finite numbers, a size that is not negative.
    private func frame(_ i: inout Int, _ hi: Int) throws(ImportError) -> Rect {
        let form = "{{x, y}, {width, height}}"
        func expect(_ c: Character) throws(ImportError) {
            i = skipSpaces(i, hi)
            guard i < hi, bytes[i] == UInt8(ascii: c.unicodeScalars.first!) else {
                throw src.error(at: i, "expected '\(c)' in the frame \(form)")
            }
            i += 1
        }
        try expect("{"); try expect("{")
        let x = try number(&i, hi, "x", form)
        try expect(",")
        let y = try number(&i, hi, "y", form)
        try expect("}"); try expect(","); try expect("{")
        let wAt = skipSpaces(i, hi)
        let w = try number(&i, hi, "width", form)
        try expect(",")
        let hAt = skipSpaces(i, hi)
        let h = try number(&i, hi, "height", form)
        try expect("}"); try expect("}")
        if w < 0 { throw src.error(at: wAt, "the frame's width \(src.string(wAt..<wAt + numberLength(wAt, hi))) is negative") }
        if h < 0 { throw src.error(at: hAt, "the frame's height \(src.string(hAt..<hAt + numberLength(hAt, hi))) is negative") }
        return Rect(x, y, w, h)
    }

    private func number(_ i: inout Int, _ hi: Int, _ name: String, _ form: String) throws(ImportError) -> Double {
        i = skipSpaces(i, hi)
        let n = numberLength(i, hi)
        guard n > 0 else { throw src.error(at: i, "expected a number (\(name)) in the frame \(form)") }
        let text = src.string(i..<i + n)
        // Letters other than an exponent's: `nan`, `inf`, which a broken layout prints.
        guard let value = Double(text), value.isFinite, !text.contains(where: { $0.isLetter && $0 != "e" && $0 != "E" }) else {
            throw src.error(at: i, "\(name) '\(text)' is not a finite number")
        }
        i += n
        return value
    }

    /// Length of the number-like word at `i` (digits, letters, `.`, `+`, `-`).
    private func numberLength(_ i: Int, _ hi: Int) -> Int {
        var j = i
        while j < hi, isAlphanumeric(bytes[j]) || bytes[j] == UInt8(ascii: ".") || bytes[j] == UInt8(ascii: "-") || bytes[j] == UInt8(ascii: "+") { j += 1 }
        return j - i
    }

    // MARK: bytes

    /// End of a `key:` at `i` (the offset of the `:`), for keys that are one word.
    private func keyEnd(_ i: Int, _ hi: Int) -> Int? {
        guard i < hi, isLetter(bytes[i]) else { return nil }
        var j = i
        while j < hi, isAlphanumeric(bytes[j]) { j += 1 }
        return j < hi && bytes[j] == UInt8(ascii: ":") ? j : nil
    }

    private func hexEnd(_ i: Int, _ hi: Int) -> Int {
        var j = i
        while j < hi, isHexDigit(bytes[j]) { j += 1 }
        return j
    }

    private func skipSpaces(_ i: Int, _ hi: Int) -> Int {
        var j = i
        while j < hi, bytes[j] == 0x20 { j += 1 }
        return j
    }

    func startsWith(_ s: String, at i: Int, _ hi: Int) -> Bool {
        startsWith(Array(s.utf8), at: i, hi)
    }

    private func startsWith(_ s: [UInt8], at i: Int, _ hi: Int) -> Bool {
        guard i + s.count <= hi else { return false }
        for k in 0..<s.count where bytes[i + k] != s[k] { return false }
        return true
    }

    private func isUpper(_ b: UInt8) -> Bool { b >= 0x41 && b <= 0x5A }
    private func isLetter(_ b: UInt8) -> Bool { isUpper(b) || (b >= 0x61 && b <= 0x7A) }
    private func isAlphanumeric(_ b: UInt8) -> Bool { isLetter(b) || (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "_") }
    private func isHexDigit(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x66) || (b >= 0x41 && b <= 0x46)
    }

    /// The physical line a scan is on: it moves on when a value runs over a line break.
    private struct Cursor {
        let scanner: XCUITestLineScanner
        /// The line feed ending the line (or the end of input).
        var end: Int
        /// End of the line without its `\r`.
        var raw: Int
        /// End of the line without trailing blanks.
        var hi: Int

        init(scanner: XCUITestLineScanner, lineStart: Int) {
            self.scanner = scanner
            (end, raw, hi) = scanner.bounds(lineStart)
        }

        mutating func moveTo(_ lineStart: Int) {
            (end, raw, hi) = scanner.bounds(lineStart)
        }
    }
}
