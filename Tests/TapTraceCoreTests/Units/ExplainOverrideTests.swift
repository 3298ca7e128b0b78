import SceneTestSupport
@testable import TapTraceCore
import TapTraceFormats
import TapTraceJSON
import Testing

/// Explain and hit-test must agree when a `hitTest:` override decides (H8). Explain hit-tests
/// without recording a trace; the override used to be skipped then, so explain named a
/// pass-through overlay as the hit-test view while dispatch delivered to the button below.
struct ExplainOverrideTests {
    static let scene = Scenes.scene("""
        {"id": "B", "class": "UIButton", "frame": [145, 600, 100, 50]},
        {"id": "O", "class": "PassThroughView", "frame": [0, 500, 390, 344], "overrides": {"hitTest": "passThrough"}},
        {"id": "S", "class": "SelfView", "frame": [0, 0, 390, 200], "overrides": {"hitTest": "self"},
         "subviews": [{"id": "inner", "class": "UIView", "frame": [10, 10, 50, 50]}]}
        """)

    static func index() throws -> SceneIndex {
        SceneIndex(validated: try InputDecoder.scene(Array(scene.utf8)))
    }

    @Test func passThroughOverlayIsNotTheHitTestViewInExplain() throws {
        let index = try Self.index()
        let report = HitTestReport.run(index, point: Point(195, 625))
        #expect(report.view?.id == "B")
        let button = try Explainer.explain(index, point: Point(195, 625), target: "B")
        #expect(button.isHitTestView)
        #expect(button.hitTestView?.id == "B")
        let overlay = try Explainer.explain(index, point: Point(195, 625), target: "O")
        #expect(!overlay.isHitTestView)
    }

    @Test func returnsSelfOverrideAgreesToo() throws {
        let index = try Self.index()
        #expect(HitTestReport.run(index, point: Point(30, 30)).view?.id == "S")
        #expect(try Explainer.explain(index, point: Point(30, 30), target: "S").isHitTestView)
        #expect(try !Explainer.explain(index, point: Point(30, 30), target: "inner").isHitTestView)
        let quiet = HitTester(index: index, knobs: Knobs())
        #expect(quiet.quietHitTest(index.view(withId: "W")!, point: Point(30, 30)) == index.view(withId: "S"))
    }

    /// The hit-test report's `trace` is the array of entries (it was once an array in an array).
    @Test func hitTestReportTraceIsAFlatArrayOfEntries() throws {
        let report = HitTestReport.run(try Self.index(), point: Point(195, 625))
        let tape = try JSONTape(parsing: report.json())
        let trace = try #require(tape.members(tape.root).first { tape.string($0.key) == "trace" }?.value)
        #expect(tape.count(trace) == report.trace.count)
        #expect(tape.elements(trace).allSatisfy { tape.kind($0) == .object })
    }
}
