import TapTraceCore
import TapTraceJSON

/// Reads typed values out of a `JSONTape`, recording an issue (with its JSON pointer) for every
/// value of the wrong type or range instead of stopping at the first.
///
/// Pointers are passed as non-escaping closures and built only when an issue is recorded: a
/// valid million-view scene builds no pointer strings at all.
public final class DocumentReader {
    public let tape: JSONTape
    public var issues = IssueList()
    /// The sizes the documents read may reach (`Limits.views` per scene, `Limits.records`
    /// per reader): past one, the limit is recorded in `issues` (`IssueList.exceed`) and the
    /// work it would cost is not done. Only the two limits a reader applies are kept.
    let maxViews: Int
    let maxRecords: Int
    /// Touch records of the touch sequences read so far: `maxRecords` bounds a request's
    /// total (`POST /v1/check` carries many cases).
    public internal(set) var recordCount = 0

    public init(tape: JSONTape, limits: Limits = .unlimited) {
        self.tape = tape
        maxViews = limits.views
        maxRecords = limits.records
    }

    /// Records an issue; past `IssueList.cap` only counts it, building neither its pointer nor
    /// its message (a suggestion for an unknown key costs an edit distance per allowed key).
    public func report(_ pointer: () -> String, _ message: @autoclosure () -> String) {
        issues.add(pointer(), message())
    }

    private func typeName(_ node: Int) -> String { tape.kind(node).described }

    private func wrongType(_ node: Int, _ pointer: () -> String, expected: String) {
        report(pointer, "must be \(expected), not \(typeName(node))")
    }

    /// Visits the members of an object whose keys are `Key`'s, in document order. A key that is
    /// not one of them is reported with the closest as a suggestion and the list of those
    /// allowed; a repeated key is reported too (RFC 8259 leaves duplicates undefined; a
    /// typo-checking format must not). Keys are matched on their bytes (`NameTable`), escaped
    /// ones once decoded; repeats are found by their raw bytes, so `"a"` and `"\u0061"` are
    /// not the same key. Returns false when the node is not an object.
    @discardableResult
    package func object<Key: DocumentKey>(_ node: Int, at pointer: () -> String, _ body: (_ key: Key, _ value: Int) -> Void) -> Bool {
        guard tape.kind(node) == .object else {
            wrongType(node, pointer, expected: "an object")
            return false
        }
        // Past a few members the repeats are found with a hash set, out of line: the loop
        // below, which every object of a scene runs, stays as small as it was.
        if tape.count(node) > RepeatedKeys.linearLimit { return largeObject(node, at: pointer, body) }
        let table = Key.names
        var seen: UInt64 = 0
        var k = node + 1
        for _ in 0..<tape.count(node) {
            let value = k + 1
            defer { k = tape.next(value) }
            let index = tape.withRawString(k) { raw, escaped in
                escaped ? table.index(of: tape.string(k) ?? "") : table.index(raw)
            } ?? nil
            if let index {
                // A known key seen for the first time cannot be a repeat: no comparison.
                let bit: UInt64 = 1 << UInt64(index)
                if seen & bit != 0, isRepeat(k, in: node) { reportRepeat(k, pointer); continue }
                seen |= bit
                body(table.values[index], value)
            } else if isRepeat(k, in: node) {
                reportRepeat(k, pointer)
            } else {
                reportUnknown(k, pointer, allowed: table.names)
            }
        }
        return true
    }

    /// `object(_:at:_:)` for an object of more than `RepeatedKeys.linearLimit` members.
    @inline(never)
    private func largeObject<Key: DocumentKey>(_ node: Int, at pointer: () -> String,
                                               _ body: (_ key: Key, _ value: Int) -> Void) -> Bool {
        let table = Key.names
        var repeats = RepeatedKeys(capacity: tape.count(node))
        var k = node + 1
        for _ in 0..<tape.count(node) {
            let value = k + 1
            defer { k = tape.next(value) }
            if repeats.isRepeat(k, in: tape) { reportRepeat(k, pointer); continue }
            let index = tape.withRawString(k) { raw, escaped in
                escaped ? table.index(of: tape.string(k) ?? "") : table.index(raw)
            } ?? nil
            if let index { body(table.values[index], value) } else { reportUnknown(k, pointer, allowed: table.names) }
        }
        return true
    }

