import TapTraceCore
import TapTraceJSON

/// The compact result document (`ResultEncoder.encode` with no indentation), written in one
/// pass by one `ByteEmitter` straight into the array that is returned: the same bytes
/// `JSONWriter` writes for `ResultEncoder.write` (CompactEncodingTests compares the two).
///
/// The trace used to be written into an emitter of its own and copied into the writer's
/// buffer, which was copied again into the returned array: three copies of a ~20 KB document,
/// plus `JSONWriter`'s container state and a uniqueness check per call for the rest.
package enum ResultJSON {
    static func encode(_ r: DispatchResult, refs: SceneRefsJSON?) -> [UInt8] {
        // A compact trace entry is about 300 bytes: reserving less made every result grow
        // (and copy) its buffer once near the end.
        ByteEmitter.array(capacity: 1024 + r.recorder.count * 330) { e in write(r, refs: refs, &e) }
    }

    static func write(_ r: DispatchResult, refs: SceneRefsJSON?, _ e: inout ByteEmitter) {
        e.literal("{\"format\":"); e.string(DispatchResult.format)
        e.literal(",\"firstResponder\":"); ref(r.firstResponder, &e)
        e.literal(",\"responderChain\":[")
        for (k, link) in r.responderChain.enumerated() {
            if k > 0 { e.byte(0x2C) }
            e.literal("{\"id\":"); e.string(link.ref.id)
            e.literal(",\"class\":"); e.string(link.ref.className)
            e.literal(",\"role\":"); e.string(link.role)
            e.byte(0x7D)
        }
        e.literal("],\"touches\":[")
        for (k, t) in r.touches.enumerated() {
            if k > 0 { e.byte(0x2C) }
            e.literal("{\"id\":"); e.string(t.id)
            e.literal(",\"window\":"); optional(t.window, &e)
            e.literal(",\"hitTestView\":"); optional(t.hitTestView, &e)
            e.literal(",\"recognizers\":"); strings(t.recognizers, &e)
            e.literal(",\"refused\":"); word(t.refused?.rawValue, &e)
            e.literal(",\"finalPhase\":"); e.unescaped(t.finalPhase.rawValue)
            e.literal(",\"cancelledBy\":"); optional(t.cancelledBy, &e)
            e.byte(0x7D)
        }
        e.literal("],\"recognizers\":[")
        for (k, g) in r.recognizers.enumerated() {
            if k > 0 { e.byte(0x2C) }
            e.literal("{\"id\":"); e.string(g.id)
            e.literal(",\"class\":"); e.string(g.className)
            e.literal(",\"view\":"); e.string(g.view)
            e.literal(",\"states\":[")
            for (n, s) in g.states.enumerated() {
                if n > 0 { e.byte(0x2C) }
                e.unescaped(s.rawValue)
            }
            e.literal("]}")
        }
        e.literal("],\"actions\":[")
        for (k, a) in r.actions.enumerated() {
            if k > 0 { e.byte(0x2C) }
            action(a, &e)
        }
        e.byte(0x5D)
        if let n = r.nonTouch { nonTouch(n, &e) }
        if !r.warnings.isEmpty {
            e.literal(",\"warnings\":[")
            for (k, issue) in r.warnings.enumerated() {
                if k > 0 { e.byte(0x2C) }
                e.literal("{\"pointer\":"); e.string(issue.pointer)
                e.literal(",\"detail\":"); e.string(issue.message)
                e.byte(0x7D)
            }
            e.byte(0x5D)
        }
        if !r.elements.isEmpty {
            e.literal(",\"elements\":[")
            for (k, c) in r.elements.enumerated() {
                if k > 0 { e.byte(0x2C) }
                element(c, &e)
            }
            e.byte(0x5D)
        }
        e.literal(",\"trace\":")
        TraceJSON.write(r.recorder, refs: refs, &e)
        e.literal(",\"knobs\":")
        KnobsJSON.write(r.knobs, events: r.nonTouch != nil, &e)
        e.literal(",\"input\":"); input(r.input, until: r.until, &e)
        e.byte(0x7D)
    }

    package static func ref(_ ref: ObjectRef?, _ e: inout ByteEmitter) {
        guard let ref else { e.literal("null"); return }
        e.literal("{\"id\":"); e.string(ref.id)
        e.literal(",\"class\":"); e.string(ref.className)
        e.byte(0x7D)
    }

    /// `[x,y]`.
    package static func point(_ p: Point, _ e: inout ByteEmitter) {
        e.byte(0x5B)
        e.number(p.x)
        e.byte(0x2C)
        e.number(p.y)
        e.byte(0x5D)
    }

    package static func optional(_ s: String?, _ e: inout ByteEmitter) {
        if let s { e.string(s) } else { e.literal("null") }
    }

    /// The raw value of one of the engine's enums, or null: identifiers, written without
    /// looking for characters to escape (`ByteEmitter.unescaped`).
    package static func word(_ s: String?, _ e: inout ByteEmitter) {
        if let s { e.unescaped(s) } else { e.literal("null") }
    }

    package static func strings(_ list: [String], _ e: inout ByteEmitter) {
        e.byte(0x5B)
        for (k, s) in list.enumerated() {
            if k > 0 { e.byte(0x2C) }
            e.string(s)
        }
        e.byte(0x5D)
    }

    private static func action(_ a: ActionRecord, _ e: inout ByteEmitter) {
        e.literal("{\"t\":"); e.number(a.t)
        e.literal(",\"action\":"); e.string(a.action)
        e.literal(",\"sender\":"); e.string(a.sender)
        if let target = a.target { e.literal(",\"target\":"); e.string(target) }
        e.literal(",\"via\":"); e.unescaped(a.via.rawValue)
        if let events = a.events {
            e.literal(",\"events\":[")
            for (k, event) in events.enumerated() {
                if k > 0 { e.byte(0x2C) }
                e.unescaped(event.rawValue)
            }
            e.byte(0x5D)
        }
        if let state = a.state { e.literal(",\"state\":"); e.unescaped(state.rawValue) }
        e.byte(0x7D)
    }

    /// An element check, as `ResultEncoder.writeElement` writes it.
    private static func element(_ c: ElementCheck, _ e: inout ByteEmitter) {
        e.literal("{\"gesture\":"); e.integer(c.gesture)
        e.literal(",\"view\":"); e.string(c.view)
        e.literal(",\"point\":"); point(c.point, &e)
        e.literal(c.hittable ? ",\"hittable\":true" : ",\"hittable\":false")
        e.literal(",\"hitTestView\":"); optional(c.hitTestView, &e)
        e.literal(",\"reasons\":[")
        for (k, r) in c.reasons.enumerated() {
            if k > 0 { e.byte(0x2C) }
            e.literal("{\"rule\":"); e.string(r.rule)
            e.literal(",\"kind\":"); e.string(r.kind)
            e.literal(",\"text\":"); e.string(r.text)
            e.byte(0x7D)
        }
        e.literal("]}")
    }

    private static func input(_ records: [TouchRecord], until: Double?, _ e: inout ByteEmitter) {
        e.literal("{\"format\":"); e.string(TouchSequence.format)
        e.literal(",\"events\":[")
        for (k, r) in records.enumerated() {
            if k > 0 { e.byte(0x2C) }
            e.literal("{\"t\":"); e.number(r.t)
            if r.nonTouch == nil || !r.touches.isEmpty {
                e.literal(",\"touches\":[")
                for (n, c) in r.touches.enumerated() {
                    if n > 0 { e.byte(0x2C) }
                    e.literal("{\"id\":"); e.string(c.id)
                    e.literal(",\"phase\":"); e.unescaped(c.phase.rawValue)
                    if let p = c.at { e.literal(",\"at\":"); point(p, &e) }
                    if let type = c.type { e.literal(",\"type\":"); e.unescaped(type.rawValue) }
                    e.byte(0x7D)
                }
                e.byte(0x5D)
            }
            if let event = r.nonTouch { nonTouchEvent(event, &e) }
            e.byte(0x7D)
        }
        e.byte(0x5D)
        if let until { e.literal(",\"until\":"); e.number(until) }
        e.byte(0x7D)
    }
}

