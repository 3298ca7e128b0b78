import TapTraceJSON

/// The keys already met in one large object, by their raw bytes: a key that repeats an earlier
/// one is found in constant time. A small object (almost every object of a scene) compares its
/// few keys in place instead (`DocumentReader.isRepeat`), which costs nothing for a known key
/// met once; past `linearLimit` members that scan would be quadratic (an object of 80,000 keys
/// was 3.2 billion comparisons), so the keys go into a hash set.
struct RepeatedKeys {
    static let linearLimit = 16

    private var seen: Set<[UInt8]>

    /// A set for an object of `capacity` members.
    init(capacity: Int) { seen = Set(minimumCapacity: capacity) }

    /// Whether key node `key` repeats a key passed before. Every key of the object must be
    /// passed, in document order.
    mutating func isRepeat(_ key: Int, in tape: JSONTape) -> Bool {
        let raw: [UInt8] = tape.withRawString(key) { bytes, escaped -> [UInt8] in
            var raw: [UInt8] = [escaped ? 1 : 0]
            raw.append(contentsOf: bytes)
            return raw
        } ?? []
        return !seen.insert(raw).inserted
    }
}
