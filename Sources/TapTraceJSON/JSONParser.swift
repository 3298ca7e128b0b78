/// RFC 8259 parser producing a `JSONTape`. Iterative: open containers live on an explicit stack,
/// so nesting depth is bounded by memory, not by the thread's stack.
///
/// Written for speed as well (a scene's decoding starts here, a quarter of it): nodes go into
/// memory the parser owns, through a pointer (an array's append checks its uniqueness and
/// capacity each time); the innermost open container is a local, not the stack's top; strings
/// are scanned eight bytes at a time for their end.
struct JSONParser: ~Copyable {
    /// Valid only while `parse` runs (the caller holds the array's buffer): reading through a
    /// buffer pointer skips the bounds and uniqueness checks of array indexing.
    let bytes: UnsafeBufferPointer<UInt8>
    var pos = 0
    private var nodes: UnsafeMutablePointer<JSONTape.Node>
    private var count = 0
    private var capacity: Int

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        // About one node per five bytes of a typical document (a scene: keys, short strings
        // and numbers); grown when a document is denser.
        capacity = max(16, bytes.count / 5)
        nodes = .allocate(capacity: capacity)
    }

    deinit { nodes.deallocate() }

    private struct Open {
        var node: Int
        var isObject: Bool
        var children: UInt32
    }

    @inline(__always)
    private mutating func append(_ kind: JSONTape.Kind, flag: Bool, offset: Int, length: Int) {
        if count == capacity { grow() }
        (nodes + count).initialize(to: JSONTape.Node(kind: kind, flag: flag, offset: UInt32(truncatingIfNeeded: offset),
                                                     length: UInt32(truncatingIfNeeded: length), next: UInt32(count + 1)))
        count += 1
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<JSONTape.Node>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: nodes, count: count)
        nodes.deallocate()
        nodes = larger
        capacity *= 2
    }

    mutating func parse() throws(JSONSyntaxError) -> [JSONTape.Node] {
        guard bytes.count < Int(UInt32.max) else { throw error("document larger than 4 GiB") }
        guard let base = bytes.baseAddress else { throw error("unexpected end of input, expected a value") }
        let end = bytes.count
        // The position is a local while the loop runs (a property of `self` would be stored
        // back to memory at every step); `pos` is set from it before an error is built.
        var i = 0
        // Skip a UTF-8 byte order mark, which some editors write.
        if end >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF { i = 3 }
        @inline(__always) func skipWhitespace() { i = Self.skipWhitespace(base, end, from: i) }
        var stack: [Open] = []
        var top = Open(node: -1, isObject: false, children: 0)
        var inContainer = false
        skipWhitespace()
        while true {
            // A value starts at `i`.
            guard i < end else { pos = i; throw error("unexpected end of input, expected a value") }
            switch base[i] {
            case 0x22:
                i = try scanString(from: i)
            case 0x2D, 0x30...0x39:
                i = try scanNumber(from: i)
            case 0x7B, 0x5B: // { [
                let isObject = base[i] == 0x7B
                append(isObject ? .object : .array, flag: false, offset: i, length: 0)
                let open = Open(node: count - 1, isObject: isObject, children: 0)
                i += 1
                skipWhitespace()
                if i < end, base[i] == (isObject ? 0x7D : 0x5D) {
                    // An empty container closes at once.
                    i += 1
                    close(open)
                } else {
                    guard i < end else { pos = i; throw error(isObject ? "unterminated object" : "unterminated array") }
                    if inContainer { stack.append(top) }
                    top = open
                    inContainer = true
                    if isObject {
                        i = try readKey(at: i)
                        top.children = 2
                    } else {
                        top.children = 1
                    }
                    continue
                }
            case 0x74:
                pos = i; try literal("true"); i = pos
                append(.bool, flag: true, offset: i - 4, length: 4)
            case 0x66:
                pos = i; try literal("false"); i = pos
                append(.bool, flag: false, offset: i - 5, length: 5)
            case 0x6E:
                pos = i; try literal("null"); i = pos
                append(.null, flag: false, offset: i - 4, length: 4)
            default:
                pos = i
                throw error("unexpected character \(describe(base[i])), expected a value")
            }
            // After a value: the next member or element of the innermost container, or its end
            // (and then the next of the one around it).
            guard inContainer else { break }
            while true {
                skipWhitespace()
                guard i < end else {
                    pos = i
                    throw error(top.isObject ? "unterminated object" : "unterminated array")
                }
                let b = base[i]
                if b == 0x2C {
                    i += 1
                    skipWhitespace()
                    if top.isObject {
                        i = try readKey(at: i)
                        top.children += 2
                    } else {
                        top.children += 1
                    }
                    break
                }
                guard b == (top.isObject ? 0x7D : 0x5D) else {
                    pos = i
                    throw error(top.isObject ? "expected ',' or '}' in object" : "expected ',' or ']' in array")
                }
                i += 1
                close(top)
                guard let outer = stack.popLast() else { inContainer = false; break }
                top = outer
            }
            guard inContainer else { break }
            skipWhitespace()
        }
        skipWhitespace()
        pos = i
        guard i == end else { throw error("unexpected text after the JSON value") }
        let count = self.count, nodes = self.nodes
        return [JSONTape.Node](unsafeUninitializedCapacity: count) { buffer, initialized in
            buffer.baseAddress!.initialize(from: nodes, count: count)
            initialized = count
        }
    }

    /// A member's key and its colon, from `start`: the key appended; returns the index after
    /// the colon and the whitespace that follows. (A method taking and returning the position:
    /// a local function capturing the parse loop's position made it a boxed variable.)
    @inline(__always)
    private mutating func readKey(at start: Int) throws(JSONSyntaxError) -> Int {
        let base = bytes.baseAddress!, end = bytes.count
        var i = start
        guard i < end, base[i] == 0x22 else { pos = i; throw error("expected a string key") }
        i = try scanString(from: i)
        i = Self.skipWhitespace(base, end, from: i)
        guard i < end, base[i] == 0x3A else { pos = i; throw error("expected ':' after key") }
        return Self.skipWhitespace(base, end, from: i + 1)
    }

    @inline(__always)
    private static func skipWhitespace(_ base: UnsafePointer<UInt8>, _ end: Int, from start: Int) -> Int {
        var i = start
        while i < end {
            let c = base[i]
            guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { break }
            i += 1
        }
        return i
    }

    @inline(__always)
    private mutating func close(_ open: Open) {
        nodes[open.node].length = open.children
        nodes[open.node].next = UInt32(count)
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let n = word.utf8CodeUnitCount
        let ok = word.withUTF8Buffer { w -> Bool in
            guard pos + n <= bytes.count else { return false }
            for k in 0..<n where bytes[pos + k] != w[k] { return false }
            return true
        }
        guard ok else { throw error("invalid literal, expected \(word)") }
        pos += n
    }

    /// The string whose opening quote is at `quote`, appended; returns the index after it.
    @inline(__always)
    private mutating func scanString(from quote: Int) throws(JSONSyntaxError) -> Int {
        let start = quote + 1
        var i = start
        var escaped = false
        let count = bytes.count
        let base = bytes.baseAddress!
        while true {
            // Eight bytes at a time: straight to the first that ends the string, escapes or is
            // a control character (a key or an id is found in one step).
            if i + 8 <= count {
                let special = JSONParser.special(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                if special == 0 { i += 8; continue }
                i += special.trailingZeroBitCount >> 3
            } else if i >= count {
                pos = start - 1
                throw error("unterminated string")
            }
            let b = bytes[i]
            if b == 0x22 { break }
            if b == 0x5C {
                escaped = true
                guard i + 1 < count else { pos = i; throw error("unterminated escape") }
                let e = bytes[i + 1]
                switch e {
                case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74: i += 2
                case 0x75: i += try unicodeEscape(at: i)
                default:
                    pos = i; throw error("invalid escape \\\(describe(e))")
                }
                continue
            }
            if b < 0x20 { pos = i; throw error("control character in string (escape it)") }
            if b >= 0x80 { i += try utf8Sequence(at: i); continue }
            i += 1
        }
        append(.string, flag: escaped, offset: start, length: i - start)
        return i + 1
    }

    /// The length of the `\u` escape at `i`: 6, or 12 for a surrogate pair. Surrogates come in
    /// pairs: a lone one is no character, and decoding it would store U+FFFD in place of what
    /// the client sent. Out of line, as `utf8Sequence(at:)`: the string scan's loop stays small
    /// enough to be inlined into the parser, as it was before these checks (decode-10k).
    @inline(never)
    private mutating func unicodeEscape(at i: Int) throws(JSONSyntaxError) -> Int {
        guard let unit = hex4(at: i + 2) else { pos = i; throw error("invalid \\u escape") }
        if unit >= 0xDC00 && unit < 0xE000 {
            pos = i; throw error("invalid \\u escape: low surrogate without a high one at byte offset \(i)")
        }
        guard unit >= 0xD800 && unit < 0xDC00 else { return 6 }
        guard i + 7 < bytes.count, bytes[i + 6] == 0x5C, bytes[i + 7] == 0x75,
              let low = hex4(at: i + 8), low >= 0xDC00 && low < 0xE000 else {
            pos = i; throw error("invalid \\u escape: high surrogate without a low one at byte offset \(i)")
        }
        return 12
    }

    /// The length of the UTF-8 sequence at `i` (a byte of 0x80 or more), or a syntax error
    /// naming its byte offset when it is not well formed. Out of line: see `unicodeEscape(at:)`.
    @inline(never)
    private mutating func utf8Sequence(at i: Int) throws(JSONSyntaxError) -> Int {
        let length = Self.utf8SequenceLength(bytes.baseAddress!, at: i, end: bytes.count)
        guard length > 0 else { pos = i; throw error("invalid UTF-8 at byte offset \(i)") }
        return length
    }

    /// The value of the four hex digits at `at`, or nil when they are not four hex digits.
    private func hex4(at: Int) -> UInt32? {
        guard at + 3 < bytes.count else { return nil }
        var value: UInt32 = 0
        for k in 0..<4 {
            let c = bytes[at + k]
            guard JSONParser.isHex(c) else { return nil }
            value = value << 4 | UInt32(c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x61 + 10)
        }
        return value
    }

    /// The length of the well-formed UTF-8 sequence starting at `i` (a byte of 0x80 or more),
    /// or 0 when it is not one: a stray continuation byte, a truncated sequence, an overlong
    /// encoding (C0, C1, E0 80–9F, F0 80–8F), an encoded surrogate (ED A0–BF) or a value past
    /// U+10FFFF (F4 90–BF, F5–FF); Unicode's table 3-7 of well-formed sequences.
    @inline(__always)
    private static func utf8SequenceLength(_ base: UnsafePointer<UInt8>, at i: Int, end: Int) -> Int {
        let lead = base[i]
        let length: Int, low: UInt8, high: UInt8
        switch lead {
        case 0xC2...0xDF: length = 2; low = 0x80; high = 0xBF
        case 0xE0: length = 3; low = 0xA0; high = 0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3; low = 0x80; high = 0xBF
        case 0xED: length = 3; low = 0x80; high = 0x9F
        case 0xF0: length = 4; low = 0x90; high = 0xBF
        case 0xF1...0xF3: length = 4; low = 0x80; high = 0xBF
        case 0xF4: length = 4; low = 0x80; high = 0x8F
        default: return 0
        }
        guard i + length <= end, base[i + 1] >= low, base[i + 1] <= high else { return 0 }
        for k in 2..<length where base[i + k] & 0xC0 != 0x80 { return 0 }
        return length
    }

    /// The high bit of each of eight bytes (little-endian) that is a quote, a backslash, below
    /// 0x20 or not ASCII (checked as UTF-8 one sequence at a time); the lowest one set is exact
    /// (a borrow can only mark bytes above it).
    @inline(__always)
    private static func special(_ w: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
        let quote = w ^ (ones &* 0x22), backslash = w ^ (ones &* 0x5C)
        let zeroQuote = (quote &- ones) & ~quote
        let zeroBackslash = (backslash &- ones) & ~backslash
        let control = (w &- ones &* 0x20) & ~w
        return (zeroQuote | zeroBackslash | control | w) & high
    }

    /// The number that starts at `start`, appended; returns the index after it.
    @inline(__always)
    private mutating func scanNumber(from start: Int) throws(JSONSyntaxError) -> Int {
        var i = start
        let count = bytes.count
        let bytes = self.bytes.baseAddress!   // a local: read in place, not through `self`
        if bytes[i] == 0x2D { i += 1 }
        guard i < count, JSONParser.isDigit(bytes[i]) else { pos = i; throw error("invalid number") }
        if bytes[i] == 0x30 {
            i += 1
            if i < count, JSONParser.isDigit(bytes[i]) { pos = i; throw error("leading zeros are not allowed in numbers") }
        } else {
            while i < count, JSONParser.isDigit(bytes[i]) { i += 1 }
        }
        if i < count, bytes[i] == 0x2E {
            i += 1
            guard i < count, JSONParser.isDigit(bytes[i]) else { pos = i; throw error("expected a digit after '.'") }
            while i < count, JSONParser.isDigit(bytes[i]) { i += 1 }
        }
        if i < count, bytes[i] == 0x65 || bytes[i] == 0x45 {
            i += 1
            if i < count, bytes[i] == 0x2B || bytes[i] == 0x2D { i += 1 }
            guard i < count, JSONParser.isDigit(bytes[i]) else { pos = i; throw error("expected a digit in the exponent") }
            while i < count, JSONParser.isDigit(bytes[i]) { i += 1 }
        }
        append(.number, flag: false, offset: start, length: i - start)
        return i
    }


    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    static func isHex(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
    }

    private func describe(_ b: UInt8) -> String {
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x" + String(b, radix: 16, uppercase: true)
    }

    private func error(_ message: String) -> JSONSyntaxError {
        let (line, column) = JSONSyntaxError.lineColumn(in: Array(bytes), offset: pos)
        return JSONSyntaxError(offset: pos, line: line, column: column, message: message)
    }
}

