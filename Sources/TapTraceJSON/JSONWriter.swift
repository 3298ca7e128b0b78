/// Streaming JSON writer with a fixed output form, so the same values always give the same bytes:
/// keys in the order they are written, integers without a fraction, other numbers in Swift's
/// shortest round-trip form, and non-ASCII text as UTF-8.
public struct JSONWriter: Sendable {
    /// The output. A manually grown buffer: writing byte by byte into an `Array` paid a
    /// uniqueness check and a capacity check per byte, which made encoding a trace cost more
    /// than producing it (docs/performance.md).
    private var buffer: ByteBuffer
    /// The bytes written so far.
    public var bytes: [UInt8] { buffer.array }
    /// Indentation width; 0 writes everything on one line.
    public let indent: Int
    private var hasMembers: [Bool] = []
    private var afterKey = false

    public init(indent: Int = 0, reserving capacity: Int = 1024) {
        self.indent = indent
        buffer = ByteBuffer(capacity: capacity)
        hasMembers.reserveCapacity(16)
    }

    /// Value semantics: a copy that writes gets its own buffer.
    private mutating func unique() {
        if !isKnownUniquelyReferenced(&buffer) { buffer = buffer.copy() }
    }

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    // MARK: containers

    public mutating func beginObject() { unique(); valuePrefix(); buffer.append(0x7B); hasMembers.append(false) }
    public mutating func endObject() { unique(); closeContainer(0x7D) }
    public mutating func beginArray() { unique(); valuePrefix(); buffer.append(0x5B); hasMembers.append(false) }
    public mutating func endArray() { unique(); closeContainer(0x5D) }

    public mutating func key(_ name: String) { unique();
        separator()
        appendString(name)
        buffer.append(0x3A)
        if indent > 0 { buffer.append(0x20) }
        afterKey = true
    }

    /// A key known at compile time to need no escaping (the encoders' own keys): copied as is.
    public mutating func key(static name: StaticString) {
        unique()
        separator()
        buffer.append(0x22)
        name.withUTF8Buffer { buffer.append($0) }
        buffer.append(0x22)
        buffer.append(0x3A)
        if indent > 0 { buffer.append(0x20) }
        afterKey = true
    }

    /// A string value known at compile time to need no escaping.
    public mutating func string(static value: StaticString) {
        unique()
        valuePrefix()
        buffer.append(0x22)
        value.withUTF8Buffer { buffer.append($0) }
        buffer.append(0x22)
    }

    // MARK: scalars

    public mutating func string(_ value: String) { unique(); valuePrefix(); appendString(value) }
    /// Non-finite values have no JSON form and are written as null.
    public mutating func number(_ value: Double) {
        guard value.isFinite else { null(); return }
        unique()
        valuePrefix()
        if value == value.rounded(.towardZero), abs(value) < 9_007_199_254_740_992 {
            appendInteger(Int64(value))
        } else {
            let written: Bool = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: JSONDecimal.maxBytes) { scratch in
                guard let n = JSONDecimal.write(value, to: scratch.baseAddress!) else { return false }
                buffer.append(UnsafeBufferPointer(rebasing: scratch[..<n]))
                return true
            }
            if !written { buffer.append(utf8: value.description) }
        }
    }
    public mutating func number(_ value: Int) { unique(); valuePrefix(); appendInteger(Int64(value)) }
    public mutating func bool(_ value: Bool) { unique(); valuePrefix(); buffer.append(utf8: value ? "true" : "false") }
    public mutating func null() { unique(); valuePrefix(); buffer.append(utf8: "null") }

    public mutating func string(_ value: String?) { if let value { string(value) } else { null() } }

    /// `[x, y]` for points and sizes, `[x, y, w, h]` for rects.
    public mutating func numbers(_ values: Double...) {
        beginArray()
        for v in values { number(v) }
        endArray()
    }

    public mutating func strings(_ values: [String]) {
        beginArray()
        for v in values { string(v) }
        endArray()
    }

    /// Writes pre-encoded JSON (one complete value) as the next value.
    public mutating func raw(_ json: [UInt8]) { unique(); valuePrefix(); json.withUnsafeBufferPointer { buffer.append($0) } }

    // MARK: formatting

    /// Integral values below 2^53 print as integers ("100", not "100.0"); others in the shortest
    /// form that reads back to the same double ("0.1", "1e-05").
    public static func format(_ value: Double) -> String {
        if value == value.rounded(.towardZero), abs(value) < 9_007_199_254_740_992 {
            return String(Int64(value))
        }
        return value.description
    }

    // MARK: private

    private mutating func valuePrefix() {
        if afterKey { afterKey = false; return }
        separator()
    }

    private mutating func separator() {
        guard let last = hasMembers.last else { return }
        if last { buffer.append(0x2C) }
        hasMembers[hasMembers.count - 1] = true
        newline(depth: hasMembers.count)
    }

    private mutating func closeContainer(_ closer: UInt8) {
        let had = hasMembers.removeLast()
        if had { newline(depth: hasMembers.count) }
        buffer.append(closer)
    }

    private mutating func newline(depth: Int) {
        guard indent > 0 else { return }
        buffer.append(0x0A)
        for _ in 0..<(indent * depth) { buffer.append(0x20) }
    }


    private mutating func appendString(_ s: String) {
        var s = s
        s.withUTF8 { buf in
            buffer.write(reserving: JSONEscape.capacity(for: buf.count)) { JSONEscape.write(buf, to: $0) }
        }
    }

    /// Decimal digits of an integer without allocating a String, by `JSONDecimal.writeDigits`, which `ByteEmitter` uses too: both write the same bytes.
    private mutating func appendInteger(_ value: Int64) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 21) { scratch in
            var n = 0
            if value < 0 { scratch[0] = 0x2D; n = 1 }
            n += JSONDecimal.writeDigits(UInt(value.magnitude), to: scratch.baseAddress! + n)
            buffer.append(UnsafeBufferPointer(rebasing: scratch[..<n]))
        }
    }
}

/// A growable byte buffer with unchecked appends (see `JSONWriter.buffer`).
final class ByteBuffer: @unchecked Sendable {
    private var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(64, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    func copy() -> ByteBuffer {
        let c = ByteBuffer(capacity: capacity)
        c.base.update(from: base, count: count)
        c.count = count
        return c
    }

    var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    private func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always) func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        base[count] = byte
        count += 1
    }

    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let src = bytes.baseAddress, bytes.count > 0 else { return }
        if count + bytes.count > capacity { grow(to: count + bytes.count) }
        (base + count).update(from: src, count: bytes.count)
        count += bytes.count
    }

    /// Lets `body` write up to `n` bytes at the end; it returns how many it wrote.
    func write(reserving n: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if count + n > capacity { grow(to: count + n) }
        count += body(base + count)
    }

    func append(utf8 text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }
}
