// The keys of a touches document (`taptrace/touches@1`, contract §2) and of a dispatch request
// (§4). `TouchesDecoder` and `InputDecoder` read them; the result's `input` is written with them.

package enum TouchesKey: String, DocumentKey {
    case format, events, gestures, until
    package static let names = NameTable<Self>()
}

/// One record of `events`: `t` and exactly one kind (contract §2.1).
package enum TouchRecordKey: String, DocumentKey {
    case t, touches, presses, motion, remoteControl, responder
    package static let names = NameTable<Self>()

    /// The keys that name the record's kind (exactly one per record).
    static let kinds: [TouchRecordKey] = [.touches, .presses, .motion, .remoteControl, .responder]
}

/// One press of a `presses` record; also a press as a call's argument shows it (§5.2).
package enum PressChangeKey: String, DocumentKey {
    case id, phase, type, key
    package static let names = NameTable<Self>()
}

/// A keyboard press's `key` (`UIKey`).
package enum KeyInputKey: String, DocumentKey {
    case characters, charactersIgnoringModifiers, keyCode, modifierFlags
    package static let names = NameTable<Self>()
}

/// A `motion` record.
package enum MotionRecordKey: String, DocumentKey {
    case subtype, phase
    package static let names = NameTable<Self>()
}

/// A `remoteControl` record.
package enum RemoteControlRecordKey: String, DocumentKey {
    case subtype
    package static let names = NameTable<Self>()
}

/// A `responder` record: exactly one of the two calls (F3, F4).
package enum ResponderCallKey: String, DocumentKey {
    case become, resign
    package static let names = NameTable<Self>()
}

/// One touch of a record.
package enum TouchChangeKey: String, DocumentKey {
    case id, phase, at, type
    package static let names = NameTable<Self>()
}

/// A gesture shorthand: one of the four kinds, and its timing.
enum GestureKey: String, DocumentKey {
    case tap, doubleTap, longPress, drag, t, duration, steps, interval
    static let names = NameTable<Self>()

    /// The keys that name the gesture's kind (exactly one per gesture).
    static let kinds: [GestureKey] = [.tap, .doubleTap, .longPress, .drag]
}

enum DragKey: String, DocumentKey {
    case from, to
    static let names = NameTable<Self>()
}

/// A dispatch request: `{"scene", "touches", "knobs"}`.
package enum RequestKey: String, DocumentKey {
    case scene, touches, knobs
    package static let names = NameTable<Self>()
}

/// The question of `POST /v1/runs/{id}/why`: one subject, optionally an expected outcome.
package enum WhyQuestionKey: String, DocumentKey {
    case recognizer, action, view, firstResponder, press, keyCommand, shake, remoteControl, responder, expect
    package static let names = NameTable<Self>()
}

/// `POST /v1/why`: a dispatch request and the question, side by side.
package enum WhyRequestKey: String, DocumentKey {
    case scene, touches, knobs, recognizer, action, view, firstResponder, press, keyCommand, shake, remoteControl, responder
    case expect
    package static let names = NameTable<Self>()
}

/// An element target in place of a gesture's point: `{"view": "buyButton"}`.
enum ElementTargetKey: String, DocumentKey {
    case view
    static let names = NameTable<Self>()
}
