import TapTraceCore
import TapTraceJSON

/// The trace array of a result, written with a `ByteEmitter`: a trace is most of a result's
/// bytes, its entries all have the same shape, and the same receivers, selectors and argument
/// names come back again and again. Writing it through the general `JSONWriter` (state per
/// container, a call per key) cost ten times the bytes (docs/performance.md). Only the compact
/// form is written this way; `ResultEncoder.writeTrace` keeps the `JSONWriter` path for
/// indented output.
///
/// What repeats is copied, not escaped again: UIKit selectors and argument names from tables
/// written once per process; each object's `{"id":…,"class":…}` from the scene's
/// `SceneRefsJSON` when the caller keeps one, otherwise from where the trace first wrote it (a
/// trace names a few dozen objects over and over; escaping their two strings for each mention
/// was a fifth of encoding it); each update's `,"t":…,"cause":…` from its first mention.
enum TraceJSON {
    /// `,"selector":…,"swift":…` of each UIKit selector, by raw value.
    private static let selectors = JSONFragments(count: UIKitSelector.allCases.count, bytesPerFragment: 96) { k, e in
        let names = UIKitSelector.allCases[k].names
        selector(names.objc, swift: names.swift, &e)
    }

    /// `"name":` of each argument name, by raw value.
    private static let argumentNames = JSONFragments(count: TraceArgName.allCases.count, bytesPerFragment: 24) { k, e in
        e.string(TraceArgName.texts[k])
        e.byte(0x3A)
    }

    private static func selector(_ objc: String, swift: String, _ e: inout ByteEmitter) {
        e.literal(",\"selector\":"); e.string(objc)
        e.literal(",\"swift\":"); e.string(swift)
    }

    /// Writes the trace array at the end of `e`.
    static func write(_ trace: TraceRecorder, refs: SceneRefsJSON?, _ e: inout ByteEmitter) {
        let selectors = self.selectors, argumentNames = self.argumentNames
        var actions = ActionSelectors()
        var objects = ObjectSpans(refs: refs.flatMap { $0.objects === trace.objects ? $0.json : nil })
        // `start << 16 | length` of each update's `,"t":…,"cause":…`, 0 before it is written.
        var updates = [Int](repeating: 0, count: trace.updates.count)
        e.byte(0x5B)
        trace.records.withUnsafeBufferPointer { records in
            for (i, r) in records.enumerated() {
                if i > 0 { e.byte(0x2C) }
                e.literal("{\"seq\":"); e.integer(i + 1)
                let span = updates[Int(r.update)]
                if span != 0 {
                    e.again(from: span >> 16, length: span & 0xFFFF)
                } else {
                    let start = e.position
                    let update = trace.updates[Int(r.update)]
                    e.literal(",\"t\":"); e.number(update.t)
                    e.literal(",\"cause\":")
                    switch update.cause {
                    case .input: e.literal("\"input\"")
                    case .timer: e.string(update.cause.text)
                    }
                    let length = e.position - start
                    if length < 0x10000 { updates[Int(r.update)] = start << 16 | length }
                }
                switch r.kind {
                case .call: e.literal(",\"kind\":\"call\",\"receiver\":")
                case .state: e.literal(",\"kind\":\"state\",\"receiver\":")
                case .marker: e.literal(",\"kind\":\"marker\",\"receiver\":")
                }
                object(r.receiver, trace, &objects, &e)
                switch r.kind {
                case .call:
                    switch r.selector {
                    case .uikit(let known): selectors.write(Int(known.rawValue), &e)
                    case .action(let k): actions.write(trace.texts[Int(k)], &e)
                    }
                    e.literal(",\"args\":"); args(trace, r, argumentNames, &objects, &e)
                    e.literal(",\"result\":")
                    if let result = r.result { value(result, trace, &objects, &e) } else { e.literal("null") }
                case .state:
                    e.literal(",\"from\":"); ResultJSON.word(r.from?.rawValue, &e)
                    e.literal(",\"to\":"); ResultJSON.word(r.to?.rawValue, &e)
                    e.literal(",\"reason\":"); ResultJSON.optional(trace.reason(r), &e)
                    if r.discrete { e.literal(",\"discrete\":true") }
                case .marker:
                    e.literal(",\"marker\":"); ResultJSON.word(r.marker?.rawValue, &e)
                    e.literal(",\"args\":"); args(trace, r, argumentNames, &objects, &e)
                }
                e.literal(",\"depth\":"); e.integer(Int(r.depth))
                e.literal(",\"parent\":")
                if r.parent != 0 { e.integer(Int(r.parent)) } else { e.literal("null") }
                if r.note >= 0 {
                    e.literal(",\"note\":")
                    trace.noteBytes.withUnsafeBufferPointer { notes in
                        e.string(utf8: UnsafeBufferPointer(rebasing: notes[Int(r.note)..<Int(r.note + r.noteLength)]))
                    }
                }
                e.byte(0x7D)
            }
        }
        e.byte(0x5D)
    }

    /// `,"selector":…,"swift":…` of the action selectors of one trace (a few at most): derived
    /// (`SelectorNames.swift`) and written where first needed, copied from there afterwards.
    private struct ActionSelectors {
        private var names: [String] = []
        /// `start << 16 | length` of each one's fragment in the output.
        private var spans: [Int] = []

