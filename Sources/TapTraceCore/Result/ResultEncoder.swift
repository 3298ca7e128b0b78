/// Writes the result document in the contract's key order. The same result always gives the
/// same bytes (brief: "Deterministic").
public enum ResultEncoder {
    public static func encode(_ r: DispatchResult, indent: Int = 0) -> [UInt8] {
        var w = JSONWriter(indent: indent, reserving: 256 + r.recorder.count * 220)
        write(r, to: &w)
        return w.bytes
    }

    public static func write(_ r: DispatchResult, to w: inout JSONWriter) {
        w.beginObject()
        w.key("format"); w.string(DispatchResult.format)
        w.key("firstResponder"); writeRef(r.firstResponder, to: &w)
        w.key("responderChain")
        w.beginArray()
        for link in r.responderChain {
            w.beginObject()
            w.key("id"); w.string(link.ref.id)
            w.key("class"); w.string(link.ref.className)
            w.key("role"); w.string(link.role)
            w.endObject()
        }
        w.endArray()
        w.key("touches")
        w.beginArray()
        for t in r.touches {
            w.beginObject()
            w.key("id"); w.string(t.id)
            w.key("window"); w.string(t.window)
            w.key("hitTestView"); w.string(t.hitTestView)
            w.key("recognizers"); w.strings(t.recognizers)
            w.key("refused"); w.string(t.refused?.rawValue)
            w.key("finalPhase"); w.string(t.finalPhase.rawValue)
            w.key("cancelledBy"); w.string(t.cancelledBy)
            w.endObject()
        }
        w.endArray()
        w.key("recognizers")
        w.beginArray()
        for g in r.recognizers {
            w.beginObject()
            w.key("id"); w.string(g.id)
            w.key("class"); w.string(g.className)
            w.key("view"); w.string(g.view)
            w.key("states"); w.strings(g.states.map(\.rawValue))
            w.endObject()
        }
        w.endArray()
        w.key("actions")
        w.beginArray()
        for a in r.actions { writeAction(a, to: &w) }
        w.endArray()
        w.key("trace")
        writeTrace(r.recorder, to: &w)
        w.key("knobs"); writeKnobs(r.knobs, to: &w)
        w.key("input"); writeInput(r.input, until: r.until, to: &w)
        w.endObject()
    }

    public static func writeRef(_ ref: ObjectRef?, to w: inout JSONWriter) {
        guard let ref else { w.null(); return }
        w.beginObject()
        w.key("id"); w.string(ref.id)
        w.key("class"); w.string(ref.className)
        w.endObject()
    }

    public static func writeAction(_ a: ActionRecord, to w: inout JSONWriter) {
        w.beginObject()
        w.key("t"); w.number(a.t)
        w.key("action"); w.string(a.action)
        w.key("sender"); w.string(a.sender)
        if let target = a.target { w.key("target"); w.string(target) }
        w.key("via"); w.string(a.via.rawValue)
        if let events = a.events { w.key("events"); w.strings(events.map(\.rawValue)) }
        if let state = a.state { w.key("state"); w.string(state.rawValue) }
        w.endObject()
    }

    public static func writeKnobs(_ k: Knobs, to w: inout JSONWriter) {
        w.beginObject()
        for name in Knobs.names {
            w.key(name)
            switch k.value(of: name)! {
            case .number(let n): w.number(n)
            case .bool(let b): w.bool(b)
            case .string(let s): w.string(s)
            }
        }
        w.endObject()
    }