// MARK: non-touch events (contract §2.1), as `ResultEncoder.writeNonTouch` and `writeNonTouchEvent` write them

extension ResultJSON {
    /// `,"keyResponder":…,"presses":…,"motions":…,"remoteControls":…,"responderChanges":…`.
    static func nonTouch(_ n: NonTouchSummary, _ e: inout ByteEmitter) {
        e.literal(",\"keyResponder\":{\"initial\":"); optional(n.keyResponder.initial, &e)
        e.literal(",\"final\":"); optional(n.keyResponder.final, &e)
        e.literal("},\"presses\":[")
        for (k, p) in n.presses.enumerated() {
            if k > 0 { e.byte(0x2C) }
            e.literal("{\"id\":"); e.string(p.id)
            e.literal(",\"type\":"); e.unescaped(p.type.rawValue)
            if let key = p.key { e.literal(",\"key\":"); e.string(key) }
            e.literal(",\"responder\":"); optional(p.responder, &e)
            e.literal(",\"source\":"); word(p.source?.rawValue, &e)
            e.literal(",\"chain\":"); strings(p.chain, &e)
            e.literal(",\"delivered\":"); strings(p.delivered, &e)
            e.literal(",\"handledBy\":"); optional(p.handledBy, &e)
            e.literal(",\"keyCommand\":"); optional(p.keyCommand, &e)
            e.literal(",\"textInput\":"); optional(p.textInput, &e)
            e.literal(",\"recognizers\":"); strings(p.recognizers, &e)
            e.literal(",\"finalPhase\":"); e.unescaped(p.finalPhase.rawValue)
            e.byte(0x7D)
        }
        e.literal("],\"motions\":[")
        for (k, d) in n.motions.enumerated() {
            if k > 0 { e.byte(0x2C) }
            delivery(d, &e)
        }
        e.literal("],\"remoteControls\":[")
        for (k, d) in n.remoteControls.enumerated() {
            if k > 0 { e.byte(0x2C) }
            delivery(d, &e)
        }
        e.literal("],\"responderChanges\":[")
        for (k, c) in n.responderChanges.enumerated() {
            if k > 0 { e.byte(0x2C) }
            e.literal("{\"t\":"); e.number(c.t)
            e.literal(",\"call\":"); e.string(c.call)
            e.literal(",\"receiver\":"); e.string(c.receiver)
            e.literal(c.result ? ",\"result\":true" : ",\"result\":false")
            e.literal(",\"from\":"); optional(c.from, &e)
            e.literal(",\"to\":"); optional(c.to, &e)
            e.byte(0x7D)
        }
        e.byte(0x5D)
    }

