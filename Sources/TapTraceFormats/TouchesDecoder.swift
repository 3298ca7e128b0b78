import TapTraceCore
import TapTraceJSON

/// Decodes a touches document: structure and types here, phase and time rules in
/// `TouchSequenceValidator`.
///
/// In a request whose endpoint implies the document (the `touches` of a dispatch or why body, the
/// CLI's request file) `format` may be left out (`requireFormat` false); a standalone touches
/// document (`InputDecoder.touches`, the `Codable` bridge) still needs it. A gesture's `t` may be
/// left out (`TouchSequenceValidator.startTimes`); an `events` record's may not.
struct TouchesDecoder {
    let reader: DocumentReader
    var requireFormat = true
    var tape: JSONTape { reader.tape }

    func decode(_ node: Int, at base: String) -> TouchSequence {
        var seq = TouchSequence()
        var format: String?
        let isObject = reader.object(node, at: { base }) { (key: TouchesKey, v) in
            func at() -> String { base.pointer(key.rawValue) }
            switch key {
            case .format: format = reader.string(v, at: at)
            case .events:
                guard let elements = reader.array(v, at: at) else { break }
                for (i, e) in elements.enumerated() {
                    seq.events.append(decodeRecord(e, at: { at().pointer(i) }))
                }
            case .gestures:
                guard let elements = reader.array(v, at: at) else { break }
                for (i, e) in elements.enumerated() {
                    if let g = decodeGesture(e, at: { at().pointer(i) }) { seq.gestures.append(g) }
                }
            case .until: seq.until = reader.number(v, at: at)
            }
        }
        guard isObject else { return seq }
        let formatKey = TouchesKey.format.rawValue
        if format == nil, !reader.has(node, TouchesKey.format) {
            guard requireFormat else { return seq }
            reader.report({ base.pointer(formatKey) }, "required: \"\(TouchSequence.format)\"")
        } else if let format, format != TouchSequence.format {
            reader.report({ base.pointer(formatKey) }, "must be \"\(TouchSequence.format)\", not \"\(format)\"")
        }
        return seq
    }

    /// A gesture's point `[x, y]`, or an element `{"view": "name"}` (a view id, identifier or
    /// label, resolved against the scene before dispatch).
    private func target(_ node: Int, at pointer: () -> String) -> TouchTarget? {
        switch tape.kind(node) {
        case .object: break
        case .array: return reader.point(node, at: pointer).map(TouchTarget.point)
        default:
            reader.report(pointer, "must be a point [x, y] or an element {\"view\": id, accessibilityIdentifier or label}")
            return nil
        }
        var name: String?
        let ok = reader.object(node, at: pointer) { (key: ElementTargetKey, v) in
            switch key {
            case .view:
                name = reader.string(v, at: { pointer().pointer(key.rawValue) })
                if name?.isEmpty == true {
                    reader.report({ pointer().pointer(key.rawValue) }, "must name a view: its id, accessibilityIdentifier or label")
                    name = nil
                }
            }
        }
        guard ok else { return nil }
        guard let name else {
            if !reader.has(node, ElementTargetKey.view) {
                reader.report(pointer, "must be a point [x, y] or an element {\"view\": id, accessibilityIdentifier or label}")
            }
            return nil
        }
        return .view(name)
    }

