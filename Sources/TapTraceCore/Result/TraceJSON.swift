/// The trace array of a result, written with a `ByteEmitter`: a trace is most of a result's
/// bytes, its entries all have the same shape, and the same receivers and selectors come back
/// again and again. Writing it through the general `JSONWriter` (state per container, a call
/// per key) cost ten times the bytes (docs/performance.md). Only the compact form is written
/// this way; `ResultEncoder.writeTrace` keeps the `JSONWriter` path for indented output.
enum TraceJSON {
    static func encode(_ trace: TraceRecorder) -> [UInt8] {
        var e = ByteEmitter(capacity: 64 + trace.records.count * 280)
        // Fragments encoded once per trace: `"cause":…,"kind":"…","receiver":{…}` keyed by update,
        // kind and receiver, and `"selector":…,"swift":…`.
        var heads: [HeadKey: [UInt8]] = [:]
        var selectors: [String: [UInt8]] = [:]
        var views: [Int32: [UInt8]] = [:]
        e.byte(0x5B)
        for (i, r) in trace.records.enumerated() {
            if i > 0 { e.byte(0x2C) }
            let update = trace.updates[Int(r.update)]
            e.literal("{\"seq\":"); e.integer(i + 1)
            e.literal(",\"t\":"); e.number(update.t)
            let key = HeadKey(update: r.update, kind: r.kind, receiver: r.receiver)
            if let head = heads[key] { e.raw(head) } else {
                var h = ByteEmitter(capacity: 96)
                h.literal(",\"cause\":"); h.string(update.cause.text)
                h.literal(",\"kind\":"); h.string(r.kind.rawValue)
                h.literal(",\"receiver\":"); ref(trace.ref(r.receiver), &h)
                heads[key] = h.bytes
                e.raw(h.bytes)
            }
            switch r.kind {
            case .call:
                let selector = r.selector ?? ""
                if let s = selectors[selector] { e.raw(s) } else {
                    var h = ByteEmitter(capacity: 96)
                    h.literal(",\"selector\":"); h.string(selector)
                    h.literal(",\"swift\":"); h.string(SelectorNames.swift(selector))
                    selectors[selector] = h.bytes
                    e.raw(h.bytes)
                }
                e.literal(",\"args\":"); args(trace, r, &e, &views)
                e.literal(",\"result\":")
                if let result = r.result { stored(result, trace, &e, &views) } else { e.literal("null") }
            case .state:
                e.literal(",\"from\":"); optional(r.from?.rawValue, &e)
                e.literal(",\"to\":"); optional(r.to?.rawValue, &e)
                e.literal(",\"reason\":"); optional(trace.reason(r), &e)
                if r.discrete { e.literal(",\"discrete\":true") }
            case .marker:
                e.literal(",\"marker\":"); optional(r.marker?.rawValue, &e)
                e.literal(",\"args\":"); args(trace, r, &e, &views)
            }
            e.literal(",\"depth\":"); e.integer(Int(r.depth))
            e.literal(",\"parent\":")
            if r.parent != 0 { e.integer(Int(r.parent)) } else { e.literal("null") }
            if let note = trace.note(r) { e.literal(",\"note\":"); e.string(note) }
            e.byte(0x7D)
        }
        e.byte(0x5D)
        return e.bytes
    }

    private struct HeadKey: Hashable {
        var update: Int32
        var kind: TraceEntry.Kind
        var receiver: Int64

        init(update: Int32, kind: TraceEntry.Kind, receiver: TraceRecorder.Object) {
            self.update = update
            self.kind = kind
            switch receiver {
            case .none: self.receiver = Int64.min
            case .view(let v): self.receiver = Int64(v)
            case .other(let k): self.receiver = -1 - Int64(k)
            }
        }
    }

    private static func optional(_ s: String?, _ e: inout ByteEmitter) {
        if let s { e.string(s) } else { e.literal("null") }
    }

    private static func ref(_ ref: ObjectRef?, _ e: inout ByteEmitter) {
        guard let ref else { e.literal("null"); return }
        e.literal("{\"id\":"); e.string(ref.id)
        e.literal(",\"class\":"); e.string(ref.className)
        e.byte(0x7D)
    }

    private static func args(_ trace: TraceRecorder, _ r: TraceRecorder.Record, _ e: inout ByteEmitter,
                             _ views: inout [Int32: [UInt8]]) {
        e.byte(0x7B)
        var first = true
        for a in trace.arguments(r) {
            if !first { e.byte(0x2C) }
            first = false
            e.string(a.name)
            e.byte(0x3A)
            stored(a.value, trace, &e, &views)
        }
        e.byte(0x7D)
    }

    private static func stored(_ v: TraceRecorder.StoredValue, _ trace: TraceRecorder, _ e: inout ByteEmitter,
                               _ views: inout [Int32: [UInt8]]) {
        switch v {
        case .view(let view):
            if let cached = views[view] { e.raw(cached); return }
            var h = ByteEmitter(capacity: 48)
            ref(trace.viewRefs[Int(view)], &h)
            views[view] = h.bytes
            e.raw(h.bytes)
        case .value(let value):
            self.value(value, &e)
        }
    }

    private static func value(_ v: TraceValue, _ e: inout ByteEmitter) {
        switch v {
        case .null: e.literal("null")
        case .bool(let b): if b { e.literal("true") } else { e.literal("false") }
        case .number(let n): e.number(n)
        case .string(let s): e.string(s)
        case .point(let p): e.point(p)
        case .object(let r): ref(r, &e)
        case .strings(let list):
            e.byte(0x5B)
            for (k, s) in list.enumerated() {
                if k > 0 { e.byte(0x2C) }
                e.string(s)
            }
            e.byte(0x5D)
        case .objects(let refs):
            e.byte(0x5B)
            for (k, r) in refs.enumerated() {
                if k > 0 { e.byte(0x2C) }
                ref(r, &e)
            }
            e.byte(0x5D)
        case .touches(let ts):
            e.byte(0x5B)
            for (k, t) in ts.enumerated() {
                if k > 0 { e.byte(0x2C) }
                e.literal("{\"id\":"); e.string(t.id)
                e.literal(",\"phase\":"); e.string(t.phase.rawValue)
                e.literal(",\"tapCount\":"); e.integer(t.tapCount)
                e.literal(",\"inWindow\":"); e.point(t.inWindow)
                if let p = t.inReceiver { e.literal(",\"inReceiver\":"); e.point(p) }
                e.byte(0x7D)
            }
            e.byte(0x5D)
        }
    }
}
