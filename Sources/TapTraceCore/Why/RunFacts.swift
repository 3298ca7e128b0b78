/// What the why questions read about one run: the scene, the result, its trace indexed, and each
/// touch as the input gave it. Only what the run recorded; nothing is dispatched again.
struct RunFacts {
    /// A finger of the input: where and when it began and how it ended, with its summary.
    struct Touch {
        let id: String
        let began: Double
        /// Screen coordinates where it began.
        let at: Point
        var last: Point
        var end: Double?
        var endPhase: TouchPhase?
        var summary: DispatchResult.TouchSummary?
    }

    let index: SceneIndex
    let result: DispatchResult
    let trace: TraceIndex
    let touches: [Touch]

    init(index: SceneIndex, result: DispatchResult) {
        self.index = index
        self.result = result
        trace = TraceIndex(result.trace)
        var touches: [Touch] = []
        var byId: [String: Int] = [:]
        for record in result.input {
            for c in record.touches {
                if c.phase == .began {
                    let p = c.at ?? .zero
                    touches.append(Touch(id: c.id, began: record.t, at: p, last: p))
                    byId[c.id] = touches.count - 1
                } else if let k = byId[c.id] {
                    if let p = c.at { touches[k].last = p }
                    if c.phase.isTerminal { touches[k].end = record.t; touches[k].endPhase = c.phase }
                }
            }
        }
        // The result lists its touches in the order they began, as the input does.
        for k in touches.indices where k < result.touches.count && result.touches[k].id == touches[k].id {
            touches[k].summary = result.touches[k]
        }
        self.touches = touches
    }

    var knobs: Knobs { result.knobs }

    /// The run's knobs as overrides of the scene's (for `Explainer`, which applies them to the
    /// index's).
    var knobOverrides: KnobOverrides {
        KnobOverrides(Array(zip(Knobs.names, knobs.orderedValues)) + Array(zip(Knobs.eventNames, knobs.eventOrderedValues)))
    }

    func touch(_ id: String) -> Touch? { touches.first { $0.id == id } }

    // MARK: objects

    func name(_ v: Int) -> String { index.view(v).id }

    /// The view the touch was hit-tested to.
    func hitView(_ t: Touch) -> Int? { t.summary?.hitTestView.flatMap { index.view(withId: $0) } }

    /// Whether view `v` is `ancestor` or inside it.
    func isInside(_ v: Int, _ ancestor: Int) -> Bool { index.isDescendant(v, of: ancestor) }

    // MARK: entries about a touch

    /// The window hit-tests of a touch (W1, H1): the outermost `hitTest:withEvent:` calls at the
    /// time it began whose point is the touch's, in each window's coordinates (several windows
    /// front to back; twice with H12's second pass).
    func hitTestCalls(_ t: Touch) -> [Int] {
        var out: [Int] = []
        for i in trace.entries.indices {
            let e = trace[i]
            guard e.parent == nil, e.kind == .call, e.selector == "hitTest:withEvent:", e.t == t.began,
                  let w = e.receiver.flatMap({ index.view(withId: $0.id) }), case .point(let p)? = e.arg("point") else { continue }
            let expected = index.geometry[w].convertFromSuperview(t.at)
            if abs(expected.x - p.x) < 1e-9, abs(expected.y - p.y) < 1e-9 { out.append(i) }
        }
        return out
    }

    /// Within a touch's hit-tests, the calls made on view `id` (`hitTest:` and `pointInside:`)
    /// of the last pass.
    func hitTestCalls(on id: String, _ t: Touch) -> [Int] {
        var out: [Int] = []
        var pass = 0.0
        for root in hitTestCalls(t) {
            var rootPass = 1.0
            if case .number(let n)? = trace[root].arg("pass") { rootPass = n }
            if rootPass != pass { out = []; pass = rootPass }
            for j in root..<subtreeEnd(root) where trace[j].receiver?.id == id { out.append(j) }
        }
        return out
    }

    /// The index after the last entry nested in `i`.
    func subtreeEnd(_ i: Int) -> Int {
        var j = i + 1
        while j < trace.count, trace[j].depth > trace[i].depth { j += 1 }
        return j
    }

    /// The marker of a kind about a touch (its `touch` argument), in order.
    func markers(_ kind: MarkerKind, touch id: String) -> [Int] {
        trace.markers(kind).filter { trace[$0].touchIDs.contains(id) }
    }

    // MARK: recognizers

    /// The state entry in which recognizer `id` began or recognized, the last before `i`.
    func recognition(of id: String, before i: Int) -> Int? {
        trace.states(of: id).last { $0 < i && trace[$0].from == .possible && (trace[$0].to?.hasRecognized ?? false) }
    }

    /// The state entry in which recognizer `id` failed, the last before `i`.
    func failure(of id: String, before i: Int) -> Int? {
        trace.states(of: id).last { $0 < i && trace[$0].to == .failed }
    }

    func recognizerInfo(_ id: String) -> RecognizerInfo? { index.recognizer(withId: id).map { index.recognizers[$0] } }

    // MARK: text

    static func time(_ t: Double) -> String { "t=" + NumberText.format(t) }
    static func point(_ p: Point) -> String { "(\(NumberText.format(p.x)), \(NumberText.format(p.y)))" }
    static func number(_ x: Double) -> String { NumberText.format(x) }

    /// `a, b and c`.
    static func list(_ items: [String]) -> String {
        switch items.count {
        case 0: return ""
        case 1: return items[0]
        default: return items.dropLast().joined(separator: ", ") + " and " + items.last!
        }
    }

    /// The selector part of a touch method for prose: `touchesBegan:`.
    static func method(_ phase: TouchPhase) -> String {
        switch phase {
        case .began: return "touchesBegan:"
        case .moved, .stationary: return "touchesMoved:"
        case .ended: return "touchesEnded:"
        case .cancelled: return "touchesCancelled:"
        }
    }
}