    private func decodeRecord(_ node: Int, at pointer: () -> String) -> TouchRecord {
        var record = TouchRecord(t: .nan, touches: [])
        var kind: TouchRecordKey?
        reader.object(node, at: pointer) { (key: TouchRecordKey, v) in
            func at() -> String { pointer().pointer(key.rawValue) }
            if key != .t {
                // One kind per record (contract §2.1): a second is reported and not read.
                if let kind {
                    reader.report(pointer, "a record carries exactly one of " + Self.recordKinds
                                  + "; this one has both \"\(kind.rawValue)\" and \"\(key.rawValue)\"")
                    return
                }
                kind = key
            }
            switch key {
            case .t: record.t = reader.number(v, at: at) ?? .nan
            case .touches:
                guard let elements = reader.array(v, at: at) else { break }
                for (i, e) in elements.enumerated() {
                    if let c = decodeChange(e, at: { at().pointer(i) }) { record.touches.append(c) }
                }
            case .presses:
                guard let elements = reader.array(v, at: at) else { break }
                var presses: [PressChange] = []
                var count = 0
                for (i, e) in elements.enumerated() {
                    count += 1
                    if let p = decodePress(e, at: { at().pointer(i) }) { presses.append(p) }
                }
                // An empty list is the validator's to report; one whose every press was refused
                // is a record that could not be read.
                if count == 0 || !presses.isEmpty { record.nonTouch = .presses(presses) }
            case .motion: record.nonTouch = decodeMotion(v, at: at).map(NonTouchEvent.motion)
            case .remoteControl: record.nonTouch = decodeRemoteControl(v, at: at).map(NonTouchEvent.remoteControl)
            case .responder: record.nonTouch = decodeResponderCall(v, at: at).map(NonTouchEvent.responder)
            }
        }
        if tape.kind(node) == .object, !reader.has(node, TouchRecordKey.t) {
            reader.report(pointer, "required key \"t\" (seconds on the virtual clock) is missing")
        }
        // A non-touch record that could not be read was reported here: its time is taken away,
        // so that the validator skips it (`TouchSequenceValidator`) instead of calling it empty.
        if let kind, kind != .touches, record.nonTouch == nil { record.t = .nan }
        return record
    }

    static let recordKinds = TouchRecordKey.kinds.map(\.rawValue).joined(separator: ", ")

    /// One press of a `presses` record: `{id, phase, type, key}` (contract §2.1). `key` is
    /// required for a keyboard press and refused for the other types; a press that breaks
    /// either is left out (its issue is reported).
    private func decodePress(_ node: Int, at pointer: () -> String) -> PressChange? {
        var id: String?, phase: PressPhase?, type: PressType?, key: KeyInput?
        var keyBroken = false
        let ok = reader.object(node, at: pointer) { (k: PressChangeKey, v) in
            func here() -> String { pointer().pointer(k.rawValue) }
            switch k {
            case .id: id = reader.string(v, at: here)
            case .phase:
                // `stationary` is UIKit's, never a document's.
                phase = reader.word(v, at: here, as: PressPhase.self, allowed: [.began, .changed, .ended, .cancelled])
            case .type: type = reader.word(v, at: here, as: PressType.self)
            case .key:
                key = decodeKey(v, at: here)
                keyBroken = key == nil
            }
        }
        guard ok else { return nil }
        if !reader.has(node, PressChangeKey.id) { reader.report(pointer, "required key \"id\" is missing") }
        if !reader.has(node, PressChangeKey.phase) {
            reader.report(pointer, "required key \"phase\" is missing (began, changed, ended or cancelled)")
        }
        if !reader.has(node, PressChangeKey.type) {
            reader.report(pointer, "required key \"type\" is missing (" + PressType.allCases.map(\.rawValue).joined(separator: ", ") + ")")
        }
        if let type {
            if type == .keyboard, !reader.has(node, PressChangeKey.key) {
                reader.report(pointer, "required key \"key\" is missing: a keyboard press has a key {characters, charactersIgnoringModifiers, keyCode, modifierFlags}")
                return nil
            }
            if type != .keyboard, reader.has(node, PressChangeKey.key) {
                reader.report({ pointer().pointer(PressChangeKey.key.rawValue) }, "only a keyboard press has a key (this one is \(type.rawValue))")
                return nil
            }
        }
        guard let id, let phase, let type, !keyBroken else { return nil }
        return PressChange(id: id, phase: phase, type: type, key: key)
    }

