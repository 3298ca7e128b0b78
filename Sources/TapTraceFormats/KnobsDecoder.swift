import TapTraceCore
import TapTraceJSON

/// Decodes a `knobs` object (scene defaults or a request's overrides), checking every name and
/// value against `Knobs`.
enum KnobsDecoder {
    static func decode(_ node: Int, at base: String, reader: DocumentReader) -> KnobOverrides {
        var values: [(String, KnobValue)] = []
        var scratch = Knobs()
        reader.object(node, at: { base }, keys: Knobs.names) { key, v in
            guard Knobs.names.contains(key) else { return false }
            let value: KnobValue
            switch reader.tape.kind(v) {
            case .number: value = .number(reader.tape.number(v) ?? .nan)
            case .bool: value = .bool(reader.tape.bool(v) ?? false)
            case .string: value = .string(reader.tape.string(v) ?? "")
            default:
                reader.report({ base.pointer(key) }, "must be a number, boolean or string")
                return true
            }
            if let problem = scratch.set(key, value) {
                reader.report({ base.pointer(key) }, problem)
            } else {
                values.append((key, value))
            }
            return true
        }
        return KnobOverrides(values)
    }
}

/// Decodes a touches document: structure and types here, phase and time rules in
/// `TouchSequenceValidator`.
struct TouchesDecoder {
    let reader: DocumentReader
    var tape: JSONTape { reader.tape }

    func decode(_ node: Int, at base: String) -> TouchSequence {
        var seq = TouchSequence()
        var format: String?
        let isObject = reader.object(node, at: { base }, keys: ["format", "events", "gestures", "until"]) { key, v in
            func at() -> String { base.pointer(key) }
            switch key {
            case "format": format = reader.string(v, at: at)
            case "events":
                guard let elements = reader.array(v, at: at) else { break }
                for (i, e) in elements.enumerated() {
                    seq.events.append(decodeRecord(e, at: { at().pointer(i) }))
                }
            case "gestures":
                guard let elements = reader.array(v, at: at) else { break }
                for (i, e) in elements.enumerated() {
                    if let g = decodeGesture(e, at: { at().pointer(i) }) { seq.gestures.append(g) }
                }
            case "until": seq.until = reader.number(v, at: at)
            default: return false
            }
            return true
        }
        guard isObject else { return seq }
        if format == nil, !tape.members(node).contains(where: { tape.stringEquals($0.key, "format") }) {
            reader.report({ base.pointer("format") }, "required: \"\(TouchSequence.format)\"")
        } else if let format, format != TouchSequence.format {
            reader.report({ base.pointer("format") }, "must be \"\(TouchSequence.format)\", not \"\(format)\"")
        }
        return seq
    }

    private func decodeRecord(_ node: Int, at pointer: () -> String) -> TouchRecord {
        var record = TouchRecord(t: .nan, touches: [])
        reader.object(node, at: pointer, keys: ["t", "touches"]) { key, v in
            func at() -> String { pointer().pointer(key) }
            switch key {
            case "t": record.t = reader.number(v, at: at) ?? .nan
            case "touches":
                guard let elements = reader.array(v, at: at) else { break }
                for (i, e) in elements.enumerated() {
                    if let c = decodeChange(e, at: { at().pointer(i) }) { record.touches.append(c) }
                }
            default: return false
            }
            return true
        }
        if tape.kind(node) == .object, !tape.members(node).contains(where: { tape.stringEquals($0.key, "t") }) {
            reader.report(pointer, "required key \"t\" (seconds on the virtual clock) is missing")
        }
        return record
    }

