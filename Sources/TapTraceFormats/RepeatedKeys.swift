import TapTraceJSON

/// Finds the keys of one object that repeat an earlier key's raw bytes, in time linear in the
/// object's size. Small objects (almost all of a scene) compare with the earlier keys in place;
/// past `linearLimit` members the keys go into a hash set, so an object of 80,000 distinct
/// keys costs 80,000 insertions rather than 3.2 billion comparisons.
struct RepeatedKeys {
    static let linearLimit = 16

    private let tape: JSONTape
    private let object: Int
    private var seen: Set<[UInt8]>?

    init(_ tape: JSONTape, object: Int) {
        self.tape = tape
        self.object = object
        seen = tape.count(object) > RepeatedKeys.linearLimit ? Set(minimumCapacity: tape.count(object)) : nil
    }

    /// Whether key node `key` repeats an earlier key. Every key of the object must be passed in
    /// document order, repeated or not, for the set to know them all; `possible: false` says
    /// the caller knows it is not a repeat (a known key met for the first time), which spares
    /// the comparisons of a small object.
    mutating func isRepeat(_ key: Int, possible: Bool = true) -> Bool {
        if seen != nil {
            let raw: [UInt8] = tape.withRawString(key) { bytes, escaped -> [UInt8] in
                var raw: [UInt8] = [escaped ? 1 : 0]
                raw.append(contentsOf: bytes)
                return raw
            } ?? []
            return !seen!.insert(raw).inserted
        }
        guard possible else { return false }
        var p = object + 1
        while p < key {
            if tape.sameRawString(p, key) { return true }
            p = tape.next(p + 1)
        }
        return false
    }
}