    /// A keyboard press's `key`: all four fields, as `UIKey` reports them.
    private func decodeKey(_ node: Int, at pointer: () -> String) -> KeyInput? {
        var characters: String?, ignoring: String?, keyCode: String?, flags: [KeyModifierFlag]?
        let ok = reader.object(node, at: pointer) { (k: KeyInputKey, v) in
            func here() -> String { pointer().pointer(k.rawValue) }
            switch k {
            // A modifier key alone types "": empty strings are allowed here.
            case .characters: characters = reader.string(v, at: here, nonEmpty: false)
            case .charactersIgnoringModifiers: ignoring = reader.string(v, at: here, nonEmpty: false)
            case .keyCode: keyCode = reader.string(v, at: here)
            case .modifierFlags: flags = reader.modifierFlags(v, at: here)
            }
        }
        guard ok else { return nil }
        let missing = KeyInputKey.allCases.filter { !reader.has(node, $0) }
        if !missing.isEmpty {
            reader.report(pointer, "a key needs all of characters, charactersIgnoringModifiers, keyCode, modifierFlags; missing: "
                          + missing.map(\.rawValue).joined(separator: ", "))
        }
        guard let characters, let ignoring, let keyCode, let flags else { return nil }
        return KeyInput(characters: characters, charactersIgnoringModifiers: ignoring, keyCode: keyCode, modifierFlags: flags)
    }

    /// `{"subtype": "shake", "phase": "began" | "ended" | "cancelled"}` (M1).
    private func decodeMotion(_ node: Int, at pointer: () -> String) -> MotionChange? {
        var subtype: MotionSubtype?, phase: MotionPhase?
        let ok = reader.object(node, at: pointer) { (k: MotionRecordKey, v) in
            func here() -> String { pointer().pointer(k.rawValue) }
            switch k {
            case .subtype: subtype = reader.word(v, at: here, as: MotionSubtype.self)
            case .phase: phase = reader.word(v, at: here, as: MotionPhase.self)
            }
        }
        guard ok else { return nil }
        if !reader.has(node, MotionRecordKey.subtype) { reader.report(pointer, "required key \"subtype\" is missing (\"shake\")") }
        if !reader.has(node, MotionRecordKey.phase) { reader.report(pointer, "required key \"phase\" is missing (began, ended or cancelled)") }
        guard let subtype, let phase else { return nil }
        return MotionChange(subtype: subtype, phase: phase)
    }

    /// `{"subtype": "togglePlayPause"}` (RC1).
    private func decodeRemoteControl(_ node: Int, at pointer: () -> String) -> RemoteControlSubtype? {
        var subtype: RemoteControlSubtype?
        let ok = reader.object(node, at: pointer) { (k: RemoteControlRecordKey, v) in
            switch k {
            case .subtype: subtype = reader.word(v, at: { pointer().pointer(k.rawValue) }, as: RemoteControlSubtype.self)
            }
        }
        guard ok else { return nil }
        if !reader.has(node, RemoteControlRecordKey.subtype) {
            reader.report(pointer, "required key \"subtype\" is missing (one of "
                          + RemoteControlSubtype.allCases.map(\.rawValue).joined(separator: ", ") + ")")
        }
        return subtype
    }

    /// `{"become": id}` or `{"resign": id}` (F3, F4).
    private func decodeResponderCall(_ node: Int, at pointer: () -> String) -> ResponderCall? {
        var call: ResponderCall?
        var count = 0
        let ok = reader.object(node, at: pointer) { (k: ResponderCallKey, v) in
            count += 1
            guard let id = reader.string(v, at: { pointer().pointer(k.rawValue) }) else { return }
            switch k {
            case .become: call = .become(id)
            case .resign: call = .resign(id)
            }
        }
        guard ok else { return nil }
        // An unknown key alone was reported with the keys allowed.
        if count > 1 || tape.count(node) == 0 {
            reader.report(pointer, "must be {\"become\": id} or {\"resign\": id}: exactly one call naming a view or view controller")
            return nil
        }
        return count == 1 ? call : nil
    }

