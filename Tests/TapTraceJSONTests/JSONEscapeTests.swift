import Testing
@testable import TapTraceJSON

/// `JSONEscape.write` copies eight bytes at a time when none needs escaping; every byte value,
/// at every position of a word and of the tail, must come out as the plain rule says.
@Suite struct JSONEscapeTests {
    /// The rule, byte by byte: `"` and `\` escaped, \n \r \t by letter, other controls as
    /// \u00XX, everything else (UTF-8 included) as is.
    static func reference(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x22]
        for b in bytes {
            switch b {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x0A: out += Array(#"\n"#.utf8)
            case 0x0D: out += Array(#"\r"#.utf8)
            case 0x09: out += Array(#"\t"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += Array(#"\u00"#.utf8) + [hex[Int(b >> 4)], hex[Int(b & 0xF)]]
            default: out.append(b)
            }
        }
        return out + [0x22]
    }

    static func escaped(_ bytes: [UInt8]) -> [UInt8] {
        let out = UnsafeMutablePointer<UInt8>.allocate(capacity: JSONEscape.capacity(for: bytes.count))
        defer { out.deallocate() }
        let n = bytes.withUnsafeBufferPointer { JSONEscape.write($0, to: out) }
        return Array(UnsafeBufferPointer(start: out, count: n))
    }

    @Test func everyByteAtEveryPosition() {
        var mismatches = 0
        for value in 0...255 {
            for position in 0..<19 {
                var bytes = Array(repeating: UInt8(ascii: "a"), count: 19)
                bytes[position] = UInt8(value)
                if Self.escaped(bytes) != Self.reference(bytes) { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }

    /// Every length up to 24 (tails of every size after whole words, written by one
    /// overlapping word when nothing before needed escaping) with a byte to escape anywhere.
    @Test func everyLengthWithAnEscapeAnywhere() {
        var mismatches = 0
        for n in 1...24 {
            let plain = (0..<n).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            if Self.escaped(plain) != Self.reference(plain) { mismatches += 1 }
            for position in 0..<n {
                for value: UInt8 in [0x22, 0x5C, 0x0A, 0x01, 0x1F, 0x7F, 0xC3] {
                    var bytes = plain
                    bytes[position] = value
                    if Self.escaped(bytes) != Self.reference(bytes) { mismatches += 1 }
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test(arguments: ["", "a", "plain id", "exactly8", "sixteen bytes ok", "é and ü and 日本", "tab\there", "\"quoted\"", "back\\slash", "\u{1}\u{1F}\u{7F}"])
    func strings(_ text: String) {
        #expect(Self.escaped(Array(text.utf8)) == Self.reference(Array(text.utf8)))
    }
}
