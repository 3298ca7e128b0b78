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
}
