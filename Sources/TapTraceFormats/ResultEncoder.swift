import TapTraceCore
import TapTraceJSON

/// Writes the result document in the contract's key order. The same result always gives the
/// same bytes (brief: "Deterministic").
public enum ResultEncoder {
    /// The result document; compact unless `indent` is given. `refs`, the JSON of the objects
    /// of the scene the result was dispatched against, saves escaping them again.
    public static func encode(_ r: DispatchResult, indent: Int = 0, refs: SceneRefsJSON? = nil) -> [UInt8] {
        if indent == 0 { return ResultJSON.encode(r, refs: refs) }
        var w = JSONWriter(indent: indent, reserving: 1024 + r.recorder.count * 600)
        write(r, to: &w)
        return w.bytes
    }

    public static func write(_ r: DispatchResult, to w: inout JSONWriter) {
        w.beginObject()
        w.key(static: "format"); w.string(DispatchResult.format)
        w.key(static: "firstResponder"); writeRef(r.firstResponder, to: &w)
        w.key(static: "responderChain")
        w.beginArray()
        for link in r.responderChain {
            w.beginObject()
            w.key(static: "id"); w.string(link.ref.id)
            w.key(static: "class"); w.string(link.ref.className)
            w.key(static: "role"); w.string(link.role)
            w.endObject()
        }
        w.endArray()
        w.key(static: "touches")
        w.beginArray()
        for t in r.touches {
            w.beginObject()
            w.key(static: "id"); w.string(t.id)
            w.key(static: "window"); w.string(t.window)
            w.key(static: "hitTestView"); w.string(t.hitTestView)
            w.key(static: "recognizers"); w.strings(t.recognizers)
            w.key(static: "refused"); w.string(t.refused?.rawValue)
            w.key(static: "finalPhase"); w.string(t.finalPhase.rawValue)
            w.key(static: "cancelledBy"); w.string(t.cancelledBy)
            w.endObject()
        }
        w.endArray()
        w.key(static: "recognizers")
        w.beginArray()
        for g in r.recognizers {
            w.beginObject()
            w.key(static: "id"); w.string(g.id)
            w.key(static: "class"); w.string(g.className)
            w.key(static: "view"); w.string(g.view)
            w.key(static: "states"); w.strings(g.states.map(\.rawValue))
            w.endObject()
        }
        w.endArray()
        w.key(static: "actions")
        w.beginArray()
        for a in r.actions { writeAction(a, to: &w) }
        w.endArray()
        w.key(static: "trace")
        writeTrace(r.recorder, to: &w)
        w.key(static: "knobs"); writeKnobs(r.knobs, to: &w)
        w.key(static: "input"); writeInput(r.input, until: r.until, to: &w)
        w.endObject()
    }

    public static func writeRef(_ ref: ObjectRef?, to w: inout JSONWriter) {
        guard let ref else { w.null(); return }
        w.beginObject()
        w.key(static: "id"); w.string(ref.id)
        w.key(static: "class"); w.string(ref.className)
        w.endObject()
    }

    public static func writeAction(_ a: ActionRecord, to w: inout JSONWriter) {
        w.beginObject()
        w.key(static: "t"); w.number(a.t)
        w.key(static: "action"); w.string(a.action)
        w.key(static: "sender"); w.string(a.sender)
        if let target = a.target { w.key(static: "target"); w.string(target) }
        w.key(static: "via"); w.string(a.via.rawValue)
        if let events = a.events { w.key(static: "events"); w.strings(events.map(\.rawValue)) }
        if let state = a.state { w.key(static: "state"); w.string(state.rawValue) }
        w.endObject()
    }

    public static func writeKnobs(_ k: Knobs, to w: inout JSONWriter) {
        w.beginObject()
        for (name, value) in zip(Knobs.names, k.orderedValues) {
            w.key(name)
            w.knob(value)
        }
        w.endObject()
    }

