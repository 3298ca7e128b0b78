/// What a custom subclass overrides (contract §1 "overrides"). Absent = the base class runs.

/// `pointInside:withEvent:` overrides (H7).
public enum PointInsideOverride: Sendable, Hashable {
    /// The bounds inset by UIEdgeInsets (top, left, bottom, right); negative values enlarge.
    case insets(top: Double, left: Double, bottom: Double, right: Double)
    /// Inside iff in one of these rects (own coordinates).
    case rects([Rect])
    /// The ellipse inscribed in the bounds.
    case circle
    /// The default answer OR inside any visible subview (SC-13c).
    case orSubviews
    /// Always this answer.
    case returns(Bool)
}

/// `hitTest:withEvent:` overrides (H8).
public enum HitTestOverride: Sendable, Hashable {
    /// nil where super would return self (pass-through view, SC-15).
    case passThrough
    /// self whenever super returns non-nil.
    case returnsSelf
    /// That view whenever super returns non-nil.
    case redirect(String)
}

/// Whether a touch method runs the base class (`super`) or is overridden without calling super.
public enum TouchHandling: String, Sendable, Hashable {
    case superCall = "super"
    case handle
}

/// The four touch methods (T6: overriding one without super means overriding all four, so each
/// is stated).
public struct TouchOverrides: Sendable, Hashable {
    public var began: TouchHandling
    public var moved: TouchHandling
    public var ended: TouchHandling
    public var cancelled: TouchHandling
    /// True when the scene wrote the per-method form rather than a single word.
    public var perMethod: Bool

    public init(all: TouchHandling) {
        began = all; moved = all; ended = all; cancelled = all; perMethod = false
    }
    public init(began: TouchHandling, moved: TouchHandling, ended: TouchHandling, cancelled: TouchHandling) {
        self.began = began; self.moved = moved; self.ended = ended; self.cancelled = cancelled; perMethod = true
    }
    public static let inherited = TouchOverrides(all: .superCall)

    public subscript(phase: TouchPhase) -> TouchHandling {
        switch phase {
        case .began: return began
        case .moved, .stationary: return moved
        case .ended: return ended
        case .cancelled: return cancelled
        }
    }
}

/// The four press methods (P1, P3), as the touch methods: `handle` consumes, `super` forwards.
/// With `only`, a set of presses is consumed when one of them matches a name (a press type, a
/// key's `charactersIgnoringModifiers` or its `keyCode`) and forwarded whole otherwise.
public struct PressOverrides: Sendable, Hashable {
    public var began: TouchHandling
    public var changed: TouchHandling
    public var ended: TouchHandling
    public var cancelled: TouchHandling
    public var only: [String]?
    /// True when the scene wrote the per-method form rather than a single word.
    public var perMethod: Bool

    public init(all: TouchHandling) {
        began = all; changed = all; ended = all; cancelled = all; perMethod = false
    }
    public init(began: TouchHandling, changed: TouchHandling, ended: TouchHandling, cancelled: TouchHandling,
                only: [String]? = nil) {
        self.began = began; self.changed = changed; self.ended = ended; self.cancelled = cancelled
        self.only = only; perMethod = true
    }

    public subscript(phase: PressPhase) -> TouchHandling {
        switch phase {
        case .began: return began
        case .changed, .stationary: return changed
        case .ended: return ended
        case .cancelled: return cancelled
        }
    }
}

/// The three motion methods (M2).
public struct MotionOverrides: Sendable, Hashable {
    public var began: TouchHandling
    public var ended: TouchHandling
    public var cancelled: TouchHandling
    public var perMethod: Bool

    public init(all: TouchHandling) { began = all; ended = all; cancelled = all; perMethod = false }
    public init(began: TouchHandling, ended: TouchHandling, cancelled: TouchHandling) {
        self.began = began; self.ended = ended; self.cancelled = cancelled; perMethod = true
    }

    public subscript(phase: MotionPhase) -> TouchHandling {
        switch phase {
        case .began: return began
        case .ended: return ended
        case .cancelled: return cancelled
        }
    }
}

/// `remoteControlReceivedWithEvent:` (RC2): handled, forwarded, or handled only for the listed
/// subtypes.
public struct RemoteControlOverride: Sendable, Hashable {
    public var handling: TouchHandling
    public var only: [RemoteControlSubtype]?
    public init(handling: TouchHandling, only: [RemoteControlSubtype]? = nil) {
        self.handling = handling; self.only = only
    }

    public func handles(_ subtype: RemoteControlSubtype) -> Bool {
        if let only { return only.contains(subtype) }
        return handling == .handle
    }
}

/// UIView's `gestureRecognizerShouldBegin:` override (GS7).
public struct ShouldBeginOverride: Sendable, Hashable {
    public var defaultAnswer: Bool
    public var byRecognizer: [String: Bool]
    public init(defaultAnswer: Bool, byRecognizer: [String: Bool] = [:]) {
        self.defaultAnswer = defaultAnswer; self.byRecognizer = byRecognizer
    }
    public func answer(for recognizer: String) -> Bool { byRecognizer[recognizer] ?? defaultAnswer }
}

public struct ViewOverrides: Sendable, Hashable {
    public var pointInside: PointInsideOverride?
    public var hitTest: HitTestOverride?
    public var nextResponder: String?
    public var touches: TouchOverrides?
    public var gestureRecognizerShouldBegin: ShouldBeginOverride?
    public var beginTracking: Bool?
    public var continueTracking: Bool?
    public var touchesShouldBegin: Bool?
    public var touchesShouldCancel: Bool?
    /// `canPerformAction:withSender:` answers by selector (A4); an addition to the contract.
    public var canPerformAction: [String: Bool]?
    public var presses: PressOverrides?
    public var motion: MotionOverrides?
    public var remoteControl: RemoteControlOverride?
    public init() {}
}

/// Overrides a non-view responder (view controller, application, app delegate) may declare.
public struct ResponderOverrides: Sendable, Hashable {
    public var touches: TouchOverrides?
    public var nextResponder: String?
    public var canPerformAction: [String: Bool]?
    public var presses: PressOverrides?
    public var motion: MotionOverrides?
    public var remoteControl: RemoteControlOverride?
    public init() {}
}
