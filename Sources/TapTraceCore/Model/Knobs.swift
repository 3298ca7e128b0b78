/// Configuration values for what Apple leaves undocumented or disputed (rules §7, contract §5).
/// Every result echoes the effective values.
public enum KnobValue: Sendable, Hashable {
    case number(Double)
    case bool(Bool)
    case string(String)
}

/// GV3 / §4 item 1: whether a recognizer's first action comes before or after the view's
/// `touchesCancelled:withEvent:`.
public enum CancelTiming: String, Sendable, CaseIterable {
    case beforeAction, afterAction
}

/// A3 / §4 item 8: where a nil-targeted action starts walking.
public enum NilTargetStart: String, Sendable, CaseIterable {
    case focusedElseSender, senderOnly, focusedOnly
}

/// N3 / §4 item 21: where a non-touch event starts when the key window has no first responder.
public enum KeyResponderFallback: String, Sendable, CaseIterable {
    case deepestViewController, keyWindow
}

/// KC1 / §4 item 22: where the keyboard's text input and key commands run.
public enum KeyboardPipeline: String, Sendable, CaseIterable {
    case atApplication, beforeResponders
}

/// KC3 / §4 item 20: which of several matching key commands runs.
public enum KeyCommandPrecedence: String, Sendable, CaseIterable {
    case nearest, farthest
}

/// F3 / §4 item 19: whether `becomeFirstResponder` asks `canBecomeFirstResponder` before the
/// old first responder resigns.
public enum BecomeOrder: String, Sendable, CaseIterable {
    case canBecomeFirst, resignFirst
}

public struct Knobs: Sendable, Hashable {
    public var cancelTiming = CancelTiming.afterAction        // contract §5 (rules default: beforeAction)
    public var hitTestPasses = 1                              // H12
    public var alphaThreshold = 0.01                          // H3
    public var controlTrackingSlop = 70.0                     // K3
    public var touchDownRequiresTracking = true               // K2
    public var panHysteresis = 10.0                           // GP5
    public var longPressMinimumDuration = 0.5                 // GP1
    public var longPressAllowableMovement = 10.0              // GP2
    public var tapMaxInterval = 0.35                          // GP10
    public var tapMaxDuration = 0.75                          // GP11
    public var tapAllowableMovement = 45.0                    // GP12
    public var tapCountInterval = 0.35                        // T10
    public var tapCountDistance = 45.0                        // T10
    public var swipeMinimumDistance = 50.0                    // GP (docs/decisions.md)
    public var swipeMaximumDeviation = 50.0                   // GP (docs/decisions.md)
    public var swipeMaximumDuration = 0.5                     // GP (docs/decisions.md)
    public var pinchHysteresis = 8.0                          // GP (docs/decisions.md)
    public var rotationHysteresis = 0.0873                    // GP (docs/decisions.md), radians
    public var screenEdgeMargin = 20.0                        // GP (docs/decisions.md)
    public var scrollDelay = 0.15                             // GP13, SV2
    public var askViewsOnlyWhenCancelling = true              // GS7
    public var askGRViewShouldBegin = false                   // GS7
    public var nilTargetStart = NilTargetStart.focusedElseSender // A3
    public var nilTargetUsesCanPerformAction = false          // A4
    public var includeWindowScene = false                     // R6
    public var drainLimit = 5.0                               // Q6
    // Non-touch events (rules §3.17–3.23); echoed only by runs that have such events.
    public var keyResponderFallback = KeyResponderFallback.deepestViewController  // N3
    public var keyboardPipeline = KeyboardPipeline.atApplication                  // KC1
    public var keyCommandPrecedence = KeyCommandPrecedence.nearest                // KC3
    public var becomeOrder = BecomeOrder.canBecomeFirst                           // F3
    public var resignPassesToAncestor = true                                      // F4
    public var motionReachesAppDelegate = true                                    // M3
    public var arrivalPreamble = false                                            // EA1

    public init() {}

    /// The knobs of non-touch events, in the order results list them after `names`: a result
    /// lists them only when its run has a press, motion, remote-control or responder record,
    /// so that every touch-only result stays as it was (contract §2.1).
    public static let eventNames: [String] = [
        "keyResponderFallback", "keyboardPipeline", "keyCommandPrecedence", "becomeOrder",
        "resignPassesToAncestor", "motionReachesAppDelegate", "arrivalPreamble",
    ]