    public static func writeInput(_ records: [TouchRecord], until: Double?, to w: inout JSONWriter) {
        w.beginObject()
        w.key(static: "format"); w.string(TouchSequence.format)
        w.key(static: "events")
        w.beginArray()
        for r in records {
            w.beginObject()
            w.key(static: "t"); w.number(r.t)
            w.key(static: "touches")
            w.beginArray()
            for c in r.touches {
                w.beginObject()
                w.key(static: "id"); w.string(c.id)
                w.key(static: "phase"); w.string(c.phase.rawValue)
                if let p = c.at { w.key(static: "at"); w.numbers(p.x, p.y) }
                if let type = c.type { w.key(static: "type"); w.string(type.rawValue) }
                w.endObject()
            }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        if let until { w.key(static: "until"); w.number(until) }
        w.endObject()
    }

    public static func writeEntry(_ e: TraceEntry, to w: inout JSONWriter) {
        w.beginObject()
        w.key(static: "seq"); w.number(e.seq)
        w.key(static: "t"); w.number(e.t)
        w.key(static: "cause"); w.string(e.cause.text)
        w.key(static: "kind"); w.string(e.kind.rawValue)
        w.key(static: "receiver"); writeRef(e.receiver, to: &w)
        switch e.kind {
        case .call:
            let selector = e.selector ?? ""
            w.key(static: "selector"); w.string(selector)
            w.key(static: "swift"); w.string(SelectorNames.swift(selector))
            w.key(static: "args"); writeArgs(e.args, to: &w)
            w.key(static: "result")
            if let result = e.result { writeValue(result, to: &w) } else { w.null() }
        case .state:
            w.key(static: "from"); w.string(e.from?.rawValue)
            w.key(static: "to"); w.string(e.to?.rawValue)
            w.key(static: "reason"); w.string(e.reason)
            if e.discrete { w.key(static: "discrete"); w.bool(true) }
        case .marker:
            w.key(static: "marker"); w.string(e.marker?.rawValue)
            w.key(static: "args"); writeArgs(e.args, to: &w)
        }
        w.key(static: "depth"); w.number(e.depth)
        w.key(static: "parent")
        if let p = e.parent { w.number(p) } else { w.null() }
        if let note = e.note { w.key(static: "note"); w.string(note) }
        w.endObject()
    }

    package static func writeArgs(_ args: TraceArgs, to w: inout JSONWriter) {
        w.beginObject()
        for a in args {
            w.key(a.name)
            writeValue(a.value, to: &w)
        }
        w.endObject()
    }

    public static func writeValue(_ v: TraceValue, to w: inout JSONWriter) {
        switch v {
        case .null: w.null()
        case .bool(let b): w.bool(b)
        case .number(let n): w.number(n)
        case .string(let s): w.string(s)
        case .point(let p): w.numbers(p.x, p.y)
        case .object(let ref): writeRef(ref, to: &w)
        case .strings(let s): w.strings(s)
        case .objects(let refs):
            w.beginArray()
            for r in refs { writeRef(r, to: &w) }
            w.endArray()
        case .touches(let ts):
            w.beginArray()
            for t in ts {
                w.beginObject()
                w.key(static: "id"); w.string(t.id)
                w.key(static: "phase"); w.string(t.phase.rawValue)
                w.key(static: "tapCount"); w.number(t.tapCount)
                w.key(static: "inWindow"); w.numbers(t.inWindow.x, t.inWindow.y)
                if let p = t.inReceiver { w.key(static: "inReceiver"); w.numbers(p.x, p.y) }
                w.endObject()
            }
            w.endArray()
        }
    }
}

extension ResultEncoder {
    /// The trace array: compact through `TraceJSON`, indented entry by entry (`writeEntry`).
    public static func writeTrace(_ trace: TraceRecorder, to w: inout JSONWriter) {
        if w.indent == 0 {
            var e = ByteEmitter(capacity: 64 + trace.count * 320)
            TraceJSON.write(trace, refs: nil, &e)
            w.raw(e.bytes)
            return
        }
        w.beginArray()
        for seq in stride(from: 1, through: trace.count, by: 1) { writeEntry(trace.entry(seq), to: &w) }
        w.endArray()
    }
}