    /// Visits the members of an object whose keys are data (a map of ids or names). `body`
    /// returns false for a key it does not know; such keys are reported like `object(_:at:_:)`
    /// reports them, with the closest of `keys`. Returns false when the node is not an object.
    @discardableResult
    public func object(_ node: Int, at pointer: () -> String, keys: [String],
                       _ body: (_ key: String, _ value: Int) -> Bool) -> Bool {
        guard tape.kind(node) == .object else {
            wrongType(node, pointer, expected: "an object")
            return false
        }
        var large = tape.count(node) > RepeatedKeys.linearLimit ? RepeatedKeys(capacity: tape.count(node)) : nil
        var k = node + 1
        for _ in 0..<tape.count(node) {
            let value = k + 1
            defer { k = tape.next(value) }
            if large != nil ? large!.isRepeat(k, in: tape) : isRepeat(k, in: node) { reportRepeat(k, pointer); continue }
            if !body(tape.string(k) ?? "", value) { reportUnknown(k, pointer, allowed: keys) }
        }
        return true
    }

    /// Whether an earlier key of a small `object` has the same raw bytes as key node `key`.
    private func isRepeat(_ key: Int, in object: Int) -> Bool {
        var p = object + 1
        while p < key {
            if tape.sameRawString(p, key) { return true }
            p = tape.next(p + 1)
        }
        return false
    }

    private func reportRepeat(_ key: Int, _ pointer: () -> String) {
        let name = tape.string(key) ?? ""
        report({ pointer().pointer(name) }, "duplicate key \"\(name)\"")
    }

    private func reportUnknown(_ key: Int, _ pointer: () -> String, allowed keys: [String]) {
        let name = tape.string(key) ?? ""
        report({ pointer().pointer(name) }, DocumentReader.unknownKeyMessage(name, allowed: keys))
    }

    private static func unknownKeyMessage(_ name: String, allowed keys: [String]) -> String {
        var message = "unknown key \"\(name)\""
        if let suggestion = closest(to: name, in: keys) { message += " (did you mean \"\(suggestion)\"?)" }
        if !keys.isEmpty { message += "; allowed here: " + keys.joined(separator: ", ") }
        return message
    }

    /// Whether object `node` has `key` (a required key whose value was refused still counts).
    package func has<Key: DocumentKey>(_ node: Int, _ key: Key) -> Bool {
        var k = node + 1
        for _ in 0..<tape.count(node) {
            if tape.string(k) == key.rawValue { return true }
            k = tape.next(k + 1)
        }
        return false
    }

    /// Elements of an array, or nil (reported) when the node is not an array.
    public func array(_ node: Int, at pointer: () -> String) -> JSONTape.ChildSequence? {
        guard tape.kind(node) == .array else {
            wrongType(node, pointer, expected: "an array")
            return nil
        }
        return tape.elements(node)
    }

    public func bool(_ node: Int, at pointer: () -> String) -> Bool? {
        guard let b = tape.bool(node) else { wrongType(node, pointer, expected: "true or false"); return nil }
        return b
    }

    public func string(_ node: Int, at pointer: () -> String, nonEmpty: Bool = true) -> String? {
        guard let s = tape.string(node) else { wrongType(node, pointer, expected: "a string"); return nil }
        if nonEmpty, s.isEmpty { report(pointer, "must not be empty"); return nil }
        return s
    }

    /// A string or null (null → `.some(nil)`); nil when the value is of another type.
    public func stringOrNull(_ node: Int, at pointer: () -> String) -> String?? {
        if tape.kind(node) == .null { return .some(nil) }
        guard let s = string(node, at: pointer) else { return nil }
        return .some(s)
    }

    public func number(_ node: Int, at pointer: () -> String) -> Double? {
        guard tape.kind(node) == .number else { wrongType(node, pointer, expected: "a number"); return nil }
        guard let n = tape.number(node), n.isFinite else { report(pointer, "must be a finite number"); return nil }
        return n
    }

    public func number(_ node: Int, at pointer: () -> String, in range: ClosedRange<Double>, what: String) -> Double? {
        guard let n = number(node, at: pointer) else { return nil }
        guard range.contains(n) else { report(pointer, "must be \(what), not \(JSONWriter.format(n))"); return nil }
        return n
    }

    public func nonNegative(_ node: Int, at pointer: () -> String) -> Double? {
        number(node, at: pointer, in: 0...Double.greatestFiniteMagnitude, what: "≥ 0")
    }

