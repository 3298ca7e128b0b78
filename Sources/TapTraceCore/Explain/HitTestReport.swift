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
        let knobs = Knobs().applying(index.scene.knobs, overrides)
        let tester = HitTester(index: index, knobs: knobs)
        var trace = TraceRecorder(viewRefs: index.refs)
        let found = tester.windowHitTest(screenPoint: point, event: nil, passes: knobs.hitTestPasses, trace: &trace)
        return HitTestReport(point: point, window: found.map { index.ref(view: $0.window) },
                             view: found.map { index.ref(view: $0.view) },
                             path: found.map { tester.path(to: $0.view).map { index.ref(view: $0) } } ?? [],
                             recorder: trace, knobs: knobs)
    }

    public func json(indent: Int = 0) -> [UInt8] {
        var w = JSONWriter(indent: indent)
        w.beginObject()
        w.key("point"); w.numbers(point.x, point.y)
        w.key("window"); ResultEncoder.writeRef(window, to: &w)
        w.key("hitTestView"); ResultEncoder.writeRef(view, to: &w)
        w.key("path")
        w.beginArray()
        for p in path { ResultEncoder.writeRef(p, to: &w) }
        w.endArray()
        w.key("trace")
        ResultEncoder.writeTrace(recorder, to: &w)  // writes the array brackets itself
        w.endObject()
        return w.bytes
    }
}