@usableFromInline enum JSONNumber {
    private static let powersOfTen: [Double] = (0...22).map { k in
        var p = 1.0
        for _ in 0..<k { p *= 10 }
        return p
    }

    /// Parses a number token already checked by the grammar. Integers and decimals with at most
    /// 15 significant digits and 22 fraction digits are exact: both operands of the division are
    /// exact doubles and IEEE division rounds correctly (Clinger's fast path).
    @usableFromInline static func parse(_ buf: UnsafeBufferPointer<UInt8>, from start: Int, count: Int) -> Double? {
        var i = start
        let end = start + count
        var negative = false
        if buf[i] == 0x2D { negative = true; i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var simple = true
        while i < end, buf[i] >= 0x30, buf[i] <= 0x39 {
            mantissa = mantissa &* 10 &+ UInt64(buf[i] - 0x30)
            if mantissa != 0 { digits += 1 }
            i += 1
        }
        if i < end, buf[i] == 0x2E {
            i += 1
            while i < end, buf[i] >= 0x30, buf[i] <= 0x39 {
                mantissa = mantissa &* 10 &+ UInt64(buf[i] - 0x30)
                if mantissa != 0 { digits += 1 }
                fractionDigits += 1
                i += 1
            }
        }
        if i < end { simple = false } // exponent
        if simple, digits <= 15, fractionDigits <= 22 {
            let value = fractionDigits == 0 ? Double(mantissa) : Double(mantissa) / powersOfTen[fractionDigits]
            return negative ? -value : value
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: buf[start..<end]), as: UTF8.self)
        return Double(text)
    }
}