    /// Every knob name: touch knobs, then the non-touch ones.
    public static let allNames: [String] = names + eventNames

    /// The non-touch knobs' values in `eventNames` order.
    public var eventOrderedValues: [KnobValue] {
        [
            .string(keyResponderFallback.rawValue),
            .string(keyboardPipeline.rawValue),
            .string(keyCommandPrecedence.rawValue),
            .string(becomeOrder.rawValue),
            .bool(resignPassesToAncestor),
            .bool(motionReachesAppDelegate),
            .bool(arrivalPreamble),
        ]
    }

    /// Knob names in the order results list them.
    public static let names: [String] = [
        "cancelTiming", "hitTestPasses", "alphaThreshold", "controlTrackingSlop",
        "touchDownRequiresTracking", "panHysteresis", "longPressMinimumDuration",
        "longPressAllowableMovement", "tapMaxInterval", "tapMaxDuration", "tapAllowableMovement",
        "tapCountInterval", "tapCountDistance", "swipeMinimumDistance", "swipeMaximumDeviation",
        "swipeMaximumDuration", "pinchHysteresis", "rotationHysteresis", "screenEdgeMargin",
        "scrollDelay", "askViewsOnlyWhenCancelling", "askGRViewShouldBegin", "nilTargetStart",
        "nilTargetUsesCanPerformAction", "includeWindowScene", "drainLimit",
    ]

    /// Every knob's value in `names` order (the one list of them; `value(of:)` looks names up
    /// here). Results list all knobs, and matching 26 names one by one cost more than the rest
    /// of the knobs object.
    public var orderedValues: [KnobValue] {
        [
            .string(cancelTiming.rawValue),
            .number(Double(hitTestPasses)),
            .number(alphaThreshold),
            .number(controlTrackingSlop),
            .bool(touchDownRequiresTracking),
            .number(panHysteresis),
            .number(longPressMinimumDuration),
            .number(longPressAllowableMovement),
            .number(tapMaxInterval),
            .number(tapMaxDuration),
            .number(tapAllowableMovement),
            .number(tapCountInterval),
            .number(tapCountDistance),
            .number(swipeMinimumDistance),
            .number(swipeMaximumDeviation),
            .number(swipeMaximumDuration),
            .number(pinchHysteresis),
            .number(rotationHysteresis),
            .number(screenEdgeMargin),
            .number(scrollDelay),
            .bool(askViewsOnlyWhenCancelling),
            .bool(askGRViewShouldBegin),
            .string(nilTargetStart.rawValue),
            .bool(nilTargetUsesCanPerformAction),
            .bool(includeWindowScene),
            .number(drainLimit),
        ]
    }

    public func value(of name: String) -> KnobValue? {
        if let k = Knobs.names.firstIndex(of: name) { return orderedValues[k] }
        return Knobs.eventNames.firstIndex(of: name).map { eventOrderedValues[$0] }
    }

