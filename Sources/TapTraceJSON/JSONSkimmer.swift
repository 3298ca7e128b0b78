/// Walks the top level of a JSON document without building a tape: where members start and
/// end, nothing more. It is the fast path's eye, never its judge: whatever it accepts is parsed
/// (or compared byte for byte with something parsed before) by `JSONParser` afterwards, and
/// anything unusual makes it answer `nil`/`false` so that the caller takes the full parse,
/// which reports the error with its line and column.
///
/// Used by stateless dispatch: a request `{"scene": …, "touches": …}` whose scene was seen
/// before needs only its small touches member parsed (docs/performance.md).
public struct JSONSkimmer {
    /// Valid while the caller holds the buffer.
    public let bytes: UnsafeBufferPointer<UInt8>
    public var pos: Int

    public init(_ bytes: UnsafeBufferPointer<UInt8>, at pos: Int = 0) {
        self.bytes = bytes
        self.pos = pos
    }

    public var atEnd: Bool { pos >= bytes.count }

    public mutating func skipWhitespace() {
        while pos < bytes.count {
            switch bytes[pos] {
            case 0x20, 0x09, 0x0A, 0x0D: pos += 1
            default: return
            }
        }
    }

    /// Consumes `byte` if it is next.
    public mutating func consume(_ byte: UInt8) -> Bool {
        guard pos < bytes.count, bytes[pos] == byte else { return false }
        pos += 1
        return true
    }

    /// A string without escapes or control characters (an object key as people write them);
    /// returns the range of its content. `nil`, position unchanged, for anything else.
    public mutating func plainString() -> Range<Int>? {
        guard pos < bytes.count, bytes[pos] == 0x22 else { return nil }
        var i = pos + 1
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x22 {
                let content = (pos + 1)..<i
                pos = i + 1
                return content
            }
            if b == 0x5C || b < 0x20 { return nil }
            i += 1
        }
        return nil
    }

    /// Steps over one value: strings (escapes included) and nested containers matched, a
    /// scalar taken up to the next delimiter. Only the structure is followed, so the value
    /// must still be parsed; `false` when the structure itself is broken or unterminated.
    public mutating func skipValue() -> Bool {
        guard pos < bytes.count else { return false }
        var depth = 0
        var i = pos
        let count = bytes.count
        repeat {
            guard i < count else { return false }
            switch bytes[i] {
            case 0x7B, 0x5B:
                depth += 1
                i += 1
            case 0x7D, 0x5D:
                guard depth > 0 else { return false }
                depth -= 1
                i += 1
            case 0x22:
                i += 1
                while true {
                    guard i < count else { return false }
                    let b = bytes[i]
                    if b == 0x22 { i += 1; break }
                    i += b == 0x5C ? 2 : 1
                }
            case 0x20, 0x09, 0x0A, 0x0D, 0x2C, 0x3A:
                // Whitespace, and the separators inside containers (at depth 0 a separator
                // ends a scalar before it is reached, below).
                guard depth > 0 else { return false }
                i += 1
            default:
                // A scalar's characters: numbers and literals, checked by the parser later.
                i += 1
                if depth == 0 {
                    while i < count {
                        switch bytes[i] {
                        case 0x20, 0x09, 0x0A, 0x0D, 0x2C, 0x7D, 0x5D: break
                        default: i += 1; continue
                        }
                        break
                    }
                }
            }
        } while depth > 0
        pos = i
        return true
    }
}
