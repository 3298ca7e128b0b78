/// Percent-decoding for URI paths and query strings.
enum PercentDecoding {
    /// Decodes `%XX` escapes (and `+` as space when `plusAsSpace`); malformed escapes stay as
    /// written and invalid UTF-8 is repaired with U+FFFD.
    static func decode(_ text: Substring, plusAsSpace: Bool = false) -> String {
        // Most paths and values have nothing to decode: look before copying.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(text)
        }
        return String(decoding: decodeBytes(text, plusAsSpace: plusAsSpace), as: UTF8.self)
    }

    /// The bytes `text` decodes to, as they are (invalid UTF-8 included).
    static func decodeBytes(_ text: Substring, plusAsSpace: Bool = false) -> [UInt8] {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "%"), i + 2 < bytes.count,
               let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2]) {
                out.append(high << 4 | low)
                i += 3
            } else if plusAsSpace && byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
                i += 1
            } else {
                out.append(byte)
                i += 1
            }
        }
        return out
    }

    /// Splits `a=1&b=two+words` into decoded name/value pairs (a name without `=` gets "").
    static func queryItems(_ query: Substring) -> [(name: String, value: String)] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            if let eq = pair.firstIndex(of: "=") {
                return (name: decode(pair[..<eq], plusAsSpace: true),
                        value: decode(pair[pair.index(after: eq)...], plusAsSpace: true))
            }
            return (name: decode(pair, plusAsSpace: true), value: "")
        }
    }

    /// The value of a hexadecimal digit (either case), or nil.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
