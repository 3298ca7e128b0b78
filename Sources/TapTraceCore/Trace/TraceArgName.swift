/// The names of trace arguments the engine records (§5.2), by case: a record stores one byte
/// instead of a `String`, and the encoder copies each name's `"name":` from a table escaped once
/// per process instead of escaping it for every argument of every entry.
enum TraceArgName: UInt8, CaseIterable, Sendable {
    case point, event, pass
    case touches, touch, phase, phases
    case gestureRecognizer, otherGestureRecognizer, contentView, view, window, recognizers
    case reason, waitingFor, by, reset
    case action, kind, deadline
    case target, sender, implements
    case highlighted, inside, events

    /// The name as written: the case's own name.
    static let texts: [String] = allCases.map { String(describing: $0) }

    /// The case for a name, if the engine's.
    static let byText: [String: TraceArgName] = Dictionary(uniqueKeysWithValues: allCases.map { (texts[Int($0.rawValue)], $0) })
}
