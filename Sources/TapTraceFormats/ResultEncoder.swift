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
        w.key(ResultKey.format); w.string(DispatchResult.format)
        w.key(ResultKey.firstResponder); writeRef(r.firstResponder, to: &w)
        w.key(ResultKey.responderChain)
        w.beginArray()
        for link in r.responderChain {
            w.beginObject()
            w.key(ChainLinkKey.id); w.string(link.ref.id)
            w.key(ChainLinkKey.class); w.string(link.ref.className)
            w.key(ChainLinkKey.role); w.string(link.role)
            w.endObject()
        }
        w.endArray()
        w.key(ResultKey.touches)
        w.beginArray()
        for t in r.touches {
            w.beginObject()
            w.key(TouchSummaryKey.id); w.string(t.id)
            w.key(TouchSummaryKey.window); w.string(t.window)
            w.key(TouchSummaryKey.hitTestView); w.string(t.hitTestView)
            w.key(TouchSummaryKey.recognizers); w.strings(t.recognizers)
            w.key(TouchSummaryKey.refused); w.string(t.refused?.rawValue)
            w.key(TouchSummaryKey.finalPhase); w.string(t.finalPhase.rawValue)
            w.key(TouchSummaryKey.cancelledBy); w.string(t.cancelledBy)
            w.endObject()
        }
        w.endArray()
        w.key(ResultKey.recognizers)
        w.beginArray()
        for g in r.recognizers {
            w.beginObject()
            w.key(RecognizerSummaryKey.id); w.string(g.id)
            w.key(RecognizerSummaryKey.class); w.string(g.className)
            w.key(RecognizerSummaryKey.view); w.string(g.view)
            w.key(RecognizerSummaryKey.states); w.strings(g.states.map(\.rawValue))
            w.endObject()
        }
        w.endArray()
        w.key(ResultKey.actions)
        w.beginArray()
        for a in r.actions { writeAction(a, to: &w) }
        w.endArray()
        if let n = r.nonTouch { writeNonTouch(n, to: &w) }
        if !r.warnings.isEmpty {
            w.key("warnings")
            w.beginArray()
            for issue in r.warnings {
                w.beginObject()
                w.key("pointer"); w.string(issue.pointer)
                w.key("detail"); w.string(issue.message)
                w.endObject()
            }
            w.endArray()
        }
        if !r.elements.isEmpty {
            w.key(ResultKey.elements)
            w.beginArray()
            for c in r.elements { writeElement(c, to: &w) }
            w.endArray()
        }
        w.key(ResultKey.trace)
        writeTrace(r.recorder, to: &w)
        w.key(ResultKey.knobs); writeKnobs(r.knobs, events: r.nonTouch != nil, to: &w)
        w.key(ResultKey.input); writeInput(r.input, until: r.until, to: &w)
        w.endObject()
    }

    public static func writeRef(_ ref: ObjectRef?, to w: inout JSONWriter) {
        guard let ref else { w.null(); return }
        w.beginObject()
        w.key(ObjectRefKey.id); w.string(ref.id)
        w.key(ObjectRefKey.class); w.string(ref.className)
        w.endObject()
    }

    public static func writeAction(_ a: ActionRecord, to w: inout JSONWriter) {
        w.beginObject()
        w.key(ActionKey.t); w.number(a.t)
        w.key(ActionKey.action); w.string(a.action)
        w.key(ActionKey.sender); w.string(a.sender)
        if let target = a.target { w.key(ActionKey.target); w.string(target) }
        w.key(ActionKey.via); w.string(a.via.rawValue)
        if let events = a.events { w.key(ActionKey.events); w.strings(events.map(\.rawValue)) }
        if let state = a.state { w.key(ActionKey.state); w.string(state.rawValue) }
        w.endObject()
    }

    /// An element check: `{gesture, view, point, hittable, hitTestView, reasons: [{rule, kind, text}]}`.
    public static func writeElement(_ c: ElementCheck, to w: inout JSONWriter) {
        w.beginObject()
        w.key(ElementCheckKey.gesture); w.number(c.gesture)
        w.key(ElementCheckKey.view); w.string(c.view)
        w.key(ElementCheckKey.point); w.numbers(c.point.x, c.point.y)
        w.key(ElementCheckKey.hittable); w.bool(c.hittable)
        w.key(ElementCheckKey.hitTestView); w.string(c.hitTestView)
        w.key(ElementCheckKey.reasons)
        w.beginArray()
        for r in c.reasons {
            w.beginObject()
            w.key(ElementReasonKey.rule); w.string(r.rule)
            w.key(ElementReasonKey.kind); w.string(r.kind)
            w.key(ElementReasonKey.text); w.string(r.text)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    /// The effective knobs; with `events` (a run with non-touch records, contract §2.1) the
    /// knobs of non-touch events follow the others.
    public static func writeKnobs(_ k: Knobs, events: Bool = false, to w: inout JSONWriter) {
        w.beginObject()
        for (name, value) in zip(Knobs.names, k.orderedValues) {
            w.key(name)
            w.knob(value)
        }
        if events {
            for (name, value) in zip(Knobs.eventNames, k.eventOrderedValues) {
                w.key(name)
                w.knob(value)
            }
        }
        w.endObject()
    }

    /// The summaries of non-touch events (contract §2.1 "Result"), written after `actions`.
    public static func writeNonTouch(_ n: NonTouchSummary, to w: inout JSONWriter) {
        w.key(ResultKey.keyResponder)
        w.beginObject()
        w.key(KeyResponderKey.initial); w.string(n.keyResponder.initial)
        w.key(KeyResponderKey.final); w.string(n.keyResponder.final)
        w.endObject()
        w.key(ResultKey.presses)
        w.beginArray()
        for p in n.presses {
            w.beginObject()
            w.key(PressSummaryKey.id); w.string(p.id)
            w.key(PressSummaryKey.type); w.string(p.type.rawValue)
            if let key = p.key { w.key(PressSummaryKey.key); w.string(key) }
            w.key(PressSummaryKey.responder); w.string(p.responder)
            w.key(PressSummaryKey.source); w.string(p.source?.rawValue)
            w.key(PressSummaryKey.chain); w.strings(p.chain)
            w.key(PressSummaryKey.delivered); w.strings(p.delivered)
            w.key(PressSummaryKey.handledBy); w.string(p.handledBy)
            w.key(PressSummaryKey.keyCommand); w.string(p.keyCommand)
            w.key(PressSummaryKey.textInput); w.string(p.textInput)
            w.key(PressSummaryKey.recognizers); w.strings(p.recognizers)
            w.key(PressSummaryKey.finalPhase); w.string(p.finalPhase.rawValue)
            w.endObject()
        }
        w.endArray()
        for (key, list) in [(ResultKey.motions, n.motions), (.remoteControls, n.remoteControls)] {
            w.key(key)
            w.beginArray()
            for d in list { writeDelivery(d, to: &w) }
            w.endArray()
        }
        w.key(ResultKey.responderChanges)
        w.beginArray()
        for c in n.responderChanges {
            w.beginObject()
            w.key(ResponderChangeKey.t); w.number(c.t)
            w.key(ResponderChangeKey.call); w.string(c.call)
            w.key(ResponderChangeKey.receiver); w.string(c.receiver)
            w.key(ResponderChangeKey.result); w.bool(c.result)
            w.key(ResponderChangeKey.from); w.string(c.from)
            w.key(ResponderChangeKey.to); w.string(c.to)
            w.endObject()
        }
        w.endArray()
    }

    /// A motion (with its `phase`) or a remote-control event (without).
    private static func writeDelivery(_ d: NonTouchSummary.Delivery, to w: inout JSONWriter) {
        w.beginObject()
        w.key(DeliveryKey.t); w.number(d.t)
        if let phase = d.phase { w.key(DeliveryKey.phase); w.string(phase.rawValue) }
        w.key(DeliveryKey.subtype); w.string(d.subtype)
        w.key(DeliveryKey.responder); w.string(d.responder)
        w.key(DeliveryKey.source); w.string(d.source?.rawValue)
        w.key(DeliveryKey.chain); w.strings(d.chain)
        w.key(DeliveryKey.delivered); w.strings(d.delivered)
        w.key(DeliveryKey.handledBy); w.string(d.handledBy)
        if d.dropped { w.key(DeliveryKey.dropped); w.bool(true) }
        w.endObject()
    }

    public static func writeInput(_ records: [TouchRecord], until: Double?, to w: inout JSONWriter) {
        w.beginObject()
        w.key(TouchesKey.format); w.string(TouchSequence.format)
        w.key(TouchesKey.events)
        w.beginArray()
        for r in records {
            w.beginObject()
            w.key(TouchRecordKey.t); w.number(r.t)
            // A non-touch record in the shape the touches document gives it (contract §2.1).
            if r.nonTouch == nil || !r.touches.isEmpty {
                w.key(TouchRecordKey.touches)
                w.beginArray()
                for c in r.touches {
                    w.beginObject()
                    w.key(TouchChangeKey.id); w.string(c.id)
                    w.key(TouchChangeKey.phase); w.string(c.phase.rawValue)
                    if let p = c.at { w.key(TouchChangeKey.at); w.numbers(p.x, p.y) }
                    if let type = c.type { w.key(TouchChangeKey.type); w.string(type.rawValue) }
                    w.endObject()
                }
                w.endArray()
            }
            if let event = r.nonTouch { writeNonTouchEvent(event, to: &w) }
            w.endObject()
        }
        w.endArray()
        if let until { w.key(TouchesKey.until); w.number(until) }
        w.endObject()
    }

    /// The key and value of a non-touch record: `presses`, `motion`, `remoteControl` or `responder`.
    public static func writeNonTouchEvent(_ event: NonTouchEvent, to w: inout JSONWriter) {
        switch event {
        case .presses(let presses):
            w.key(TouchRecordKey.presses)
            w.beginArray()
            for p in presses { writePress(id: p.id, phase: p.phase, type: p.type, key: p.key, to: &w) }
            w.endArray()
        case .motion(let m):
            w.key(TouchRecordKey.motion)
            w.beginObject()
            w.key(MotionRecordKey.subtype); w.string(m.subtype.rawValue)
            w.key(MotionRecordKey.phase); w.string(m.phase.rawValue)
            w.endObject()
        case .remoteControl(let subtype):
            w.key(TouchRecordKey.remoteControl)
            w.beginObject()
            w.key(RemoteControlRecordKey.subtype); w.string(subtype.rawValue)
            w.endObject()
        case .responder(let call):
            w.key(TouchRecordKey.responder)
            w.beginObject()
            w.key(call.name); w.string(call.receiver)
            w.endObject()
        }
    }

    /// A press as records and calls show it: `{id, phase, type, key}` (contract §2.1, §5.2).
    static func writePress(id: String, phase: PressPhase, type: PressType, key: KeyInput?, to w: inout JSONWriter) {
        w.beginObject()
        w.key(PressChangeKey.id); w.string(id)
        w.key(PressChangeKey.phase); w.string(phase.rawValue)
        w.key(PressChangeKey.type); w.string(type.rawValue)
        if let key { w.key(PressChangeKey.key); writeKey(key, to: &w) }
        w.endObject()
    }

    public static func writeEntry(_ e: TraceEntry, to w: inout JSONWriter) {
        w.beginObject()
        w.key(TraceEntryKey.seq); w.number(e.seq)
        w.key(TraceEntryKey.t); w.number(e.t)
        w.key(TraceEntryKey.cause); w.string(e.cause.text)
        w.key(TraceEntryKey.kind); w.string(e.kind.rawValue)
        w.key(TraceEntryKey.receiver); writeRef(e.receiver, to: &w)
        switch e.kind {
        case .call:
            let selector = e.selector ?? ""
            w.key(TraceEntryKey.selector); w.string(selector)
            w.key(TraceEntryKey.swift); w.string(SelectorNames.swift(selector))
            w.key(TraceEntryKey.args); writeArgs(e.args, to: &w)
            w.key(TraceEntryKey.result)
            if let result = e.result { writeValue(result, to: &w) } else { w.null() }
        case .state:
            w.key(TraceEntryKey.from); w.string(e.from?.rawValue)
            w.key(TraceEntryKey.to); w.string(e.to?.rawValue)
            w.key(TraceEntryKey.reason); w.string(e.reason)
            if e.discrete { w.key(TraceEntryKey.discrete); w.bool(true) }
        case .marker:
            w.key(TraceEntryKey.marker); w.string(e.marker?.rawValue)
            w.key(TraceEntryKey.args); writeArgs(e.args, to: &w)
        }
        w.key(TraceEntryKey.depth); w.number(e.depth)
        w.key(TraceEntryKey.parent)
        if let p = e.parent { w.number(p) } else { w.null() }
        if let note = e.note { w.key(TraceEntryKey.note); w.string(note) }
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
                w.key(TouchSnapshotKey.id); w.string(t.id)
                w.key(TouchSnapshotKey.phase); w.string(t.phase.rawValue)
                w.key(TouchSnapshotKey.tapCount); w.number(t.tapCount)
                w.key(TouchSnapshotKey.inWindow); w.numbers(t.inWindow.x, t.inWindow.y)
                if let p = t.inReceiver { w.key(TouchSnapshotKey.inReceiver); w.numbers(p.x, p.y) }
                w.endObject()
            }
            w.endArray()
        case .presses(let ps):
            w.beginArray()
            for p in ps { writePress(id: p.id, phase: p.phase, type: p.type, key: p.key, to: &w) }
            w.endArray()
        }
    }

    /// A `UIKey` as documents write it (contract §2.1).
    public static func writeKey(_ key: KeyInput, to w: inout JSONWriter) {
        w.beginObject()
        w.key(KeyInputKey.characters); w.string(key.characters)
        w.key(KeyInputKey.charactersIgnoringModifiers); w.string(key.charactersIgnoringModifiers)
        w.key(KeyInputKey.keyCode); w.string(key.keyCode)
        w.key(KeyInputKey.modifierFlags); w.strings(key.modifierFlags.map(\.rawValue))
        w.endObject()
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
