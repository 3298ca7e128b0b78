/// Streaming JSON writer with a fixed output form, so the same values always give the same bytes:
/// keys in the order they are written, integers without a fraction, other numbers in Swift's
/// shortest round-trip form, and non-ASCII text as UTF-8.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    /// Indentation width; 0 writes everything on one line.
    public let indent: Int
    private var hasMembers: [Bool] = []
    private var afterKey = false

    public init(indent: Int = 0, reserving capacity: Int = 1024) {
        self.indent = indent
        bytes.reserveCapacity(capacity)
    }

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    // MARK: containers

    public mutating func beginObject() { valuePrefix(); bytes.append(0x7B); hasMembers.append(false) }
    public mutating func endObject() { closeContainer(0x7D) }
    public mutating func beginArray() { valuePrefix(); bytes.append(0x5B); hasMembers.append(false) }
    public mutating func endArray() { closeContainer(0x5D) }

    public mutating func key(_ name: String) {
        separator()
        appendString(name)
        bytes.append(0x3A)
        if indent > 0 { bytes.append(0x20) }
        afterKey = true
    }

    // MARK: scalars

    public mutating func string(_ value: String) { valuePrefix(); appendString(value) }
    /// Non-finite values have no JSON form and are written as null.
    public mutating func number(_ value: Double) {
        guard value.isFinite else { null(); return }
        valuePrefix()
        if value == value.rounded(.towardZero), abs(value) < 9_007_199_254_740_992 {
            appendInteger(Int64(value))
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
    }
    public mutating func number(_ value: Int) { valuePrefix(); appendInteger(Int64(value)) }
    public mutating func bool(_ value: Bool) { valuePrefix(); bytes.append(contentsOf: (value ? "true" : "false").utf8) }
    public mutating func null() { valuePrefix(); bytes.append(contentsOf: "null".utf8) }

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
    public mutating func raw(_ json: [UInt8]) { valuePrefix(); bytes.append(contentsOf: json) }

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
        if last { bytes.append(0x2C) }
        hasMembers[hasMembers.count - 1] = true
        newline(depth: hasMembers.count)
    }

    private mutating func closeContainer(_ closer: UInt8) {
        let had = hasMembers.removeLast()
        if had { newline(depth: hasMembers.count) }
        bytes.append(closer)
    }

    private mutating func newline(depth: Int) {
        guard indent > 0 else { return }
        bytes.append(0x0A)
        bytes.append(contentsOf: repeatElement(0x20, count: indent * depth))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func appendString(_ s: String) {
        bytes.append(0x22)
        var s = s
        // Runs of bytes that need no escaping are copied at once.
        s.withUTF8 { buf in
            var start = 0
            for i in 0..<buf.count {
                let b = buf[i]
                if b >= 0x20 && b != 0x22 && b != 0x5C { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buf[start..<i]))
                switch b {
                case 0x22: bytes.append(0x5C); bytes.append(0x22)
                case 0x5C: bytes.append(0x5C); bytes.append(0x5C)
                case 0x0A: bytes.append(0x5C); bytes.append(0x6E)
                case 0x0D: bytes.append(0x5C); bytes.append(0x72)
                case 0x09: bytes.append(0x5C); bytes.append(0x74)
                default:
                    bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30])
                    bytes.append(JSONWriter.hexDigits[Int(b >> 4)])
                    bytes.append(JSONWriter.hexDigits[Int(b & 0xF)])
                }
                start = i + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buf[start..<buf.count]))
        }
        bytes.append(0x22)
    }

    /// Decimal digits of an integer without allocating a String.
    private mutating func appendInteger(_ value: Int64) {
        if value == 0 { bytes.append(0x30); return }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { d in
            while magnitude > 0 {
                d[count] = UInt8(magnitude % 10) + 0x30
                magnitude /= 10
                count += 1
            }
            if value < 0 { bytes.append(0x2D) }
            for k in stride(from: count - 1, through: 0, by: -1) { bytes.append(d[k]) }
        }
    }
}
