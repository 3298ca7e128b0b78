/// The bytes of a pasted dump, validated as UTF-8, with the line table that turns a byte offset
/// into the line and column an editor shows (1-based; the column counts Unicode scalars).
///
/// Leading lines that start with `#` (the `# SOURCE:` line of the shared samples, or a note a
/// user put above the dump) are skipped but still counted, so reported lines match the file.
struct SourceText {
    let bytes: [UInt8]
    /// Byte offset where each line starts.
    private(set) var lineStarts: [Int] = [0]
    /// Offset of the first byte after the skipped BOM and `#` comment lines.
    private(set) var contentStart = 0

    init(_ bytes: [UInt8]) throws(ImportError) {
        self.bytes = bytes
        lineStarts.reserveCapacity(bytes.count / 40 + 1)
        bytes.withUnsafeBufferPointer { buffer in
            for i in 0..<buffer.count where buffer[i] == 0x0A { lineStarts.append(i + 1) }
        }
        if let bad = SourceText.firstInvalidUTF8(bytes) {
            throw error(at: bad, "the input is not valid UTF-8 (byte 0x\(String(bytes[bad], radix: 16, uppercase: true)))")
        }
        var p = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { p = 3 }
        while p < bytes.count, bytes[p] == UInt8(ascii: "#") {
            p = lineEnd(from: p)
            if p < bytes.count { p += 1 }
        }
        contentStart = p
    }

    var count: Int { bytes.count }
    subscript(i: Int) -> UInt8 { bytes[i] }

    /// Offset of the line feed ending the line that contains `offset` (or the end of input).
    func lineEnd(from offset: Int) -> Int {
        var i = offset
        while i < bytes.count, bytes[i] != 0x0A { i += 1 }
        return i
    }

    /// The 1-based line of a byte offset (a binary search: O(log lines)).
    func line(of offset: Int) -> Int {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo + 1
    }

    /// Line and column (both 1-based) of a byte offset; the end of input is a valid offset.
    /// The column costs the length of the line up to the offset.
    func location(of offset: Int) -> (line: Int, column: Int) {
        let lo = line(of: offset) - 1
        var column = 1
        var i = lineStarts[lo]
        while i < offset, i < bytes.count {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        // Continuation bytes before `offset` were not counted; an offset inside a scalar
        // counts as that scalar.
        return (lo + 1, column)
    }

    func error(at offset: Int, _ message: String) -> ImportError {
        let (line, column) = location(of: offset)
        return ImportError(line: line, column: column, message: message)
    }

    /// The text of a byte range (already validated as UTF-8).
    func string(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// Offset of the first byte of an invalid UTF-8 sequence, or nil.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 { i += 1; continue }
            let length: Int
            let minimum: UInt32
            var scalar: UInt32
            switch b {
            case 0xC2...0xDF: length = 2; minimum = 0x80; scalar = UInt32(b & 0x1F)
            case 0xE0...0xEF: length = 3; minimum = 0x800; scalar = UInt32(b & 0x0F)
            case 0xF0...0xF4: length = 4; minimum = 0x10000; scalar = UInt32(b & 0x07)
            default: return i
            }
            guard i + length <= n else { return i }
            for k in 1..<length {
                let c = bytes[i + k]
                guard c & 0xC0 == 0x80 else { return i }
                scalar = scalar << 6 | UInt32(c & 0x3F)
            }
            if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return i }
            i += length
        }
        return nil
    }
}
