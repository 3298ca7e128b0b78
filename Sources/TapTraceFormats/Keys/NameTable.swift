/// Finds which of a set of names (an enum's raw values) some UTF-8 bytes spell, without making
/// a `String` of them: the keys of a document's objects and UIKit class names, matched for every
/// view of every scene. Open addressing on a hash of the length and three bytes, confirmed by
/// comparing the bytes. Built once per type; a class, so that using it retains one reference
/// rather than its four arrays.
package final class NameTable<Value: CaseIterable & RawRepresentable & Sendable>: @unchecked Sendable where Value.RawValue == String {
    /// The values in declaration order; an index refers to this list.
    package let values: [Value]
    /// Every name's UTF-8, back to back: name k is `utf8[starts[k]..<starts[k + 1]]`. Memory of
    /// its own, read through pointers: a lookup is a few dozen instructions. Never written
    /// after `init`, so sharing the table is safe.
    private let utf8: UnsafeMutablePointer<UInt8>
    private let starts: UnsafeMutablePointer<Int>
    /// An index into `values`, or -1 for an empty slot; at most a quarter full.
    private let slots: UnsafeMutablePointer<Int16>
    private let mask: Int

    package init() {
        values = Array(Value.allCases)
        var bytes: [UInt8] = [], offsets = [0]
        for value in values {
            bytes.append(contentsOf: value.rawValue.utf8)
            offsets.append(bytes.count)
        }
        utf8 = .allocate(capacity: max(1, bytes.count))
        utf8.initialize(from: bytes, count: bytes.count)
        starts = .allocate(capacity: offsets.count)
        starts.initialize(from: offsets, count: offsets.count)
        var size = 8
        while size < values.count * 4 { size *= 2 }
        mask = size - 1
        slots = .allocate(capacity: size)
        slots.initialize(repeating: -1, count: size)
        for k in values.indices {
            var slot = Self.hash(UnsafeBufferPointer(start: utf8 + offsets[k], count: offsets[k + 1] - offsets[k])) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int16(k)
        }
    }

    deinit {
        utf8.deallocate()
        starts.deallocate()
        slots.deallocate()
    }

    /// The index in `values` of the name `bytes` spell, or nil.
    package func index(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var slot = Self.hash(bytes) & mask
        while true {
            let k = Int(slots[slot])
            if k < 0 { return nil }
            let start = starts[k], count = starts[k + 1] - start
            if count == bytes.count, Self.same(utf8 + start, bytes, count) { return k }
            slot = (slot + 1) & mask
        }
    }

    /// The index of `name` (a key written with escapes, decoded), or nil.
    package func index(of name: String) -> Int? {
        var name = name
        return name.withUTF8 { index($0) }
    }

    /// The value `bytes` spell, or nil.
    package func value(_ bytes: UnsafeBufferPointer<UInt8>) -> Value? { index(bytes).map { values[$0] } }

    /// The names, in declaration order.
    package var names: [String] { values.map(\.rawValue) }

    @inline(__always)
    private static func same(_ a: UnsafePointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, _ count: Int) -> Bool {
        for k in 0..<count where a[k] != b[k] { return false }
        return true
    }

    @inline(__always)
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let n = bytes.count
        guard n > 0 else { return 0 }
        var h = n &* 0x9E37_79B1
        h ^= Int(bytes[0]) &* 31
        h ^= Int(bytes[n - 1]) &* 131
        h ^= Int(bytes[n >> 1]) &* 8191
        return h ^ (h >> 7)
    }
}

/// The keys of one kind of object in the contract's documents, declared once, in the contract's
/// order: `DocumentReader.object` matches a document's keys against them and lists them as the
/// keys allowed where one is unknown; the encoders write them in this order.
package protocol DocumentKey: CaseIterable, RawRepresentable, Sendable where RawValue == String {
    static var names: NameTable<Self> { get }
}