    private static func delivery(_ d: NonTouchSummary.Delivery, _ e: inout ByteEmitter) {
        e.literal("{\"t\":"); e.number(d.t)
        if let phase = d.phase { e.literal(",\"phase\":"); e.unescaped(phase.rawValue) }
        e.literal(",\"subtype\":"); e.string(d.subtype)
        e.literal(",\"responder\":"); optional(d.responder, &e)
        e.literal(",\"source\":"); word(d.source?.rawValue, &e)
        e.literal(",\"chain\":"); strings(d.chain, &e)
        e.literal(",\"delivered\":"); strings(d.delivered, &e)
        e.literal(",\"handledBy\":"); optional(d.handledBy, &e)
        if d.dropped { e.literal(",\"dropped\":true") }
        e.byte(0x7D)
    }

    /// `,"presses":[…]`, `,"motion":{…}`, `,"remoteControl":{…}` or `,"responder":{…}`.
    private static func nonTouchEvent(_ event: NonTouchEvent, _ e: inout ByteEmitter) {
        switch event {
        case .presses(let presses):
            e.literal(",\"presses\":[")
            for (k, p) in presses.enumerated() {
                if k > 0 { e.byte(0x2C) }
                press(id: p.id, phase: p.phase, type: p.type, key: p.key, &e)
            }
            e.byte(0x5D)
        case .motion(let m):
            e.literal(",\"motion\":{\"subtype\":"); e.unescaped(m.subtype.rawValue)
            e.literal(",\"phase\":"); e.unescaped(m.phase.rawValue)
            e.byte(0x7D)
        case .remoteControl(let subtype):
            e.literal(",\"remoteControl\":{\"subtype\":"); e.unescaped(subtype.rawValue)
            e.byte(0x7D)
        case .responder(let call):
            switch call {
            case .become(let id): e.literal(",\"responder\":{\"become\":"); e.string(id)
            case .resign(let id): e.literal(",\"responder\":{\"resign\":"); e.string(id)
            }
            e.byte(0x7D)
        }
    }

    /// `{id, phase, type, key}`, as `ResultEncoder.writePress` writes it.
    static func press(id: String, phase: PressPhase, type: PressType, key: KeyInput?, _ e: inout ByteEmitter) {
        e.literal("{\"id\":"); e.string(id)
        e.literal(",\"phase\":"); e.unescaped(phase.rawValue)
        e.literal(",\"type\":"); e.unescaped(type.rawValue)
        if let key {
            e.literal(",\"key\":{\"characters\":"); e.string(key.characters)
            e.literal(",\"charactersIgnoringModifiers\":"); e.string(key.charactersIgnoringModifiers)
            e.literal(",\"keyCode\":"); e.string(key.keyCode)
            e.literal(",\"modifierFlags\":[")
            for (k, flag) in key.modifierFlags.enumerated() {
                if k > 0 { e.byte(0x2C) }
                e.unescaped(flag.rawValue)
            }
            e.literal("]}")
        }
        e.byte(0x7D)
    }
}