    /// Sets a knob; returns what is wrong with the value, or nil when it was accepted.
    public mutating func set(_ name: String, _ value: KnobValue) -> String? {
        func number(_ range: ClosedRange<Double> = 0...Double.greatestFiniteMagnitude) -> Double? {
            if case .number(let n) = value, n.isFinite, range.contains(n) { return n }
            return nil
        }
        func flag() -> Bool? {
            if case .bool(let b) = value { return b }
            return nil
        }
        func word<E: RawRepresentable & CaseIterable>(_: E.Type) -> E? where E.RawValue == String {
            if case .string(let s) = value { return E(rawValue: s) }
            return nil
        }
        func wordChoices<E: RawRepresentable & CaseIterable>(_: E.Type) -> String where E.RawValue == String {
            "must be one of " + E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        }
        let nonNegative = "must be a finite number ≥ 0"
        let boolean = "must be true or false"
        switch name {
        case "cancelTiming":
            guard let v = word(CancelTiming.self) else { return wordChoices(CancelTiming.self) }
            cancelTiming = v
        case "hitTestPasses":
            guard let n = number(1...2), n == n.rounded() else { return "must be 1 or 2" }
            hitTestPasses = Int(n)
        case "alphaThreshold":
            guard let n = number(0...1) else { return "must be a number in 0...1" }
            alphaThreshold = n
        case "touchDownRequiresTracking":
            guard let b = flag() else { return boolean }
            touchDownRequiresTracking = b
        case "askViewsOnlyWhenCancelling":
            guard let b = flag() else { return boolean }
            askViewsOnlyWhenCancelling = b
        case "askGRViewShouldBegin":
            guard let b = flag() else { return boolean }
            askGRViewShouldBegin = b
        case "nilTargetStart":
            guard let v = word(NilTargetStart.self) else { return wordChoices(NilTargetStart.self) }
            nilTargetStart = v
        case "nilTargetUsesCanPerformAction":
            guard let b = flag() else { return boolean }
            nilTargetUsesCanPerformAction = b
        case "includeWindowScene":
            guard let b = flag() else { return boolean }
            includeWindowScene = b
        case "keyResponderFallback":
            guard let v = word(KeyResponderFallback.self) else { return wordChoices(KeyResponderFallback.self) }
            keyResponderFallback = v
        case "keyboardPipeline":
            guard let v = word(KeyboardPipeline.self) else { return wordChoices(KeyboardPipeline.self) }
            keyboardPipeline = v
        case "keyCommandPrecedence":
            guard let v = word(KeyCommandPrecedence.self) else { return wordChoices(KeyCommandPrecedence.self) }
            keyCommandPrecedence = v
        case "becomeOrder":
            guard let v = word(BecomeOrder.self) else { return wordChoices(BecomeOrder.self) }
            becomeOrder = v
        case "resignPassesToAncestor":
            guard let b = flag() else { return boolean }
            resignPassesToAncestor = b
        case "motionReachesAppDelegate":
            guard let b = flag() else { return boolean }
            motionReachesAppDelegate = b
        case "arrivalPreamble":
            guard let b = flag() else { return boolean }
            arrivalPreamble = b
        default:
            guard Knobs.names.contains(name) else {
                return "unknown knob (known: \(Knobs.allNames.joined(separator: ", ")))"
            }
            guard let n = number() else { return nonNegative }
            switch name {
            case "controlTrackingSlop": controlTrackingSlop = n
            case "panHysteresis": panHysteresis = n
            case "longPressMinimumDuration": longPressMinimumDuration = n
            case "longPressAllowableMovement": longPressAllowableMovement = n
            case "tapMaxInterval": tapMaxInterval = n
            case "tapMaxDuration": tapMaxDuration = n
            case "tapAllowableMovement": tapAllowableMovement = n
            case "tapCountInterval": tapCountInterval = n
            case "tapCountDistance": tapCountDistance = n
            case "swipeMinimumDistance": swipeMinimumDistance = n
            case "swipeMaximumDeviation": swipeMaximumDeviation = n
            case "swipeMaximumDuration": swipeMaximumDuration = n
            case "pinchHysteresis": pinchHysteresis = n
            case "rotationHysteresis": rotationHysteresis = n
            case "screenEdgeMargin": screenEdgeMargin = n
            case "scrollDelay": scrollDelay = n
            case "drainLimit": drainLimit = n
            default: return "unknown knob"
            }
        }
        return nil
    }

    /// These knobs with `overrides` applied in order (later wins).
    public func applying(_ overrides: KnobOverrides...) -> Knobs {
        var k = self
        for o in overrides {
            for (name, value) in o.values { _ = k.set(name, value) }
        }
        return k
    }
}

/// Knob values given by a scene or a request, in the order given.
public struct KnobOverrides: Sendable, Hashable {
    public var values: [(String, KnobValue)]
    public init(_ values: [(String, KnobValue)] = []) { self.values = values }
    public var isEmpty: Bool { values.isEmpty }

    public static func == (l: KnobOverrides, r: KnobOverrides) -> Bool {
        l.values.count == r.values.count && zip(l.values, r.values).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }
    public func hash(into h: inout Hasher) {
        for (k, v) in values { h.combine(k); h.combine(v) }
    }
}
