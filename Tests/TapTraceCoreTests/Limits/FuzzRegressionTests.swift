import SceneTestSupport
import TapTraceCore
import TapTraceFormats
import TapTraceJSON
import TapTraceRuns
import Testing

/// Inputs the fuzz targets found that stopped the process (scripts/fuzz, docs/fuzzing.md), each
/// reduced to the request that shows it. Each must give an answer, not a trap.
struct FuzzRegressionTests {
    /// A button whose touch-up sends `closeTapped:` up the chain to VC; the finger goes down at
    /// 0 and lifts at `end`.
    static func buttonTap(liftingAt end: Double) throws -> DispatchResult {
        let button = #"{"id": "B", "class": "UIButton", "frame": [40, 600, 120, 44], "targets": [{"events": ["touchUpInside"], "target": null, "action": "closeTapped:"}]}"#
        return try Scenes.run(Scenes.scene(button, vc: #""implements": ["closeTapped:"]"#), Scenes.tap(100, 620, 0, end))
    }

    /// fuzz-request: a lift at t ≈ 8.9e58 trapped in the text rendering (`TextRenderer.time`
    /// converted the milliseconds to `Int64`), which `dispatch --text` and a stored run's text
    /// export use.
    @Test func textOfATimePastInt64Milliseconds() throws {
        let r = try Self.buttonTap(liftingAt: 8.8e58)
        #expect(r.actions.map(\.action) == ["closeTapped:"])
        let text = TextRenderer.render(r)
        #expect(text.contains("action t=8.8e+58: closeTapped: sender B → VC (responderChain)"))
        #expect(text.contains("t=0.000 input\n"))
        #expect(text.contains("t=8.8e+58 input\n"))
        // Times that still have milliseconds keep the fixed three decimals.
        #expect(TextRenderer.render(try Self.buttonTap(liftingAt: 9_000_000_000_000.25)).contains("t=9000000000000.250 input\n"))
    }

    /// fuzz-request (the same input, once the text rendered): the Chrome trace export
    /// converted the time in microseconds to `Int` and trapped. Its timestamps stop at 2^52 µs
    /// and keep their order as JSON numbers; the entry's own time is still in `args.t`.
    @Test func chromeTraceOfATimePastIntMicroseconds() throws {
        let r = try Self.buttonTap(liftingAt: 8.8e58)
        let tape = try JSONTape(parsing: ChromeTrace.encode(r, title: "huge"))
        let events = try #require(tape.member(tape.root, "traceEvents"))
        var mainThread: [(ts: Double, t: Double)] = []
        for event in tape.elements(events) {
            guard let tid = tape.member(event, "tid").flatMap(tape.number), tid == 1,
                  let ts = tape.member(event, "ts").flatMap(tape.number),
                  let args = tape.member(event, "args"), let t = tape.member(args, "t").flatMap(tape.number) else { continue }
            mainThread.append((ts, t))
        }
        #expect(mainThread.count == r.trace.filter { $0.kind != .state }.count)
        #expect(zip(mainThread, mainThread.dropFirst()).allSatisfy { $0.ts < $1.ts })
        let lift = try #require(mainThread.first { $0.t == 8.8e58 })
        #expect(lift.ts >= 4_503_599_627_370_496 && lift.ts < 4_503_599_627_370_496 + Double(r.trace.count))
        #expect(mainThread.first?.ts == 0)
    }

    /// Found with deep inputs built next to the fuzz targets: an Appium page source of 4,000
    /// nested elements (570 KB) took 19 s to import, because `SceneValidator` wrote the JSON
    /// pointer of every view with `overrides` or a `viewController` before knowing whether an
    /// issue needed it, and the pointer of a view d levels deep cost O(d²): O(n³) for a chain.
    /// JSON scenes too; 8,000 levels took minutes. Each view here has both.
    @Test func deepViewsWithOverridesValidateInLinearTime() {
        LinearInputTests.withinDeadline("8,000 nested views with overrides") {
            let depth = 8_000
            var s = #"{"format": "taptrace/scene@1", "windows": [{"id": "W", "class": "UIWindow", "frame": [0, 0, 390, 844], "subviews": ["#
            s.reserveCapacity(depth * 200)
            for i in 0..<depth {
                s += #"{"id": "v\#(i)", "class": "UIView", "frame": [0, 0, 100, 100], "overrides": {"touches": "handle"}, "#
                s += #""viewController": {"id": "c\#(i)", "class": "VC", "overrides": {"touches": "handle"}}, "subviews": ["#
            }
            s += String(repeating: "]}", count: depth) + "]}]}"
            let index = try InputDecoder.sceneIndex(Array(s.utf8))
            #expect(index.viewCount == depth + 1)
        }
    }

    /// The same for duplicate ids: every duplicate's pointer was written, also past the issue
    /// cap, and each pointer `depth` levels down was built in O(depth²). A chain of 8,000 views
    /// that all have one id lists the first `IssueList.cap` duplicates and counts the rest.
    @Test func deepDuplicateIdsAreReportedInLinearTime() {
        LinearInputTests.withinDeadline("8,000 nested views with one id") {
            let depth = 8_000
            var s = #"{"format": "taptrace/scene@1", "windows": [{"id": "W", "class": "UIWindow", "frame": [0, 0, 390, 844], "subviews": ["#
            for _ in 0..<depth { s += #"{"id": "x", "class": "UIView", "frame": [0, 0, 100, 100], "subviews": ["# }
            s += String(repeating: "]}", count: depth) + "]}]}"
            do throws(InputError) {
                _ = try InputDecoder.sceneIndex(Array(s.utf8))
                Issue.record("a scene with duplicate ids was accepted")
            } catch {
                guard case .invalid(let failure) = error else { Issue.record("not a validation failure: \(error)"); return }
                #expect(failure.issues.count == IssueList.cap)
                #expect(failure.omitted == depth - 1 - IssueList.cap)
                #expect(failure.issues.first?.pointer == "/windows/0/subviews/0/subviews/0/id")
                #expect(failure.issues.first?.message == #"duplicate id "x": already used at /windows/0/subviews/0"#)
            }
        }
    }
}
