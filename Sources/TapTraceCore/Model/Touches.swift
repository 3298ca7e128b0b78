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

/// One input record: becomes one UIEvent delivery (§1).
public struct TouchRecord: Sendable, Hashable {
    public var t: Double
    public var touches: [TouchChange]
    public init(t: Double, touches: [TouchChange]) { self.t = t; self.touches = touches }
}

/// Gesture shorthands of the touches document, expanded into records before dispatch.
public enum GestureShorthand: Sendable, Hashable {
    case tap(at: Point, t: Double, duration: Double?)
    case doubleTap(at: Point, t: Double, interval: Double?)
    case longPress(at: Point, t: Double, duration: Double?)
    case drag(from: Point, to: Point, t: Double, duration: Double?, steps: Int?)
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
