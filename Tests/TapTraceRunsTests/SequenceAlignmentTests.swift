@testable import TapTraceRuns
import TapTraceCore
import Testing

struct SequenceAlignmentTests {
    /// Rebuilds both inputs from a script; checks every element is used once, in order.
    func check(_ a: [Character], _ b: [Character], _ script: SequenceAlignment.Script) -> (same: Int, edits: Int) {
        var rebuiltA: [Character] = [], rebuiltB: [Character] = []
        var same = 0, edits = 0
        for step in script.steps {
            switch step {
            case .same(let i, let j):
                #expect(a[i] == b[j])
                rebuiltA.append(a[i]); rebuiltB.append(b[j]); same += 1
            case .removed(let i): rebuiltA.append(a[i]); edits += 1
            case .inserted(let j): rebuiltB.append(b[j]); edits += 1
            }
        }
        #expect(rebuiltA == a)
        #expect(rebuiltB == b)
        return (same, edits)
    }

    @Test func myersPaperExample() {
        // ABCABBA → CBABAC: the paper's example, shortest edit script of length 5 (LCS 4).
        let a = Array("ABCABBA"), b = Array("CBABAC")
        let script = SequenceAlignment.align(a, b)
        let (same, edits) = check(a, b, script)
        #expect(same == 4)
        #expect(edits == 5)
        #expect(script.isMinimal)
    }

    @Test(arguments: [("", ""), ("", "abc"), ("abc", ""), ("abc", "abc"), ("abcdef", "abXdef"),
                      ("kitten", "sitting"), ("aaaa", "aa"), ("xyz", "abc")])
    func shortestScripts(_ pair: (String, String)) {
        let a = Array(pair.0), b = Array(pair.1)
        let (same, edits) = check(a, b, SequenceAlignment.align(a, b))
        // Brute-force LCS length for comparison.
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in a.indices { for j in b.indices {
            table[i + 1][j + 1] = a[i] == b[j] ? table[i][j] + 1 : max(table[i][j + 1], table[i + 1][j])
        } }
        #expect(same == table[a.count][b.count])
        #expect(edits == a.count + b.count - 2 * same)
    }

    @Test func tooManyEditsFallsBackToAValidNonMinimalScript() {
        let a = Array("abcdefghij"), b = Array("ABCDEFGHIJ")
        let script = SequenceAlignment.align(a, b, maxEdits: 4)
        #expect(!script.isMinimal)
        let (same, edits) = check(a, b, script)
        #expect(same == 0 && edits == 20)
    }
}
