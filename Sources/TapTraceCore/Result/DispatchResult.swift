/// The result document (`taptrace/result@1`, contract §3).
public struct DispatchResult: Sendable {
    public static let format = "taptrace/result@1"

    public struct ChainLink: Sendable, Hashable {
        public var ref: ObjectRef
        /// view, viewController, window, windowScene, application, appDelegate; `cycle` marks
        /// where a cycle of nextResponder overrides would have repeated (R7).
        public var role: String
    }

    public struct TouchSummary: Sendable, Hashable {
        public var id: String
        public var window: String?
        public var hitTestView: String?
        public var recognizers: [String]
        public var refused: TouchRefusal?
        public var finalPhase: TouchPhase
        /// T9: the recognizer whose recognition cancelled the touch in its view (an addition).
        public var cancelledBy: String?
    }

    public struct RecognizerSummary: Sendable, Hashable {
        public var id: String
        public var className: String
        public var view: String
        public var states: [RecognizerState]
    }

    public var firstResponder: ObjectRef?
    public var responderChain: [ChainLink]
    public var touches: [TouchSummary]
    public var recognizers: [RecognizerSummary]
    public var actions: [ActionRecord]
    /// The trace in its compact recorded form (`ResultEncoder` writes it directly).
    public var recorder: TraceRecorder
    /// Every trace entry, built on demand from `recorder`.
    public var trace: [TraceEntry] { recorder.entries }
    public var knobs: Knobs
    /// The touch sequence as dispatched: gestures expanded, records merged by time.
    public var input: [TouchRecord]
    public var until: Double?
    /// The scene's own knobs and their JSON (`KnobsJSON`), for the encoder.
    var sceneKnobs: KnobsJSON?
}

extension DispatchRun {
    func result(input: [TouchRecord], until: Double?) -> DispatchResult {
        var first: ObjectRef?
        var chain: [DispatchResult.ChainLink] = []
        if let t = touches.first, let v = t.view {
            first = index.ref(view: v)
            let (responders, cycle) = index.responderChain(from: .view(v), includeWindowScene: knobs.includeWindowScene)
            chain = responders.map { .init(ref: index.ref($0), role: index.role($0)) }
            if let cycle { chain.append(.init(ref: index.ref(cycle), role: "cycle")) }
        }
        let touchSummaries = touches.map { t in
            DispatchResult.TouchSummary(
                id: t.id, window: t.window.map { index.view($0).id }, hitTestView: t.view.map { index.view($0).id },
                recognizers: t.recognizers.map { info($0).id }, refused: t.refused, finalPhase: t.phase,
                cancelledBy: t.unboundBy.map { info($0).id })
        }
        let recognizerSummaries = recognizers.indices.map { g in
            DispatchResult.RecognizerSummary(id: info(g).id, className: info(g).className,
                                             view: index.view(info(g).view).id, states: recognizers[g].history)
        }
        return DispatchResult(firstResponder: first, responderChain: chain, touches: touchSummaries,
                              recognizers: recognizerSummaries, actions: actions, recorder: trace,
                              knobs: knobs, input: input, until: until, sceneKnobs: index.sceneKnobs)
    }
}
