/// Why a touch does not reach its hit-test view (or anything at all).
public enum TouchRefusal: String, Sendable, Hashable {
    /// E3/E4: refused because of an exclusive-touch view; nothing receives it.
    case exclusiveTouch
    /// E1: the view already holds a touch and is not multiple-touch enabled; its recognizers
    /// still receive it.
    case multipleTouchDisabled
    /// SV4: the scroll view's `touchesShouldBegin:withEvent:inContentView:` answered NO.
    case touchesShouldBegin
    /// Z2: the application ignores interaction events.
    case ignoringInteractionEvents

    /// Whether recognizers still receive the touch.
    var reachesRecognizers: Bool { self == .multipleTouchDisabled || self == .touchesShouldBegin }
}

/// A phase the window holds back from the view (GV1, GV5, GV6) until the recognizers that
/// delay it fail, or drops/cancels when one recognizes.
struct WithheldPhase {
    var phase: TouchPhase
    var location: Point
    var since: Double
    /// The recognizers that held it back, for the flush note.
    var by: [String]
}

/// One finger (one `UITouch` object for its lifetime, §1).
struct TouchState {
    let id: String
    let type: TouchType
    /// n of `E<n>`: the multitouch sequence (one UIEvent object per sequence, §1).
    let event: Int
    /// Where the trace keeps the id (`TraceRecorder.touchID`).
    var traceID: Int32 = -1
    let beganTime: Double
    let beganLocation: Point
    var phase: TouchPhase
    var location: Point
    var tapCount = 1
    /// When the input ended or cancelled the touch.
    var endTime: Double?
    var window: Int?
    var view: Int?
    var refused: TouchRefusal?
    /// Runtime recognizers that receive this touch (G2, G3 order).
    var recognizers: [Int] = []
    /// T9: the recognizer whose recognition unbound the touch from its view.
    var unboundBy: Int?
    /// The view received `touchesBegan:withEvent:` for this touch.
    var deliveredBegan = false
    /// The view received `touchesEnded:` or `touchesCancelled:` (T2: exactly once).
    var viewFinished = false
    var withheld: [WithheldPhase] = []
    /// This update's phase went into `withheld` (the view pass must not deliver it again).
    var queuedThisUpdate = false

    init(id: String, type: TouchType, event: Int, time: Double, location: Point) {
        self.id = id; self.type = type; self.event = event
        beganTime = time; beganLocation = location; phase = .began; self.location = location
    }

    /// The view still takes part: bound, not refused for the view, not finished.
    var reachesView: Bool {
        view != nil && unboundBy == nil && !viewFinished && (refused == nil)
    }
}

/// An action message that was sent (result `actions`).
public struct ActionRecord: Sendable, Hashable {
    public enum Via: String, Sendable { case target, responderChain, unhandled, recognizer, keyCommand }
    public var t: Double
    public var action: String
    public var sender: String
    public var target: String?
    public var via: Via
    /// Control events fired in the step that sent it (controls).
    public var events: [ControlEvent]?
    /// The recognizer's state when it sent the action (recognizers).
    public var state: RecognizerState?

    public init(t: Double, action: String, sender: String, target: String?, via: Via, events: [ControlEvent]? = nil,
                state: RecognizerState? = nil) {
        self.t = t; self.action = action; self.sender = sender; self.target = target; self.via = via
        self.events = events; self.state = state
    }
}
