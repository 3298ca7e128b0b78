/// The result document (`taptrace/result@1`, contract §3).
public struct DispatchResult: Sendable {
    public static let format = "taptrace/result@1"

    public struct ChainLink: Sendable, Hashable {
        public var ref: ObjectRef
        /// view, viewController, window, windowScene, application, appDelegate; `cycle` marks
        /// where a cycle of nextResponder overrides would have repeated (R7).
        public var role: String
        public init(ref: ObjectRef, role: String) { self.ref = ref; self.role = role }
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
        public init(id: String, window: String?, hitTestView: String?, recognizers: [String], refused: TouchRefusal?,
                    finalPhase: TouchPhase, cancelledBy: String?) {
            self.id = id; self.window = window; self.hitTestView = hitTestView; self.recognizers = recognizers
            self.refused = refused; self.finalPhase = finalPhase; self.cancelledBy = cancelledBy
        }
    }

    public struct RecognizerSummary: Sendable, Hashable {
        public var id: String
        public var className: String
        public var view: String
        public var states: [RecognizerState]
        public init(id: String, className: String, view: String, states: [RecognizerState]) {
            self.id = id; self.className = className; self.view = view; self.states = states
        }
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
    /// One check per element target of the touches (`{"tap": {"view": …}}`), in gesture order;
    /// empty (and not written) when no gesture names an element.
    public var elements: [ElementCheck] = []
    /// The non-touch summaries and knobs (contract §2.1); nil (and not written) when the run
    /// had no press, motion, remote-control or responder record.
    public var nonTouch: NonTouchSummary?
    /// What the scene declares that is legal but will not work (`SceneValidator.warnings`),
    /// with pointers into the scene document; empty (and not written) for most scenes.
    public var warnings: [ValidationIssue] = []

    public init(firstResponder: ObjectRef?, responderChain: [ChainLink], touches: [TouchSummary],
                recognizers: [RecognizerSummary], actions: [ActionRecord], recorder: TraceRecorder, knobs: Knobs,
                input: [TouchRecord], until: Double?) {
        self.firstResponder = firstResponder; self.responderChain = responderChain; self.touches = touches
        self.recognizers = recognizers; self.actions = actions; self.recorder = recorder; self.knobs = knobs
        self.input = input; self.until = until
    }
}
