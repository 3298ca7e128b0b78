/// The trace array of a result, written with a `ByteEmitter`: a trace is most of a result's
/// bytes, its entries all have the same shape, and the same receivers and selectors come back
/// again and again. Writing it through the general `JSONWriter` (state per container, a call
/// per key) cost ten times the bytes (docs/performance.md). Only the compact form is written
/// this way; `ResultEncoder.writeTrace` keeps the `JSONWriter` path for indented output.
enum TraceJSON {
    /// Writes the trace array at the end of `e`.
    static func write(_ trace: TraceRecorder, _ e: inout ByteEmitter) {
        // Per-entry caches keyed by hashing cost more than writing the pieces again (a head was
        // rarely reused: it depends on the update); only the selector pair is cached, because
        // its Swift spelling is derived (`SelectorNames.swift`).
        var selectors = SelectorCache()
        var views = ViewRefSpans(viewCount: trace.viewRefs.count)
        e.byte(0x5B)
        var seq = 0
        for r in trace.records {
            if seq > 0 { e.byte(0x2C) }
            seq += 1
            let update = trace.updates[Int(r.update)]
            e.literal("{\"seq\":"); e.integer(seq)
            e.literal(",\"t\":"); e.number(update.t)
            e.literal(",\"cause\":")
            switch update.cause {
            case .input: e.literal("\"input\"")
            case .timer: e.string(update.cause.text)
            }
            switch r.kind {
            case .call: e.literal(",\"kind\":\"call\",\"receiver\":")
            case .state: e.literal(",\"kind\":\"state\",\"receiver\":")
            case .marker: e.literal(",\"kind\":\"marker\",\"receiver\":")
            }
            if case .view(let view) = r.receiver { views.write(Int(view), trace, &e) } else { ResultJSON.ref(trace.ref(r.receiver), &e) }
            switch r.kind {
            case .call:
                selectors.write(r.selector ?? "", &e)
                e.literal(",\"args\":"); args(trace, r, &views, &e)
                e.literal(",\"result\":")
                if let result = r.result { stored(result, trace, &views, &e) } else { e.literal("null") }
            case .state:
                e.literal(",\"from\":"); ResultJSON.optional(r.from?.rawValue, &e)
                e.literal(",\"to\":"); ResultJSON.optional(r.to?.rawValue, &e)
                e.literal(",\"reason\":"); ResultJSON.optional(trace.reason(r), &e)
                if r.discrete { e.literal(",\"discrete\":true") }
            case .marker:
                e.literal(",\"marker\":"); ResultJSON.optional(r.marker?.rawValue, &e)
                e.literal(",\"args\":"); args(trace, r, &views, &e)
            }
            e.literal(",\"depth\":"); e.integer(Int(r.depth))
            e.literal(",\"parent\":")
            if r.parent != 0 { e.integer(Int(r.parent)) } else { e.literal("null") }
            if let note = trace.note(r) { e.literal(",\"note\":"); e.string(note) }
            e.byte(0x7D)
        }
        e.byte(0x5D)
    }

    /// `,"selector":…,"swift":…` per distinct selector of a trace (a dozen or so), found by
    /// a cheap fingerprint of the selector's bytes and confirmed by string equality: hashing
    /// with `Hasher`, or comparing every entry's selector with each cached one, cost more than
    /// writing the entry.
    private struct SelectorCache {
        private var fingerprints: [UInt64] = []
        private var names: [String] = []
        private var fragments: [[UInt8]] = []

        mutating func write(_ selector: String, _ e: inout ByteEmitter) {
            let fingerprint = Self.fingerprint(selector)
            for k in fingerprints.indices where fingerprints[k] == fingerprint && names[k] == selector {
                e.raw(fragments[k])
                return
            }
            let fragment = Self.known[selector] ?? Self.fragment(selector)
            fingerprints.append(fingerprint)
            names.append(selector)
            fragments.append(fragment)
            e.raw(fragment)
        }

        /// `,"selector":…,"swift":…` as written for `selector`.
        static func fragment(_ selector: String) -> [UInt8] {
            var h = ByteEmitter(capacity: 96)
            h.literal(",\"selector\":"); h.string(selector)
            h.literal(",\"swift\":"); h.string(SelectorNames.swift(selector))
            return h.bytes
        }

