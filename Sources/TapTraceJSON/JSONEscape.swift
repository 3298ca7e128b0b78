/// How a string is written in JSON, shared by `JSONWriter` and `ByteEmitter` so both write the
/// same bytes: quotes, backslashes and control characters escaped, everything else (UTF-8
/// included) as is.
@usableFromInline enum JSONEscape {
    /// The most bytes `write` produces for `n` input bytes (`\u00XX` per byte, and the quotes).
    @inlinable static func capacity(for n: Int) -> Int { n * 6 + 2 }

    /// Writes `"…"` for `text` at `out`; returns the number of bytes written.
    @usableFromInline static func write(_ text: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var p = out
        p.pointee = 0x22; p += 1
        guard let start = text.baseAddress else { p.pointee = 0x22; return 2 }
        // Eight bytes at a time while none of them needs escaping (almost always: ids, class
        // names and selectors are plain), then byte by byte for the word that does and the tail.
        let n = text.count
        var i = 0
        let raw = UnsafeRawPointer(start)
        var verbatim = true
        while i + 8 <= n {
            let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if needsEscape(w) {
                for k in i..<(i + 8) { p = escape(start[k], at: p) }
                verbatim = false
            } else {
                UnsafeMutableRawPointer(p).storeBytes(of: w, as: UInt64.self)
                p += 8
            }
            i += 8
        }
        // The tail of a string of eight bytes or more that was copied as is: its last eight
        // bytes in one word, overlapping what is already written with the same bytes. (Tails
        // were a byte loop; ids and selectors rarely have a length that is a multiple of 8.)
        if verbatim, i < n, n >= 8 {
            let w = raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            if !needsEscape(w) {
                UnsafeMutableRawPointer(p - (8 - (n - i))).storeBytes(of: w, as: UInt64.self)
                p += n - i
                i = n
            }
        }
        while i < n {
            p = escape(start[i], at: p)
            i += 1
        }
        p.pointee = 0x22; p += 1
        return p - out
    }

    /// Whether any byte of `w` is a control character, `"` or `\\` (exact as a yes/no: the
    /// classic has-zero-byte and has-less-than tests; bytes ≥ 0x80 never match).
    @inline(__always)
    private static func needsEscape(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let control = (w &- ones &* 0x20) & ~w & highs
        let q = w ^ (ones &* 0x22), quote = (q &- ones) & ~q & highs
        let b = w ^ (ones &* 0x5C), backslash = (b &- ones) & ~b & highs
        return (control | quote | backslash) != 0
    }

    /// One byte, escaped if it must be; returns the position after it.
    @inline(__always)
    private static func escape(_ b: UInt8, at out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var p = out
        if b >= 0x20 && b != 0x22 && b != 0x5C { p.pointee = b; return p + 1 }
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
        return p
    }

    private static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 + v : 0x61 + v - 10 }
}
