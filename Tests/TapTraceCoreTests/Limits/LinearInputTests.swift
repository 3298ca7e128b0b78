import TapTraceCore
import TapTraceFormats
import TapTraceJSON
import TestSupport
import Testing

/// Every input path costs time linear in its size (issue 34, item 3). Each input here is big
/// enough that a quadratic version runs for many minutes, while the linear one takes a second or
/// two in a debug build: the work runs on a thread of its own, and not finishing within
/// `deadline` fails the test (a busy loop does not notice Swift Testing's time limits).
struct LinearInputTests {
    static let deadline = 60.0

    /// Runs `work` and fails the test when it does not finish within the deadline.
    static func withinDeadline(_ what: String, _ work: @escaping @Sendable () throws -> Void) {
        let thread = TestThread {
            do { try work() } catch { Issue.record("\(what): \(error)") }
        }
        if !thread.join(timeoutSeconds: deadline) {
            Issue.record("\(what) did not finish within \(deadline) s: quadratic?")
        }
    }

    /// An object of `count` distinct keys `k0`, `k1`, …, then `extra` members.
    static func manyKeys(_ count: Int, extra: String) -> [UInt8] {
        var s = "{"
        s.reserveCapacity(count * 16)
        for i in 0..<count { s += #""k\#(i)": 0, "# }
        return Array((s + extra + "}").utf8)
    }

    /// Duplicate keys are found with a hash set past a few members (`RepeatedKeys`), not by
    /// comparing each key with every earlier one: 200,000 keys were 2·10¹⁰ comparisons.
    @Test func repeatedKeysOfAHugeObjectInLinearTime() {
        LinearInputTests.withinDeadline("200,000 keys") {
            let tape = try InputDecoder.parse(LinearInputTests.manyKeys(200_000, extra: #""k7": 1, "k199999": 2"#))
            let reader = DocumentReader(tape: tape)
            var visited = 0
            reader.object(0, at: { "/map" }, keys: []) { _, _ in visited += 1; return true }
            #expect(visited == 200_000)
            #expect(reader.issues.issues.map(\.pointer) == ["/map/k7", "/map/k199999"])
            #expect(reader.issues.issues.allSatisfy { $0.message.hasPrefix("duplicate key") })
        }
    }

    /// The same for a scene's objects, whose keys are a fixed set: the unknown ones are
    /// reported (listed up to the cap, with no suggestion computed past it), and a known key
    /// repeated after them is still found.
    @Test func unknownKeysOfASceneObjectInLinearTime() {
        LinearInputTests.withinDeadline("100,000 unknown keys") {
            var scene = #"{"format": "taptrace/scene@1", "windows": [{"id": "W", "class": "UIWindow", "frame": [0, 0, 10, 10], "#
            for i in 0..<100_000 { scene += #""x\#(i)": 0, "# }
            scene += #""id": "again"}]}"#
            do throws(InputError) {
                _ = try InputDecoder.scene(Array(scene.utf8))
                Issue.record("a scene with unknown keys was accepted")
            } catch {
                guard case .invalid(let failure) = error else { Issue.record("not a validation failure: \(error)"); return }
                // 100,000 unknown keys and the repeated "id".
                #expect(failure.issues.count == IssueList.cap)
                #expect(failure.issues.count + failure.omitted == 100_001)
                #expect(failure.issues.first?.pointer == "/windows/0/x0")
            }
        }
    }
}
