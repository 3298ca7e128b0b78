/// RFC 8259 parser producing a `JSONTape`. Iterative: open containers live on an explicit stack,
/// so nesting depth is bounded by memory, not by the thread's stack.
struct JSONParser {
    /// Valid only while `parse` runs (the caller holds the array's buffer): reading through a
    /// buffer pointer skips the bounds and uniqueness checks of array indexing.
    let bytes: UnsafeBufferPointer<UInt8>
    var pos = 0
    var nodes: [JSONTape.Node] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        nodes.reserveCapacity(bytes.count / 6 + 4)
    }

    private struct Open {
        var node: Int
        var isObject: Bool
        var children: UInt32
    }

    mutating func parse() throws(JSONSyntaxError) -> [JSONTape.Node] {
        guard bytes.count < Int(UInt32.max) else { throw error("document larger than 4 GiB") }
        var stack: [Open] = []
        // Skip a UTF-8 byte order mark, which some editors write.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { pos = 3 }
        skipWhitespace()
        try parseValueStart(&stack)
        while let top = stack.last {
            skipWhitespace()
            guard pos < bytes.count else {
                throw error(top.isObject ? "unterminated object" : "unterminated array")
            }
            let b = bytes[pos]
            let closer: UInt8 = top.isObject ? 0x7D : 0x5D
            if b == closer {
                pos += 1
                close(&stack)
                continue
            }
            if top.children > 0 {
                guard b == 0x2C else {
                    throw error(top.isObject ? "expected ',' or '}' in object" : "expected ',' or ']' in array")
                }
                pos += 1
                skipWhitespace()
            }
            if top.isObject {
                guard pos < bytes.count, bytes[pos] == 0x22 else { throw error("expected a string key") }
                try parseString()
                skipWhitespace()
                guard pos < bytes.count, bytes[pos] == 0x3A else { throw error("expected ':' after key") }
                pos += 1
                skipWhitespace()
                stack[stack.count - 1].children += 2
            } else {
                stack[stack.count - 1].children += 1
            }
            try parseValueStart(&stack)
        }
        skipWhitespace()
        guard pos == bytes.count else { throw error("unexpected text after the JSON value") }
        return nodes
    }

    /// Parses a scalar completely, or opens a container (pushing it on the stack).
    private mutating func parseValueStart(_ stack: inout [Open]) throws(JSONSyntaxError) {
        guard pos < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[pos] {
        case 0x7B, 0x5B: // { [
            let isObject = bytes[pos] == 0x7B
            nodes.append(.init(kind: isObject ? .object : .array, flag: false, offset: UInt32(pos), length: 0, next: 0))
            stack.append(Open(node: nodes.count - 1, isObject: isObject, children: 0))
            pos += 1
            skipWhitespace()
            // An empty container closes at once.
            if pos < bytes.count, bytes[pos] == (isObject ? 0x7D : 0x5D) {
                pos += 1
                close(&stack)
            }
        case 0x22:
            try parseString()
        case 0x74:
            try literal("true")
            nodes.append(.init(kind: .bool, flag: true, offset: UInt32(pos - 4), length: 4, next: UInt32(nodes.count + 1)))
        case 0x66:
            try literal("false")
            nodes.append(.init(kind: .bool, flag: false, offset: UInt32(pos - 5), length: 5, next: UInt32(nodes.count + 1)))
        case 0x6E:
            try literal("null")
            nodes.append(.init(kind: .null, flag: false, offset: UInt32(pos - 4), length: 4, next: UInt32(nodes.count + 1)))
        case 0x2D, 0x30...0x39:
            try parseNumber()
        default:
            throw error("unexpected character \(describe(bytes[pos])), expected a value")
        }
    }

    private mutating func close(_ stack: inout [Open]) {
        let open = stack.removeLast()
        nodes[open.node].length = open.children
        nodes[open.node].next = UInt32(nodes.count)
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

    private mutating func parseString() throws(JSONSyntaxError) {
        // bytes[pos] is the opening quote.
        let start = pos + 1
        var i = start
        var escaped = false
        let count = bytes.count
        while true {
            guard i < count else {
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
                case 0x75:
                    guard i + 5 < count, (1...4).allSatisfy({ JSONParser.isHex(bytes[i + 1 + $0]) }) else {
                        pos = i; throw error("invalid \\u escape")
                    }
                    i += 6
                default:
                    pos = i; throw error("invalid escape \\\(describe(e))")
                }
                continue
            }
            if b < 0x20 { pos = i; throw error("control character in string (escape it)") }
            i += 1
        }
        nodes.append(.init(kind: .string, flag: escaped, offset: UInt32(start), length: UInt32(i - start),
                           next: UInt32(nodes.count + 1)))
        pos = i + 1
    }

    private mutating func parseNumber() throws(JSONSyntaxError) {
        let start = pos
        var i = pos
        let count = bytes.count
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
        nodes.append(.init(kind: .number, flag: false, offset: UInt32(start), length: UInt32(i - start),
                           next: UInt32(nodes.count + 1)))
        pos = i
    }

    private mutating func skipWhitespace() {
        let count = bytes.count
        while pos < count {
            switch bytes[pos] {
            case 0x20, 0x0A, 0x0D, 0x09: pos += 1
            default: return
            }
        }
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

enum JSONNumber {
    private static let powersOfTen: [Double] = (0...22).map { k in
        var p = 1.0
        for _ in 0..<k { p *= 10 }
        return p
    }

    /// Parses a number token already checked by the grammar. Integers and decimals with at most
    /// 15 significant digits and 22 fraction digits are exact: both operands of the division are
    /// exact doubles and IEEE division rounds correctly (Clinger's fast path).
    static func parse(_ buf: UnsafeBufferPointer<UInt8>, from start: Int, count: Int) -> Double? {
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
