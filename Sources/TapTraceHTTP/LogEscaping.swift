/// Escaping of what the request log prints from a request (its method and decoded path), so
/// that a client cannot write into the log: a percent-encoded newline would start a forged
/// line, an escape sequence would drive the terminal showing the log, a bidirectional
/// override would reorder what is shown. The ASCII space stays (ids may hold one; the path is
/// followed by the status, which a space cannot fake onto a line of its own).
enum LogEscaping {
    /// `text`'s bytes with printable characters as they are; a backslash as `\\`; an invalid
    /// UTF-8 byte as `\xNN`; a control, format (bidirectional overrides among them), separator
    /// (other than the ASCII space), surrogate, private-use or unassigned character as
    /// `\u{XXXX}`. Distinct inputs give distinct outputs.
    static func escape(_ bytes: [UInt8]) -> String {
        var out = ""
        out.reserveCapacity(bytes.count)
        var decoder = UTF8()
        var i = 0
        while i < bytes.count {
            let lead = bytes[i]
            if lead < 0x80 {
                let scalar = Unicode.Scalar(lead)
                out += needsEscape(scalar) ? escaped(scalar) : String(scalar)
                i += 1
                continue
            }
            // Checked here, not by the decoder: on an error it does not say which bytes it
            // consumed, and each invalid byte is printed on its own.
            let length = sequenceLength(bytes, at: i)
            guard length > 0 else {
                out += "\\x" + hex(UInt32(lead), digits: 2)
                i += 1
                continue
            }
            var sequence = bytes[i..<i + length].makeIterator()
            if case .scalarValue(let scalar) = decoder.decode(&sequence) {
                out += needsEscape(scalar) ? escaped(scalar) : String(scalar)
            }
            i += length
        }
        return out
    }

    static func escape(_ text: String) -> String { escape(Array(text.utf8)) }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "\\" { return true }
        if scalar == " " { return false }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator,
             .surrogate, .privateUse, .unassigned:
            return true
        default:
            return false
        }
    }

    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        scalar == "\\" ? "\\\\" : "\\u{" + hex(scalar.value, digits: 4) + "}"
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// The length of the well-formed UTF-8 sequence at `i` (lead byte 0x80 or more), or 0.
    private static func sequenceLength(_ bytes: [UInt8], at i: Int) -> Int {
        let length: Int, low: UInt8, high: UInt8
        switch bytes[i] {
        case 0xC2...0xDF: length = 2; low = 0x80; high = 0xBF
        case 0xE0: length = 3; low = 0xA0; high = 0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3; low = 0x80; high = 0xBF
        case 0xED: length = 3; low = 0x80; high = 0x9F
        case 0xF0: length = 4; low = 0x90; high = 0xBF
        case 0xF1...0xF3: length = 4; low = 0x80; high = 0xBF
        case 0xF4: length = 4; low = 0x80; high = 0x8F
        default: return 0
        }
        guard i + length <= bytes.count, bytes[i + 1] >= low, bytes[i + 1] <= high else { return 0 }
        for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { return 0 }
        return length
    }
}