    private func decodeChange(_ node: Int, at pointer: () -> String) -> TouchChange? {
        var id: String?, phase: TouchPhase?, at: Point?, type: TouchType?
        var hasPhase = false
        let ok = reader.object(node, at: pointer, keys: ["id", "phase", "at", "type"]) { key, v in
            func here() -> String { pointer().pointer(key) }
            switch key {
            case "id": id = reader.string(v, at: here)
            case "phase":
                hasPhase = true
                if let word = reader.string(v, at: here) {
                    if let p = TouchPhase(rawValue: word), p != .stationary { phase = p } else {
                        reader.report(here, "must be began, moved, ended or cancelled, not \"\(word)\"")
                    }
                }
            case "at": at = reader.point(v, at: here)
            case "type":
                if let word = reader.string(v, at: here) {
                    if let t = TouchType(rawValue: word) { type = t } else {
                        reader.report(here, "must be direct, pencil or indirect")
                    }
                }
            default: return false
            }
            return true
        }
        guard ok else { return nil }
        if id == nil, !tape.members(node).contains(where: { tape.stringEquals($0.key, "id") }) {
            reader.report(pointer, "required key \"id\" is missing")
        }
        if !hasPhase { reader.report(pointer, "required key \"phase\" is missing") }
        if at == nil, phase != nil, phase != .cancelled,
           !tape.members(node).contains(where: { tape.stringEquals($0.key, "at") }) {
            reader.report(pointer, "required key \"at\" (screen point) is missing")
        }
        guard let id, let phase else { return nil }
        return TouchChange(id: id, phase: phase, at: at, type: type)
    }

    private func decodeGesture(_ node: Int, at pointer: () -> String) -> GestureShorthand? {
        let kinds = ["tap", "doubleTap", "longPress", "drag"]
        var kind: String?
        var point: Point?, from: Point?, to: Point?
        var t: Double?, duration: Double?, steps: Int?, interval: Double?
        let ok = reader.object(node, at: pointer, keys: kinds + ["t", "duration", "steps", "interval"]) { key, v in
            func at() -> String { pointer().pointer(key) }
            switch key {
            case "tap", "doubleTap", "longPress":
                if kind != nil { reader.report(at, "a gesture has exactly one of " + kinds.joined(separator: ", ")) }
                kind = key
                point = reader.point(v, at: at)
            case "drag":
                if kind != nil { reader.report(at, "a gesture has exactly one of " + kinds.joined(separator: ", ")) }
                kind = key
                reader.object(v, at: at, keys: ["from", "to"]) { dkey, dv in
                    switch dkey {
                    case "from": from = reader.point(dv, at: { at().pointer(dkey) })
                    case "to": to = reader.point(dv, at: { at().pointer(dkey) })
                    default: return false
                    }
                    return true
                }
                if from == nil || to == nil { reader.report(at, "needs \"from\" and \"to\" points") }
            case "t": t = reader.number(v, at: at)
            case "duration": duration = reader.number(v, at: at, in: 0.001...3600, what: "between 0.001 and 3600 seconds")
            case "interval": interval = reader.number(v, at: at, in: 0.001...3600, what: "between 0.001 and 3600 seconds")
            case "steps": steps = reader.integer(v, at: at, minimum: 1)
            default: return false
            }
            return true
        }
        guard ok else { return nil }
        guard let kind else {
            reader.report(pointer, "needs one of " + kinds.joined(separator: ", "))
            return nil
        }
        if t == nil, !tape.members(node).contains(where: { tape.stringEquals($0.key, "t") }) {
            reader.report(pointer, "required key \"t\" (start time) is missing")
        }
        if steps != nil, kind != "drag" { reader.report({ pointer().pointer("steps") }, "only a drag has steps") }
        if interval != nil, kind != "doubleTap" { reader.report({ pointer().pointer("interval") }, "only a doubleTap has an interval") }
        guard let t else { return nil }
        switch kind {
        case "tap": return point.map { .tap(at: $0, t: t, duration: duration) }
        case "doubleTap": return point.map { .doubleTap(at: $0, t: t, interval: interval) }
        case "longPress": return point.map { .longPress(at: $0, t: t, duration: duration) }
        default:
            guard let from, let to else { return nil }
            return .drag(from: from, to: to, t: t, duration: duration, steps: steps)
        }
    }
}