    private func decodeChange(_ node: Int, at pointer: () -> String) -> TouchChange? {
        var id: String?, phase: TouchPhase?, at: Point?, type: TouchType?
        var hasPhase = false
        let ok = reader.object(node, at: pointer) { (key: TouchChangeKey, v) in
            func here() -> String { pointer().pointer(key.rawValue) }
            switch key {
            case .id: id = reader.string(v, at: here)
            case .phase:
                hasPhase = true
                if let word = reader.string(v, at: here) {
                    if let p = TouchPhase(rawValue: word), p != .stationary { phase = p } else {
                        reader.report(here, "must be began, moved, ended or cancelled, not \"\(word)\"")
                    }
                }
            case .at: at = reader.point(v, at: here)
            case .type:
                if let word = reader.string(v, at: here) {
                    if let t = TouchType(rawValue: word) { type = t } else {
                        reader.report(here, "must be direct, pencil or indirect")
                    }
                }
            }
        }
        guard ok else { return nil }
        if id == nil, !reader.has(node, TouchChangeKey.id) {
            reader.report(pointer, "required key \"id\" is missing")
        }
        if !hasPhase { reader.report(pointer, "required key \"phase\" is missing") }
        if at == nil, phase != nil, phase != .cancelled, !reader.has(node, TouchChangeKey.at) {
            reader.report(pointer, "required key \"at\" (screen point) is missing")
        }
        guard let id, let phase else { return nil }
        return TouchChange(id: id, phase: phase, at: at, type: type)
    }

    private func decodeGesture(_ node: Int, at pointer: () -> String) -> GestureShorthand? {
        let kinds = GestureKey.kinds.map(\.rawValue).joined(separator: ", ")
        var kind: GestureKey?
        var point: TouchTarget?, from: TouchTarget?, to: TouchTarget?
        var t: Double?, duration: Double?, steps: Int?, interval: Double?
        let ok = reader.object(node, at: pointer) { (key: GestureKey, v) in
            func at() -> String { pointer().pointer(key.rawValue) }
            switch key {
            case .tap, .doubleTap, .longPress:
                if kind != nil { reader.report(at, "a gesture has exactly one of " + kinds) }
                kind = key
                point = target(v, at: at)
            case .drag:
                if kind != nil { reader.report(at, "a gesture has exactly one of " + kinds) }
                kind = key
                reader.object(v, at: at) { (dkey: DragKey, dv) in
                    switch dkey {
                    case .from: from = target(dv, at: { at().pointer(dkey.rawValue) })
                    case .to: to = target(dv, at: { at().pointer(dkey.rawValue) })
                    }
                }
                if from == nil || to == nil { reader.report(at, "needs \"from\" and \"to\" points") }
            case .t: t = reader.number(v, at: at)
            case .duration: duration = reader.number(v, at: at, in: 0.001...3600, what: "between 0.001 and 3600 seconds")
            case .interval: interval = reader.number(v, at: at, in: 0.001...3600, what: "between 0.001 and 3600 seconds")
            case .steps: steps = reader.integer(v, at: at, minimum: 1)
            }
        }
        guard ok else { return nil }
        guard let kind else {
            reader.report(pointer, "needs one of " + kinds)
            return nil
        }
        // A gesture without `t` starts after the previous one (TouchSequenceValidator.startTimes);
        // a `t` present but invalid was reported where it is.
        if t == nil, reader.has(node, GestureKey.t) { return nil }
        if steps != nil, kind != .drag { reader.report({ pointer().pointer(GestureKey.steps.rawValue) }, "only a drag has steps") }
        if interval != nil, kind != .doubleTap {
            reader.report({ pointer().pointer(GestureKey.interval.rawValue) }, "only a doubleTap has an interval")
        }
        switch kind {
        case .tap: return point.map { .tap(at: $0, t: t, duration: duration) }
        case .doubleTap: return point.map { .doubleTap(at: $0, t: t, interval: interval) }
        case .longPress: return point.map { .longPress(at: $0, t: t, duration: duration) }
        default:
            guard let from, let to else { return nil }
            return .drag(from: from, to: to, t: t, duration: duration, steps: steps)
        }
    }
}
