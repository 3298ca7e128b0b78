/// Appends JSON text whose shape the caller already knows (no container state, no commas to
/// work out): the trace writer emits `{"seq":…,"t":…` as literal pieces and values. It writes
/// exactly what `JSONWriter` writes for the same values (compact form); a test compares the two.
///
/// Its small methods are `@inlinable`: its callers are in other modules (the result writer of
/// TapTraceFormats), and a call per piece cost more than the piece.
///
/// Bytes go straight into memory it owns: `Array.append` costs a uniqueness and a capacity
/// check per call, which for a trace of many short pieces was most of the work.
public struct ByteEmitter: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var count = 0
    @usableFromInline var capacity: Int
    /// Whether `base` is this emitter's to free; false while it writes into an array's
    /// storage (`array(capacity:_:)`).
    @usableFromInline var owned = true

    public init(capacity: Int) {
        self.capacity = max(64, capacity)
        base = .allocate(capacity: self.capacity)
    }

    /// Writes into memory it does not own until that is full.
    private init(borrowing memory: UnsafeMutableBufferPointer<UInt8>) {
        base = memory.baseAddress!
        capacity = memory.count
        owned = false
    }

    deinit { if owned { base.deallocate() } }

    /// The bytes written.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// An array of what `body` writes, written straight into the array's own storage of
    /// `capacity` bytes: the document is not copied once finished. Only when `body` writes
    /// more than `capacity` does the emitter move to memory of its own, and the array is made
    /// from that at the end (one copy, as before).
    public static func array(capacity: Int, _ body: (inout ByteEmitter) -> Void) -> [UInt8] {
        var spilled: [UInt8]?
        let inPlace = [UInt8](unsafeUninitializedCapacity: max(64, capacity)) { memory, initialized in
            var e = ByteEmitter(borrowing: memory)
            body(&e)
            if e.owned { spilled = e.bytes; initialized = 0 } else { initialized = e.count }
        }
        return spilled ?? inPlace
    }

    /// Copies what was written to `out`, which has room for `position` bytes.
    public func copyBytes(to out: UnsafeMutablePointer<UInt8>) { out.update(from: base, count: count) }

    /// How many bytes are written so far: where the next one goes.
    @inlinable public var position: Int { count }

    /// Writes again the `length` bytes written at `start`, for a piece that repeats.
    @inlinable public mutating func again(from start: Int, length: Int) {
        precondition(start >= 0 && length >= 0 && start + length <= count, "not a span of what was written")
        reserve(length)
        (base + count).update(from: base + start, count: length)
        count += length
    }

    /// Makes room for `n` more bytes.
    @inlinable @inline(__always) mutating func reserve(_ n: Int) {
        if count + n > capacity { grow(count + n) }
    }

    @usableFromInline mutating func grow(_ needed: Int) {
        var c = capacity * 2
        while c < needed { c *= 2 }
        let b = UnsafeMutablePointer<UInt8>.allocate(capacity: c)
        b.update(from: base, count: count)
        if owned { base.deallocate() }
        base = b
        capacity = c
        owned = true
    }

    @inlinable @inline(__always) public mutating func byte(_ b: UInt8) {
        reserve(1)
        base[count] = b
        count += 1
    }

    @inlinable @inline(__always) public mutating func append(_ buf: UnsafeBufferPointer<UInt8>) {
        let n = buf.count
        guard n > 0, let src = buf.baseAddress else { return }
        reserve(n)
        let dst = base + count
        if n <= 64 { Self.copyShort(src, dst, n) } else { dst.update(from: src, count: n) }
        count += n
    }

    /// Copies `n` (1…64) bytes a word at a time, the last word overlapping the one before:
    /// most pieces of a trace are literals and fragments of 4 to 40 bytes, and a byte loop
    /// spent three or four instructions per byte on them (callgrind: copying was a fifth of
    /// encoding a result).
    @inlinable @inline(__always)
    static func copyShort(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, _ n: Int) {
        let s = UnsafeRawPointer(src), d = UnsafeMutableRawPointer(dst)
        if n >= 8 {
            var k = 0
            while k + 8 < n {
                d.storeBytes(of: s.loadUnaligned(fromByteOffset: k, as: UInt64.self), toByteOffset: k, as: UInt64.self)
                k += 8
            }
            d.storeBytes(of: s.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self), toByteOffset: n - 8, as: UInt64.self)
        } else if n >= 4 {
            let first = s.loadUnaligned(as: UInt32.self), last = s.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
            d.storeBytes(of: first, as: UInt32.self)
            d.storeBytes(of: last, toByteOffset: n - 4, as: UInt32.self)
        } else {
            let first = src[0], last = src[n - 1], middle = src[n >> 1]
            dst[0] = first
            dst[n >> 1] = middle
            dst[n - 1] = last
        }
    }

    /// Text that needs no escaping, known at compile time.
    @inlinable @inline(__always) public mutating func literal(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    /// A JSON string, escaped like `JSONWriter` (`JSONEscape`).
    @inlinable public mutating func string(_ s: String) {
        // Native strings lend their bytes as they are; others are copied once.
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { string(utf8: $0) }
        if done == nil {
            var s = s
            s.withUTF8 { string(utf8: $0) }
        }
    }

    /// A JSON string of UTF-8 text.
    @inlinable public mutating func string(utf8 buf: UnsafeBufferPointer<UInt8>) {
        reserve(JSONEscape.capacity(for: buf.count))
        count += JSONEscape.write(buf, to: base + count)
    }

    /// `"…"` for text known to need no escaping: the raw values of the engine's enums
    /// (identifiers). Escaping them cost three times the copy.
    @inlinable public mutating func unescaped(_ s: String) {
        var s = s
        s.withUTF8 { buf in
            reserve(buf.count + 2)
            base[count] = 0x22
            count += 1
            append(buf)
            base[count] = 0x22
            count += 1
        }
    }

    @inlinable @inline(__always) public mutating func integer(_ value: Int) {
        reserve(21)
        if value < 0 { base[count] = 0x2D; count += 1 }
        count += JSONDecimal.writeDigits(value.magnitude, to: base + count)
    }

    /// A number as `JSONWriter.number` writes it (integers without a fraction, null when not
    /// finite).
    @inlinable public mutating func number(_ value: Double) {
        guard value.isFinite else { literal("null"); return }
        if value == value.rounded(.towardZero), abs(value) < 9_007_199_254_740_992 {
            integer(Int(value))
        } else {
            reserve(JSONDecimal.maxBytes)
            if let n = JSONDecimal.write(value, to: base + count) { count += n; return }
            var text = value.description
            text.withUTF8 { append($0) }
        }
    }
}
