/// Who received a call, or what a marker or state change is about.
public struct ObjectRef: Sendable, Hashable {
    public var id: String
    public var className: String
    public init(id: String, className: String) { self.id = id; self.className = className }
}

/// A touch as a call shows it: its id and phase in this call, and where it is (§5.2).
public struct TouchSnapshot: Sendable, Hashable {
    public var id: String
    public var phase: TouchPhase
    public var tapCount: Int
    public var inWindow: Point
    /// In the receiver's bounds coordinates (for recognizers: their view's); nil for receivers
    /// that are not views (controllers, the application).
    public var inReceiver: Point?

    public init(id: String, phase: TouchPhase, tapCount: Int, inWindow: Point, inReceiver: Point?) {
        self.id = id; self.phase = phase; self.tapCount = tapCount; self.inWindow = inWindow; self.inReceiver = inReceiver
    }
}

/// A press as a call shows it (§5.2): `{id, phase, type, key}`, the key as `UIKey` reports it.
public struct PressSnapshot: Sendable, Hashable {
    public var id: String
    public var phase: PressPhase
    public var type: PressType
    public var key: KeyInput?
    public init(id: String, phase: PressPhase, type: PressType, key: KeyInput?) {
        self.id = id; self.phase = phase; self.type = type; self.key = key
    }
}

/// Values of call arguments and results.
public enum TraceValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case point(Point)
    case object(ObjectRef)
    case touches([TouchSnapshot])
    case strings([String])
    case objects([ObjectRef])
    case presses([PressSnapshot])
}

public struct TraceArg: Sendable, Hashable {
    public var name: String
    public var value: TraceValue
    public init(_ name: String, _ value: TraceValue) { self.name = name; self.value = value }
}

/// The arguments of an entry. The first two are stored inline: nearly every call has one or
/// two (`hitTest:withEvent:` a point and the event), and a run records thousands of entries,
/// so an array allocation per entry would dominate a tap's cost (docs/performance.md).
public struct TraceArgs: Sendable, Hashable, RandomAccessCollection, ExpressibleByArrayLiteral {
    var first: TraceArg?
    var second: TraceArg?
    var more: [TraceArg] = []

    public init() {}
    /// By position and always inlined: the literal's array then stays on the stack instead of
    /// being allocated and freed per entry.
    @inline(__always)
    public init(arrayLiteral elements: TraceArg...) {
        let n = elements.count
        if n > 0 { first = elements[0] }
        if n > 1 { second = elements[1] }
        if n > 2 { more = Array(elements[2...]) }
    }
    public init(_ elements: [TraceArg]) { for e in elements { append(e) } }

    public var startIndex: Int { 0 }
    public var endIndex: Int { second == nil ? (first == nil ? 0 : 1) : 2 + more.count }
    public subscript(i: Int) -> TraceArg {
        switch i {
        case 0: return first!
        case 1: return second!
        default: return more[i - 2]
        }
    }

    public mutating func append(_ arg: TraceArg) {
        if first == nil { first = arg } else if second == nil { second = arg } else { more.append(arg) }
    }
}

/// `cause` of an entry: the input record, or a recognizer's timer (Q3).
public enum TraceCause: Sendable, Hashable {
    case input
    case timer(String)
    public var text: String {
        switch self {
        case .input: return "input"
        case .timer(let id): return "timer:" + id
        }
    }
}

/// `UIGestureRecognizer.State` (GS1). `.recognized` is `.ended` (raw value 3).
public enum RecognizerState: String, Sendable, Hashable {
    case possible, began, changed, ended, cancelled, failed
    public var isTerminal: Bool { self == .ended || self == .cancelled || self == .failed }
    /// Began or recognized: the recognizer has "recognized" in the GV sense (GV9).
    public var hasRecognized: Bool { self == .began || self == .changed || self == .ended }
}

/// Marker kinds (§5.2): no UIKit call happens; they explain the trace. `control` is an addition:
/// a control's highlight, inside test and fired events (SC-02's `[control]` lines).
public enum MarkerKind: String, Sendable, Hashable {
    case collect, gate, withhold, flush, drop, pending, chainWalk, hitTestPass, sequenceEnd, timer, control
    // Non-touch events (§5.2; N4, N5, KC5, F3, F4, M3, EA1).
    case keyResponder, keyboard, keyCommand, textInput, firstResponder, unhandled, shakeToEdit, arrival
}

public struct TraceEntry: Sendable, Hashable {
    public enum Kind: String, Sendable { case call, state, marker }

    public var seq: Int
    public var t: Double
    public var cause: TraceCause
    public var kind: Kind
    public var receiver: ObjectRef?
    /// Objective-C selector of a call (the Swift spelling is derived, `SelectorNames`).
    public var selector: String?
    public var args: TraceArgs
    /// Result of a call; nil for void methods (written as JSON null).
    public var result: TraceValue?
    public var depth: Int
    public var parent: Int?
    public var note: String?
    // state entries
    public var from: RecognizerState?
    public var to: RecognizerState?
    public var reason: String?
    public var discrete = false
    // marker entries
    public var marker: MarkerKind?

    public init(seq: Int, t: Double, cause: TraceCause, kind: Kind, depth: Int, parent: Int?) {
        self.seq = seq; self.t = t; self.cause = cause; self.kind = kind
        self.depth = depth; self.parent = parent; self.args = TraceArgs()
    }
}
