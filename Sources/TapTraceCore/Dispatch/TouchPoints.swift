/// Points keyed by touch index: a recognizer's start points, the locations a flush delivers,
/// the locations forwarded up a responder chain. A handful of touches at most in practice,
/// so a scanned array of pairs replaces `[Int: Point]`: hashing, and the dictionary's storage
/// growing from empty, cost more than the lookups themselves (callgrind, 2026-11-24, the tap of
/// bench/make-scene.py: 221k → 216k instructions per dispatch).
struct TouchPoints: ExpressibleByDictionaryLiteral {
    private var pairs: [(touch: Int, point: Point)] = []

    init() {}
    init(dictionaryLiteral elements: (Int, Point)...) {
        for (t, p) in elements { self[t] = p }
    }

    var isEmpty: Bool { pairs.isEmpty }

    subscript(t: Int) -> Point? {
        get {
            for pair in pairs where pair.touch == t { return pair.point }
            return nil
        }
        set {
            if let k = pairs.firstIndex(where: { $0.touch == t }) {
                if let newValue { pairs[k].point = newValue } else { pairs.remove(at: k) }
            } else if let newValue {
                pairs.append((t, newValue))
            }
        }
    }

    mutating func removeAll() { pairs.removeAll(keepingCapacity: true) }

    /// Replaces every point by `transform` of it (the same touches, converted).
    mutating func transformPoints(_ transform: (Point) -> Point) {
        for k in pairs.indices { pairs[k].point = transform(pairs[k].point) }
    }
}
