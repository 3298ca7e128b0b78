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

    public init(tape: JSONTape) { self.tape = tape }

    public func report(_ pointer: () -> String, _ message: String) {
        issues.add(pointer(), message)
    }

    private func typeName(_ node: Int) -> String {
        switch tape.kind(node) {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    private func wrongType(_ node: Int, _ pointer: () -> String, expected: String) {
        report(pointer, "must be \(expected), not \(typeName(node))")
    }

    /// Visits the members of an object. `body` returns false for a key it does not know; such
    /// keys are reported with the closest known key from `keys` as a suggestion. Duplicate keys
    /// are reported too (RFC 8259 leaves them undefined; a typo-checking format must not).
    /// Returns false when the node is not an object.
    @discardableResult
    public func object(_ node: Int, at pointer: () -> String, keys: [String],
                _ body: (_ key: String, _ value: Int) -> Bool) -> Bool {
        guard tape.kind(node) == .object else {
            wrongType(node, pointer, expected: "an object")
            return false
        }
        let previous = node + 1           // first key node; keys before `k` are checked for repeats
        for (k, v) in tape.members(node) {
            let key = tape.string(k) ?? ""
            // Duplicate keys: compare raw key bytes with the earlier keys (objects are small).
            var duplicate = false
            var p = previous
            while p < k {
                if tape.sameRawString(p, k) { duplicate = true; break }
                p = tape.next(tape.next(p))
            }
            if duplicate {
                report({ pointer().pointer(key) }, "duplicate key \"\(key)\"")
                continue
            }
            if !body(key, v) {
                var message = "unknown key \"\(key)\""
                if let suggestion = DocumentReader.closest(to: key, in: keys) {
                    message += " (did you mean \"\(suggestion)\"?)"
                }
                if !keys.isEmpty { message += "; allowed here: " + keys.joined(separator: ", ") }
                report({ pointer().pointer(key) }, message)
            }
        }
        return true
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
        guard tape.kind(node) == .array, tape.count(node) == count else {
            report(pointer, "must be \(what): an array of \(count) numbers")
            return nil
        }
        var out: [Double] = []
        out.reserveCapacity(count)
        var ok = true
        for (i, e) in tape.elements(node).enumerated() {
            if let n = number(e, at: { pointer().pointer(i) }) { out.append(n) } else { ok = false }
        }
        return ok ? out : nil
    }

    public func point(_ node: Int, at pointer: () -> String) -> Point? {
        guard let v = numbers(node, at: pointer, count: 2, what: "a point [x, y]") else { return nil }
        return Point(v[0], v[1])
    }

    public func size(_ node: Int, at pointer: () -> String) -> Size? {
        guard let v = numbers(node, at: pointer, count: 2, what: "a size [width, height]") else { return nil }
        guard v[0] >= 0, v[1] >= 0 else { report(pointer, "width and height must be ≥ 0"); return nil }
        return Size(v[0], v[1])
    }

    /// `[x, y, w, h]` with non-negative width and height.
    public func rect(_ node: Int, at pointer: () -> String) -> Rect? {
        guard let v = numbers(node, at: pointer, count: 4, what: "a rect [x, y, width, height]") else { return nil }
        var ok = true
        if v[2] < 0 { report({ pointer().pointer(2) }, "width must be ≥ 0, not \(JSONWriter.format(v[2]))"); ok = false }
        if v[3] < 0 { report({ pointer().pointer(3) }, "height must be ≥ 0, not \(JSONWriter.format(v[3]))"); ok = false }
        return ok ? Rect(v[0], v[1], v[2], v[3]) : nil
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