enum JSONStringDecoder {
    static func unescape(_ raw: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = raw.startIndex
        let end = raw.endIndex
        func hex4(_ at: Int) -> UInt32 {
            var v: UInt32 = 0
            for k in 0..<4 {
                let c = raw[at + k]
                let d: UInt8 = c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x61 + 10
                v = v << 4 | UInt32(d)
            }
            return v
        }
        func appendScalar(_ v: UInt32) {
            let scalar = Unicode.Scalar(v) ?? "\u{FFFD}"
            out.append(contentsOf: Array(String(Character(scalar)).utf8))
        }
        while i < end {
            let b = raw[i]
            guard b == 0x5C else { out.append(b); i += 1; continue }
            let e = raw[i + 1]
            switch e {
            case 0x62: out.append(0x08); i += 2
            case 0x66: out.append(0x0C); i += 2
            case 0x6E: out.append(0x0A); i += 2
            case 0x72: out.append(0x0D); i += 2
            case 0x74: out.append(0x09); i += 2
            case 0x75:
                var v = hex4(i + 2)
                i += 6
                if v >= 0xD800, v < 0xDC00, i + 5 < end, raw[i] == 0x5C, raw[i + 1] == 0x75 {
                    let low = hex4(i + 2)
                    if low >= 0xDC00, low < 0xE000 {
                        v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                    }
                }
                appendScalar(v)
            default: out.append(e); i += 2
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