        mutating func write(_ selector: String, _ e: inout ByteEmitter) {
            for k in names.indices where names[k] == selector {
                e.again(from: spans[k] >> 16, length: spans[k] & 0xFFFF)
                return
            }
            let start = e.position
            TraceJSON.selector(selector, swift: SelectorNames.swift(selector), &e)
            let length = e.position - start
            if length < 0x10000 {
                names.append(selector)
                spans.append(start << 16 | length)
            }
        }
    }

    /// Where each object of the scene was first written in the output (`start << 16 | length`),
    /// for the few dozen a trace names: a direct-mapped table by object number, so that a
    /// mention costs a lookup and a copy whatever the scene's size. An object whose slot another
    /// took is written again in full, and takes the slot.
    private struct ObjectSpans: ~Copyable {
        private static let slots = 128
        /// The scene's refs written once, when the caller keeps them.
        private let refs: JSONFragments?
        /// Object numbers and their spans by slot; allocated only without `refs`.
        private let keys: UnsafeMutablePointer<Int32>?
        private let spans: UnsafeMutablePointer<Int>?

        init(refs: JSONFragments?) {
            self.refs = refs
            if refs == nil {
                let keys = UnsafeMutablePointer<Int32>.allocate(capacity: Self.slots)
                keys.initialize(repeating: -1, count: Self.slots)
                self.keys = keys
                spans = .allocate(capacity: Self.slots)
            } else {
                keys = nil
                spans = nil
            }
        }

        deinit {
            keys?.deallocate()
            spans?.deallocate()
        }

        /// Writes object `raw` (≥ 0): copied from the scene's refs, or from its first mention,
        /// or written and remembered.
        mutating func write(_ raw: Int32, _ trace: TraceRecorder, _ e: inout ByteEmitter) {
            guard let keys, let spans else { refs!.write(Int(raw), &e); return }
            let slot = Int(raw) & (Self.slots - 1)
            if keys[slot] == raw {
                e.again(from: spans[slot] >> 16, length: spans[slot] & 0xFFFF)
                return
            }
            let start = e.position
            ResultJSON.ref(trace.objects.ref(Int(raw)), &e)
            let length = e.position - start
            if length < 0x10000 {
                keys[slot] = raw
                spans[slot] = start << 16 | length
            }
        }
    }

    private static func object(_ o: TraceObject, _ trace: TraceRecorder, _ objects: inout ObjectSpans,
                               _ e: inout ByteEmitter) {
        if o.raw >= 0 { objects.write(o.raw, trace, &e) } else { ResultJSON.ref(trace.ref(o), &e) }
    }

    private static func args(_ trace: TraceRecorder, _ r: TraceRecorder.Record, _ names: JSONFragments,
                             _ objects: inout ObjectSpans, _ e: inout ByteEmitter) {
        e.byte(0x7B)
        // Read in place: iterating a slice copied each argument before writing it.
        trace.args.withUnsafeBufferPointer { all in
            let start = Int(r.argStart)
            for k in start..<(start + Int(r.argCount)) {
                if k > start { e.byte(0x2C) }
                let name = all[k].name
                if name >= 0 {
                    names.write(Int(name), &e)
                } else {
                    e.string(trace.texts[Int(-1 - name)])
                    e.byte(0x3A)
                }
                value(all[k].value, trace, &objects, &e)
            }
        }
        e.byte(0x7D)
    }

    private static func value(_ v: TraceRecorder.Value, _ trace: TraceRecorder, _ objects: inout ObjectSpans,
                              _ e: inout ByteEmitter) {
        switch v {
        case .null: e.literal("null")
        case .bool(let b): if b { e.literal("true") } else { e.literal("false") }
        case .number(let n): e.number(n)
        case .point(let p): ResultJSON.point(p, &e)
        case .text(let k): e.string(trace.texts[Int(k)])
        case .word(let w): e.byte(0x22); e.literal(w); e.byte(0x22)
        case .event(let n): e.literal("\"E"); e.integer(Int(n)); e.byte(0x22)
        case .object(let o): object(o, trace, &objects, &e)
        case .objects(let start, let count):
            e.byte(0x5B)
            for k in start..<(start + count) {
                if k > start { e.byte(0x2C) }
                object(trace.objectLists[Int(k)], trace, &objects, &e)
            }
            e.byte(0x5D)
        case .texts(let start, let count):
            e.byte(0x5B)
            for k in start..<(start + count) {
                if k > start { e.byte(0x2C) }
                e.string(trace.texts[Int(k)])
            }
            e.byte(0x5D)
        case .touches(let start, let count):
            e.byte(0x5B)
            trace.snapshots.withUnsafeBufferPointer { snapshots in
                for k in Int(start)..<Int(start + count) {
                    if k > Int(start) { e.byte(0x2C) }
                    let t = snapshots[k]
                    e.literal("{\"id\":"); e.string(trace.texts[Int(t.id)])
                    e.literal(",\"phase\":"); e.unescaped(t.phase.rawValue)
                    e.literal(",\"tapCount\":"); e.integer(t.tapCount)
                    e.literal(",\"inWindow\":"); ResultJSON.point(t.inWindow, &e)
                    if let p = t.inReceiver { e.literal(",\"inReceiver\":"); ResultJSON.point(p, &e) }
                    e.byte(0x7D)
                }
            }
            e.byte(0x5D)
        case .presses(let start, let count):
            // Off the touch path: written through the writer, the same bytes as `ResultEncoder`.
            var w = JSONWriter()
            ResultEncoder.writeValue(.presses(Array(trace.pressSnapshots[Int(start)..<Int(start + count)])), to: &w)
            w.bytes.withUnsafeBufferPointer { e.append($0) }
        }
    }
}
