/// Points keyed by touch index: a recognizer's start points, the locations a flush delivers,
/// the locations forwarded up a responder chain. A handful of touches at most in practice,
/// so a scanned array of pairs replaces `[Int: Point]`: hashing, and the dictionary's storage
/// growing from empty, cost more than the lookups themselves (callgrind, the tap of
/// bench/make-scene.py).
struct TouchPoints: ExpressibleByDictionaryLiteral {
    // The first pair is stored inline: nearly always there is one touch, and an array for it
    // was allocated and freed for every recognizer's start points and every forwarding
    // (callgrind). `firstTouch` is -1 when there is none (and then `more` is empty).
    private var firstTouch = -1
    private var firstPoint = Point.zero
    private var more: [(touch: Int, point: Point)] = []

    init() {}
    /// One touch's point (a dictionary literal would build an array of its pairs first).
    init(_ t: Int, _ p: Point) { firstTouch = t; firstPoint = p }
    init(dictionaryLiteral elements: (Int, Point)...) {
        for (t, p) in elements { self[t] = p }
    }

    var isEmpty: Bool { firstTouch < 0 }

    subscript(t: Int) -> Point? {
        get {
            if firstTouch == t { return firstPoint }
            for pair in more where pair.touch == t { return pair.point }
            return nil
        }
        set {
            if firstTouch == t {
                if let newValue { firstPoint = newValue } else if more.isEmpty { firstTouch = -1 } else {
                    let next = more.removeFirst()
                    firstTouch = next.touch
                    firstPoint = next.point
                }
            } else if let k = more.firstIndex(where: { $0.touch == t }) {
                if let newValue { more[k].point = newValue } else { more.remove(at: k) }
            } else if let newValue {
                if firstTouch < 0 { firstTouch = t; firstPoint = newValue } else { more.append((t, newValue)) }
            }
        }
    }

    mutating func removeAll() {
        firstTouch = -1
        more.removeAll(keepingCapacity: true)
    }

    /// Replaces every point by `transform` of it (the same touches, converted).
    mutating func transformPoints(_ transform: (Point) -> Point) {
        if firstTouch >= 0 { firstPoint = transform(firstPoint) }
        for k in more.indices { more[k].point = transform(more[k].point) }
    }
}
