/// `UITouch.Phase` (A-touch).
public enum TouchPhase: String, Sendable, Hashable, CaseIterable {
    case began, moved, stationary, ended, cancelled

    /// T4: phases are delivered in this order within one update.
    var deliveryOrder: Int {
        switch self {
        case .began: return 0
        case .moved, .stationary: return 1
        case .ended: return 2
        case .cancelled: return 3
        }
    }
    public var isTerminal: Bool { self == .ended || self == .cancelled }
}

/// `UITouch.TouchType`, modelled only for G9 (`requiresExclusiveTouchType`).
public enum TouchType: String, Sendable, Hashable, CaseIterable {
    case direct, pencil, indirect
}

/// One finger's change in an input record.
public struct TouchChange: Sendable, Hashable {
    public var id: String
    public var phase: TouchPhase
    /// Screen coordinates. nil only for `cancelled`, which keeps the last location.
    public var at: Point?
    public var type: TouchType?
    public init(id: String, phase: TouchPhase, at: Point?, type: TouchType? = nil) {
        self.id = id; self.phase = phase; self.at = at; self.type = type
    }
}

/// One input record: becomes one UIEvent delivery (§1), or, with `nonTouch`, a press, motion or
/// remote-control event or a first-responder call (§2.1; then `touches` is empty).
public struct TouchRecord: Sendable, Hashable {
    public var t: Double
    public var touches: [TouchChange]
    public var nonTouch: NonTouchEvent?
    public init(t: Double, touches: [TouchChange], nonTouch: NonTouchEvent? = nil) {
        self.t = t; self.touches = touches; self.nonTouch = nonTouch
    }
}

/// Where a gesture touches: a screen point, or an element of the scene named by a view id, else
/// an `accessibilityIdentifier`, else a `label` (`{"view": "buyButton"}`), whose frame's centre on
/// screen is touched (`ElementTargets` resolves it against the scene before dispatch).
public enum TouchTarget: Sendable, Hashable {
    case point(Point)
    case view(String)

    public var point: Point? { if case .point(let p) = self { return p } else { return nil } }
    public var element: String? { if case .view(let name) = self { return name } else { return nil } }
}

/// Gesture shorthands of the touches document, expanded into records before dispatch. A nil `t`
/// starts the gesture `TouchSequenceValidator.defaultGap` after the previous gesture (in document
/// order) ends; the first at 0.
public enum GestureShorthand: Sendable, Hashable {
    case tap(at: TouchTarget, t: Double?, duration: Double?)
    case doubleTap(at: TouchTarget, t: Double?, interval: Double?)
    case longPress(at: TouchTarget, t: Double?, duration: Double?)
    case drag(from: TouchTarget, to: TouchTarget, t: Double?, duration: Double?, steps: Int?)

    /// The start time as written (nil: after the previous gesture).
    public var t: Double? {
        switch self {
        case let .tap(_, t, _), let .doubleTap(_, t, _), let .longPress(_, t, _), let .drag(_, _, t, _, _): return t
        }
    }

    /// The targets in document order (a drag's `from`, then its `to`).
    public var targets: [TouchTarget] {
        switch self {
        case let .tap(p, _, _), let .doubleTap(p, _, _), let .longPress(p, _, _): return [p]
        case let .drag(from, to, _, _, _): return [from, to]
        }
    }
}

/// A touches document (`taptrace/touches@1`).
public struct TouchSequence: Sendable, Hashable {
    public static let format = "taptrace/touches@1"
    public var events: [TouchRecord]
    public var gestures: [GestureShorthand]
    /// Q6: keep running timers up to this time.
    public var until: Double?
    public init(events: [TouchRecord] = [], gestures: [GestureShorthand] = [], until: Double? = nil) {
        self.events = events; self.gestures = gestures; self.until = until
    }

    /// Whether a record is a press, motion, remote-control or first-responder record: then
    /// the result carries the non-touch summaries (contract §2.1).
    public var hasNonTouchEvents: Bool { events.contains { $0.nonTouch != nil } }

    /// Whether a gesture names an element (`{"view": …}`) instead of a point: its records then
    /// depend on the scene (`ElementTargets.resolve`).
    public var hasElementTargets: Bool {
        gestures.contains { g in
            switch g {
            case let .tap(p, _, _), let .doubleTap(p, _, _), let .longPress(p, _, _): return p.element != nil
            case let .drag(from, to, _, _, _): return from.element != nil || to.element != nil
            }
        }
    }
}

/// The request of `taptrace dispatch` and `POST /v1/dispatch`.
public struct DispatchRequest: Sendable, Hashable {
    public var scene: Scene
    public var touches: TouchSequence
    public var knobs: KnobOverrides
    public init(scene: Scene, touches: TouchSequence, knobs: KnobOverrides = KnobOverrides()) {
        self.scene = scene; self.touches = touches; self.knobs = knobs
    }
}
