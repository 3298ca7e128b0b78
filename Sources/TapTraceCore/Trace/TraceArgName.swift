/// The names of trace arguments the engine records (§5.2), by case: a record stores one byte
/// instead of a `String`, and the encoder copies each name's `"name":` from a table escaped once
/// per process instead of escaping it for every argument of every entry.
package enum TraceArgName: UInt8, CaseIterable, Sendable {
    case point, event, pass
    case touches, touch, phase, phases
    case gestureRecognizer, otherGestureRecognizer, contentView, view, window, recognizers
    case reason, waitingFor, by, reset
    case action, kind, deadline
    case target, sender, implements
    case highlighted, inside, events
    // Non-touch events (§5.2).
    case presses, subtype, source, stage, searched, match, shadowed, taken, from, to, illustrative, text, responder

    /// The name as written.
    var text: String {
        switch self {
        case .point: "point"
        case .event: "event"
        case .pass: "pass"
        case .touches: "touches"
        case .touch: "touch"
        case .phase: "phase"
        case .phases: "phases"
        case .gestureRecognizer: "gestureRecognizer"
        case .otherGestureRecognizer: "otherGestureRecognizer"
        case .contentView: "contentView"
        case .view: "view"
        case .window: "window"
        case .recognizers: "recognizers"
        case .reason: "reason"
        case .waitingFor: "waitingFor"
        case .by: "by"
        case .reset: "reset"
        case .action: "action"
        case .kind: "kind"
        case .deadline: "deadline"
        case .target: "target"
        case .sender: "sender"
        case .implements: "implements"
        case .highlighted: "highlighted"
        case .inside: "inside"
        case .events: "events"
        case .presses: "presses"
        case .subtype: "subtype"
        case .source: "source"
        case .stage: "stage"
        case .searched: "searched"
        case .match: "match"
        case .shadowed: "shadowed"
        case .taken: "taken"
        case .from: "from"
        case .to: "to"
        case .illustrative: "illustrative"
        case .text: "text"
        case .responder: "responder"
        }
    }

    /// Every name, by raw value.
    package static let texts: [String] = allCases.map(\.text)

    /// The case for a name, if the engine's.
    static let byText: [String: TraceArgName] = Dictionary(uniqueKeysWithValues: allCases.map { (texts[Int($0.rawValue)], $0) })
}
