/// Finds which of a set of names (an enum's raw values) some UTF-8 bytes spell, without making
/// a `String` of them: the keys of a document's objects and UIKit class names, matched for every
/// view of every scene. Open addressing on a hash of the length and three bytes, confirmed by
/// comparing the bytes. Built once per type.
struct NameTable<Value: CaseIterable & RawRepresentable & Sendable>: Sendable where Value.RawValue == String {
    /// The values in declaration order; an index refers to this list.
    let values: [Value]
    /// Every name's UTF-8, back to back: name k is `utf8[starts[k]..<starts[k + 1]]`.
    private let utf8: [UInt8]
    private let starts: [Int]
    /// An index into `values`, or -1 for an empty slot; at most a quarter full.
    private let slots: [Int16]

    init() {
        values = Array(Value.allCases)
        var utf8: [UInt8] = [], starts = [0]
        for value in values {
            utf8.append(contentsOf: value.rawValue.utf8)
            starts.append(utf8.count)
        }
        var size = 8
        while size < values.count * 4 { size *= 2 }
        var slots = [Int16](repeating: -1, count: size)
        for k in values.indices {
            let hash = utf8.withUnsafeBufferPointer { Self.hash(UnsafeBufferPointer(rebasing: $0[starts[k]..<starts[k + 1]])) }
            var slot = hash & (size - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = Int16(k)
        }
        self.utf8 = utf8
        self.starts = starts
        self.slots = slots
    }

    /// The index in `values` of the name `bytes` spell, or nil.
    func index(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let mask = slots.count - 1
        var slot = Self.hash(bytes) & mask
        return utf8.withUnsafeBufferPointer { names in
            while true {
                let k = Int(slots[slot])
                if k < 0 { return nil }
                let start = starts[k], count = starts[k + 1] - start
                if count == bytes.count, Self.same(names.baseAddress! + start, bytes, count) { return k }
                slot = (slot + 1) & mask
            }
        }
    }

    /// The index of `name` (a key written with escapes, decoded), or nil.
    func index(of name: String) -> Int? {
        var name = name
        return name.withUTF8 { index($0) }
    }

    /// The value `bytes` spell, or nil.
    func value(_ bytes: UnsafeBufferPointer<UInt8>) -> Value? { index(bytes).map { values[$0] } }

    /// The names, in declaration order.
    var names: [String] { values.map(\.rawValue) }

    private static func same(_ a: UnsafePointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, _ count: Int) -> Bool {
        for k in 0..<count where a[k] != b[k] { return false }
        return true
    }

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
protocol DocumentKey: CaseIterable, RawRepresentable, Sendable where RawValue == String {
    static var names: NameTable<Self> { get }
}