        /// The fragments of UIKit's own selectors, written once per process: every trace
        /// has a dozen of them, and deriving and escaping them again for each result was 6 %
        /// of encoding one (callgrind, 2026-11-24). Action selectors of the scene are derived
        /// per trace as before.
        static let known: [String: [UInt8]] = Dictionary(
            uniqueKeysWithValues: SelectorNames.knownSelectors.map { ($0, fragment($0)) })

        /// The length and the first and last eight bytes: selectors of one trace differ there.
        private static func fingerprint(_ s: String) -> UInt64 {
            let quick: UInt64? = s.utf8.withContiguousStorageIfAvailable { b -> UInt64 in
                let n = b.count
                guard n >= 8, let p = b.baseAddress else {
                    var h = UInt64(n)
                    for x in b { h = (h << 8) | UInt64(x) }
                    return h
                }
                let raw = UnsafeRawPointer(p)
                let first = raw.loadUnaligned(as: UInt64.self), last = raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
                return (first &* 0x9E37_79B9_7F4A_7C15) ^ (last &+ UInt64(n)) &* 0xC2B2_AE3D_27D4_EB4F
            }
            if let quick { return quick }
            var h: UInt64 = 0xCBF2_9CE4_8422_2325
            for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
            return h
        }
    }

    /// Where each view's `{"id":…,"class":…}` was first written in this trace, so that later
    /// mentions copy those bytes instead of escaping the two strings again: a trace names the
    /// same few views over and over (receivers of hit-tests and touches, results, arguments),
    /// and writing refs was a fifth of the trace's cost (callgrind, 2026-11-24). Offsets, not
    /// pointers: the emitter's memory moves when it grows. Scenes of more than `maxViews`
    /// views are written without it (a table that size per result would cost more than it
    /// saves).
    private struct ViewRefSpans {
        static let maxViews = 16_384
        /// `start << 16 | length` of the view's first ref, 0 before it is written.
        private var spans: [Int]

        init(viewCount: Int) {
            spans = viewCount <= Self.maxViews ? [Int](repeating: 0, count: viewCount) : []
        }

        mutating func write(_ view: Int, _ trace: TraceRecorder, _ e: inout ByteEmitter) {
            guard view < spans.count else { ResultJSON.ref(trace.viewRefs[view], &e); return }
            let span = spans[view]
            if span != 0 {
                e.again(from: span >> 16, length: span & 0xFFFF)
                return
            }
            let start = e.position
            ResultJSON.ref(trace.viewRefs[view], &e)
            let length = e.position - start
            if length < 0x10000 { spans[view] = start << 16 | length }
        }
    }

    private static func args(_ trace: TraceRecorder, _ r: TraceRecorder.Record, _ views: inout ViewRefSpans,
                             _ e: inout ByteEmitter) {
        e.byte(0x7B)
        // Read in place: iterating the slice copied each argument (its name and value
        // retained and released) before writing it.
        trace.args.withUnsafeBufferPointer { all in
            let start = Int(r.argStart)
            for k in start..<(start + Int(r.argCount)) {
                if k > start { e.byte(0x2C) }
                e.string(all[k].name)
                e.byte(0x3A)
                stored(all[k].value, trace, &views, &e)
            }
        }
        e.byte(0x7D)
    }

    private static func stored(_ v: TraceRecorder.StoredValue, _ trace: TraceRecorder, _ views: inout ViewRefSpans,
                               _ e: inout ByteEmitter) {
        switch v {
        case .view(let view): views.write(Int(view), trace, &e)
        case .value(let value): self.value(value, &e)
        }
    }

    private static func value(_ v: TraceValue, _ e: inout ByteEmitter) {
        switch v {
        case .null: e.literal("null")
        case .bool(let b): if b { e.literal("true") } else { e.literal("false") }
        case .number(let n): e.number(n)
        case .string(let s): e.string(s)
        case .point(let p): e.point(p)
        case .object(let r): ResultJSON.ref(r, &e)
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
                ResultJSON.ref(r, &e)
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
