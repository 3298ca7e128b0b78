import TapTraceCore
import TapTraceFormats
import TapTraceJSON

/// Aligns two sequences with Myers' O((N+M)·D) shortest-edit-script algorithm ("An O(ND)
/// Difference Algorithm and Its Variations", 1986): the longest common subsequence stays aligned,
/// everything else is a removal from `a` or an insertion from `b`.
///
/// Used by run comparison (trace entries keyed by what happened, action lists). Common prefixes and
/// suffixes are matched first, so two runs that differ in one spot cost almost nothing. The
/// backtracking data grows with D², so past `maxEdits` the middle part is reported as removed and
/// inserted wholesale and `isMinimal` is false: a correct script, just not the shortest one.
public enum SequenceAlignment {
    public enum Step: Sendable, Hashable {
        /// `a[a]` and `b[b]` are equal.
        case same(a: Int, b: Int)
        /// `a[a]` has no partner in `b`.
        case removed(a: Int)
        /// `b[b]` has no partner in `a`.
        case inserted(b: Int)
    }

    public struct Script: Sendable {
        public var steps: [Step]
        public var isMinimal: Bool
    }

    public static let defaultMaxEdits = 1000

    public static func align<Element: Equatable>(_ a: [Element], _ b: [Element],
                                                 maxEdits: Int = defaultMaxEdits) -> Script {
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix,
              a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }

        var steps: [Step] = []
        steps.reserveCapacity(max(a.count, b.count))
        for i in 0..<prefix { steps.append(.same(a: i, b: i)) }
        let midA = Array(a[prefix..<(a.count - suffix)]), midB = Array(b[prefix..<(b.count - suffix)])
        var minimal = true
        if let middle = myers(midA, midB, maxEdits: maxEdits) {
            for step in middle {
                switch step {
                case .same(let x, let y): steps.append(.same(a: x + prefix, b: y + prefix))
                case .removed(let x): steps.append(.removed(a: x + prefix))
                case .inserted(let y): steps.append(.inserted(b: y + prefix))
                }
            }
        } else {
            minimal = false
            for x in midA.indices { steps.append(.removed(a: x + prefix)) }
            for y in midB.indices { steps.append(.inserted(b: y + prefix)) }
        }
        for k in 0..<suffix { steps.append(.same(a: a.count - suffix + k, b: b.count - suffix + k)) }
        return Script(steps: steps, isMinimal: minimal)
    }

    /// The forward greedy search; nil when more than `maxEdits` edits are needed.
    private static func myers<Element: Equatable>(_ a: [Element], _ b: [Element], maxEdits: Int) -> [Step]? {
        let n = a.count, m = b.count
        if n == 0 { return (0..<m).map { .inserted(b: $0) } }
        if m == 0 { return (0..<n).map { .removed(a: $0) } }
        let limit = min(n + m, maxEdits)
        let offset = limit + 1
        var v = [Int](repeating: 0, count: 2 * limit + 3)
        // frontiers[d] holds v[-d-1 ... d+1] as it was before round d (what backtracking reads).
        var frontiers: [[Int]] = []
        for d in 0...limit {
            frontiers.append(Array(v[(offset - d - 1)...(offset + d + 1)]))
            for k in stride(from: -d, through: d, by: 2) {
                var x: Int
                if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                    x = v[offset + k + 1]
                } else {
                    x = v[offset + k - 1] + 1
                }
                var y = x - k
                while x < n, y < m, a[x] == b[y] { x += 1; y += 1 }
                v[offset + k] = x
                if x >= n, y >= m { return backtrack(frontiers, n: n, m: m, d: d) }
            }
        }
        return nil
    }

    private static func backtrack(_ frontiers: [[Int]], n: Int, m: Int, d final: Int) -> [Step] {
        var steps: [Step] = []
        var x = n, y = m
        for d in stride(from: final, to: 0, by: -1) {
            let frontier = frontiers[d]
            func v(_ k: Int) -> Int { frontier[k + d + 1] }
            let k = x - y
            let previousK = (k == -d || (k != d && v(k - 1) < v(k + 1))) ? k + 1 : k - 1
            let previousX = v(previousK), previousY = previousX - previousK
            while x > previousX, y > previousY {
                x -= 1; y -= 1
                steps.append(.same(a: x, b: y))
            }
            if x == previousX { steps.append(.inserted(b: previousY)) } else { steps.append(.removed(a: previousX)) }
            x = previousX; y = previousY
        }
        while x > 0, y > 0 {
            x -= 1; y -= 1
            steps.append(.same(a: x, b: y))
        }
        return steps.reversed()
    }
}
