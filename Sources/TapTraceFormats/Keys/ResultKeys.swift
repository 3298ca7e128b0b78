// The keys of a result document (`taptrace/result@1`, contract §3), declared once:
// `ResultEncoder` writes them (indented), `ResultDecoder` (TapTraceRuns) reads a stored result
// back with them. The compact writer of the dispatch hot path (`ResultJSON`, `TraceJSON`) spells
// them as literal pieces of output; `CompactEncodingTests` holds its output equal to
// `ResultEncoder`'s. The result's `input` is a touches document (`TouchesKeys.swift`).

package enum ResultKey: String, DocumentKey {
    case format, firstResponder, responderChain, touches, recognizers, actions
    // Contract §2.1: only in results of runs with a press, motion, remote-control or responder record.
    case keyResponder, presses, motions, remoteControls, responderChanges
    case warnings, elements, trace, knobs, input
    package static let names = NameTable<Self>()

    /// The non-touch summaries: all present or none.
    package static let nonTouch: [ResultKey] = [.keyResponder, .presses, .motions, .remoteControls, .responderChanges]
}

/// `keyResponder`: the key window's first responder at the start and the end of the run.
package enum KeyResponderKey: String, DocumentKey {
    case initial, final
    package static let names = NameTable<Self>()
}

/// An entry of `presses`.
package enum PressSummaryKey: String, DocumentKey {
    case id, type, key, responder, source, chain, delivered, handledBy, keyCommand, textInput, recognizers, finalPhase
    package static let names = NameTable<Self>()
}

/// An entry of `motions` or (without `phase`) of `remoteControls`.
package enum DeliveryKey: String, DocumentKey {
    case t, phase, subtype, responder, source, chain, delivered, handledBy, dropped
    package static let names = NameTable<Self>()
}

/// An entry of `responderChanges`.
package enum ResponderChangeKey: String, DocumentKey {
    case t, call, receiver, result, from, to
    package static let names = NameTable<Self>()
}

/// An object named in a result: `{"id", "class"}`.
package enum ObjectRefKey: String, DocumentKey {
    case id, `class`
    package static let names = NameTable<Self>()
}

package enum ChainLinkKey: String, DocumentKey {
    case id, `class`, role
    package static let names = NameTable<Self>()
}

package enum TouchSummaryKey: String, DocumentKey {
    case id, window, hitTestView, recognizers, refused, finalPhase, cancelledBy
    package static let names = NameTable<Self>()
}

package enum RecognizerSummaryKey: String, DocumentKey {
    case id, `class`, view, states
    package static let names = NameTable<Self>()
}

package enum ActionKey: String, DocumentKey {
    case t, action, sender, target, via, events, state
    package static let names = NameTable<Self>()
}

package enum TraceEntryKey: String, DocumentKey {
    case seq, t, cause, kind, receiver, selector, swift, args, result, from, to, reason, discrete, marker
    case depth, parent, note
    package static let names = NameTable<Self>()
}

/// A touch as a call's argument shows it.
package enum TouchSnapshotKey: String, DocumentKey {
    case id, phase, tapCount, inWindow, inReceiver
    package static let names = NameTable<Self>()
}

/// An element check of `elements` (a gesture that named a view, issue 32).
package enum ElementCheckKey: String, DocumentKey {
    case gesture, view, point, hittable, hitTestView, reasons
    package static let names = NameTable<Self>()
}

/// A reason of an element check, as explain gives it (without its views).
package enum ElementReasonKey: String, DocumentKey {
    case rule, kind, text
    package static let names = NameTable<Self>()
}