    public func integer(_ node: Int, at pointer: () -> String, minimum: Int) -> Int? {
        guard let n = number(node, at: pointer) else { return nil }
        guard n == n.rounded(), n >= Double(minimum), n <= 1_000_000 else {
            report(pointer, "must be an integer ≥ \(minimum), not \(JSONWriter.format(n))")
            return nil
        }
        return Int(n)
    }

    public func strings(_ node: Int, at pointer: () -> String) -> [String]? {
        guard let elements = array(node, at: pointer) else { return nil }
        var out: [String] = []
        out.reserveCapacity(elements.underestimatedCount)
        var ok = true
        for (i, e) in elements.enumerated() {
            if let s = string(e, at: { pointer().pointer(i) }) { out.append(s) } else { ok = false }
        }
        return ok ? out : nil
    }

    /// A fixed-length array of finite numbers (points, sizes, rects, transforms).
    public func numbers(_ node: Int, at pointer: () -> String, count: Int, what: String) -> [Double]? {
        var out: [Double] = []
        out.reserveCapacity(count)
        return numbers(node, at: pointer, count: count, what: what) { out.append($0) } ? out : nil
    }

    /// The same, each number handed to `each` in order (no array): true when all were read.
    private func numbers(_ node: Int, at pointer: () -> String, count: Int, what: String,
                         _ each: (Double) -> Void) -> Bool {
        guard tape.kind(node) == .array, tape.count(node) == count else {
            report(pointer, "must be \(what): an array of \(count) numbers")
            return false
        }
        var ok = true
        var e = node + 1
        for i in 0..<count {
            if let n = number(e, at: { pointer().pointer(i) }) { each(n) } else { ok = false }
            e = tape.next(e)
        }
        return ok
    }

    public func point(_ node: Int, at pointer: () -> String) -> Point? {
        // The common case read directly; anything wrong goes the way that reports it.
        if tape.kind(node) == .array, tape.count(node) == 2 {
            let a = node + 1, b = tape.next(a)
            if let x = tape.number(a), let y = tape.number(b), x.isFinite, y.isFinite { return Point(x, y) }
        }
        var v = (0.0, 0.0), k = 0
        guard numbers(node, at: pointer, count: 2, what: "a point [x, y]", { n in
            if k == 0 { v.0 = n } else { v.1 = n }
            k += 1
        }) else { return nil }
        return Point(v.0, v.1)
    }

    public func size(_ node: Int, at pointer: () -> String) -> Size? {
        guard let p = numbers(node, at: pointer, count: 2, what: "a size [width, height]") else { return nil }
        guard p[0] >= 0, p[1] >= 0 else { report(pointer, "width and height must be ≥ 0"); return nil }
        return Size(p[0], p[1])
    }

    /// `[x, y, w, h]` with non-negative width and height.
    public func rect(_ node: Int, at pointer: () -> String) -> Rect? {
        // The common case read directly; anything wrong goes the way that reports it.
        if tape.kind(node) == .array, tape.count(node) == 4 {
            let a = node + 1, b = tape.next(a), c = tape.next(b), d = tape.next(c)
            if let x = tape.number(a), let y = tape.number(b), let w = tape.number(c), let h = tape.number(d),
               x.isFinite, y.isFinite, w.isFinite, h.isFinite, w >= 0, h >= 0 {
                return Rect(x, y, w, h)
            }
        }
        var v = (0.0, 0.0, 0.0, 0.0), k = 0
        guard numbers(node, at: pointer, count: 4, what: "a rect [x, y, width, height]", { n in
            switch k {
            case 0: v.0 = n
            case 1: v.1 = n
            case 2: v.2 = n
            default: v.3 = n
            }
            k += 1
        }) else { return nil }
        var ok = true
        if v.2 < 0 { report({ pointer().pointer(2) }, "width must be ≥ 0, not \(JSONWriter.format(v.2))"); ok = false }
        if v.3 < 0 { report({ pointer().pointer(3) }, "height must be ≥ 0, not \(JSONWriter.format(v.3))"); ok = false }
        return ok ? Rect(v.0, v.1, v.2, v.3) : nil
    }

    /// Closest known key by edit distance, when it is close enough to be a plausible typo.
    public static func closest(to key: String, in keys: [String]) -> String? {
        var best: (String, Int)?
        let a = Array(key.lowercased())
        for candidate in keys {
            let d = editDistance(a, Array(candidate.lowercased()))
            if d <= max(2, candidate.count / 4), d < (best?.1 ?? Int.max) { best = (candidate, d) }
        }
        return best?.0
    }

    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1,
                                 previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