    public static func writeInput(_ records: [TouchRecord], until: Double?, to w: inout JSONWriter) {
        w.beginObject()
        w.key("format"); w.string(TouchSequence.format)
        w.key("events")
        w.beginArray()
        for r in records {
            w.beginObject()
            w.key("t"); w.number(r.t)
            w.key("touches")
            w.beginArray()
            for c in r.touches {
                w.beginObject()
                w.key("id"); w.string(c.id)
                w.key("phase"); w.string(c.phase.rawValue)
                if let p = c.at { w.key("at"); w.numbers(p.x, p.y) }
                if let type = c.type { w.key("type"); w.string(type.rawValue) }
                w.endObject()
            }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        if let until { w.key("until"); w.number(until) }
        w.endObject()
    }

    public static func writeEntry(_ e: TraceEntry, to w: inout JSONWriter) {
        w.beginObject()
        w.key("seq"); w.number(e.seq)
        w.key("t"); w.number(e.t)
        w.key("cause"); w.string(e.cause.text)
        w.key("kind"); w.string(e.kind.rawValue)
        w.key("receiver"); writeRef(e.receiver, to: &w)
        switch e.kind {
        case .call:
            let selector = e.selector ?? ""
            w.key("selector"); w.string(selector)
            w.key("swift"); w.string(SelectorNames.swift(selector))
            w.key("args"); writeArgs(e.args, to: &w)
            w.key("result")
            if let result = e.result { writeValue(result, to: &w) } else { w.null() }
        case .state:
            w.key("from"); w.string(e.from?.rawValue)
            w.key("to"); w.string(e.to?.rawValue)
            w.key("reason"); w.string(e.reason)
            if e.discrete { w.key("discrete"); w.bool(true) }
        case .marker:
            w.key("marker"); w.string(e.marker?.rawValue)
            w.key("args"); writeArgs(e.args, to: &w)
        }
        w.key("depth"); w.number(e.depth)
        w.key("parent")
        if let p = e.parent { w.number(p) } else { w.null() }
        if let note = e.note { w.key("note"); w.string(note) }
        w.endObject()
    }

    static func writeArgs(_ args: TraceArgs, to w: inout JSONWriter) {
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
                w.key("id"); w.string(t.id)
                w.key("phase"); w.string(t.phase.rawValue)
                w.key("tapCount"); w.number(t.tapCount)
                w.key("inWindow"); w.numbers(t.inWindow.x, t.inWindow.y)
                if let p = t.inReceiver { w.key("inReceiver"); w.numbers(p.x, p.y) }
                w.endObject()
            }
            w.endArray()
        }
    }
}

extension ResultEncoder {
    /// The trace array, written straight from the recorder's compact storage (the same shape
    /// as `writeEntry`, without building `TraceEntry` values).
    public static func writeTrace(_ trace: TraceRecorder, to w: inout JSONWriter) {
        w.beginArray()
        var swiftNames: [String: String] = [:]
        for (i, r) in trace.records.enumerated() {
            let update = trace.updates[Int(r.update)]
            w.beginObject()
            w.key("seq"); w.number(i + 1)
            w.key("t"); w.number(update.t)
            w.key("cause")
            switch update.cause {
            case .input: w.string("input")
            case .timer(let id): w.string("timer:" + id)
            }
            w.key("kind"); w.string(r.kind.rawValue)
            w.key("receiver"); writeRef(trace.ref(r.receiver), to: &w)
            switch r.kind {
            case .call:
                let selector = r.selector ?? ""
                w.key("selector"); w.string(selector)
                w.key("swift")
                if let known = swiftNames[selector] { w.string(known) } else {
                    let name = SelectorNames.swift(selector)
                    swiftNames[selector] = name
                    w.string(name)
                }
                w.key("args"); writeStoredArgs(trace, r, to: &w)
                w.key("result")
                if let result = r.result { writeValue(trace.value(result), to: &w) } else { w.null() }
            case .state:
                w.key("from"); w.string(r.from?.rawValue)
                w.key("to"); w.string(r.to?.rawValue)
                w.key("reason"); w.string(trace.reason(r))
                if r.discrete { w.key("discrete"); w.bool(true) }
            case .marker:
                w.key("marker"); w.string(r.marker?.rawValue)
                w.key("args"); writeStoredArgs(trace, r, to: &w)
            }
            w.key("depth"); w.number(Int(r.depth))
            w.key("parent")
            if r.parent != 0 { w.number(Int(r.parent)) } else { w.null() }
            if let note = trace.note(r) { w.key("note"); w.string(note) }
            w.endObject()
        }
        w.endArray()
    }

    private static func writeStoredArgs(_ trace: TraceRecorder, _ r: TraceRecorder.Record, to w: inout JSONWriter) {
        w.beginObject()
        for a in trace.arguments(r) {
            w.key(a.name)
            switch a.value {
            case .view(let v): writeRef(trace.viewRefs[Int(v)], to: &w)
            case .value(let value): writeValue(value, to: &w)
            }
        }
        w.endObject()
    }
}
