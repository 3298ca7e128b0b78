/// How a string is written in JSON, shared by `JSONWriter` and `ByteEmitter` so both write the
/// same bytes: quotes, backslashes and control characters escaped, everything else (UTF-8
/// included) as is.
enum JSONEscape {
    /// The most bytes `write` produces for `n` input bytes (`\u00XX` per byte, and the quotes).
    static func capacity(for n: Int) -> Int { n * 6 + 2 }

    /// Writes `"…"` for `text` at `out`; returns the number of bytes written.
    static func write(_ text: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var p = out
        p.pointee = 0x22; p += 1
        for b in text {
            if b >= 0x20 && b != 0x22 && b != 0x5C { p.pointee = b; p += 1; continue }
            p.pointee = 0x5C; p += 1
            switch b {
            case 0x22: p.pointee = 0x22; p += 1
            case 0x5C: p.pointee = 0x5C; p += 1
            case 0x0A: p.pointee = 0x6E; p += 1
            case 0x0D: p.pointee = 0x72; p += 1
            case 0x09: p.pointee = 0x74; p += 1
            default:
                p[0] = 0x75; p[1] = 0x30; p[2] = 0x30
                p[3] = hexDigit(b >> 4); p[4] = hexDigit(b & 0xF)
                p += 5
            }
        }
        p.pointee = 0x22; p += 1
        return p - out
    }

    private static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 + v : 0x61 + v - 10 }
}
