/// `taptrace hit-test` and `POST /v1/scenes/{id}/hit-test`: one point, the owning window, the
/// hit-test view, its path and the full hit-test trace.
public struct HitTestReport: Sendable {
    public var point: Point
    public var window: ObjectRef?
    public var view: ObjectRef?
    public var path: [ObjectRef]
    public var recorder: TraceRecorder
    public var trace: [TraceEntry] { recorder.entries }
    public var knobs: Knobs

    public static func run(_ index: SceneIndex, point: Point, knobs overrides: KnobOverrides = KnobOverrides()) -> HitTestReport {
        let knobs = index.knobs.applying(overrides)
        let tester = HitTester(index: index, knobs: knobs)
        // Objects are named by the numbers the index gave them: nothing per view is built for
        // a hit-test, whatever the scene's size.
        var trace = TraceRecorder(index: index)
        let found = tester.windowHitTest(screenPoint: point, event: nil, passes: knobs.hitTestPasses, trace: &trace)
        return HitTestReport(point: point, window: found.map { index.ref(view: $0.window) },
                             view: found.map { index.ref(view: $0.view) },
                             path: found.map { tester.path(to: $0.view).map { index.ref(view: $0) } } ?? [],
                             recorder: trace, knobs: knobs)
    }
}
