import TapTraceCore
import TapTraceFormats
import TapTraceJSON

/// Reads a result document (`taptrace/result@1`, contract §3) back into a `DispatchResult`.
///
/// Why: the service stores each run's result as the bytes `ResultEncoder` wrote. Rendering a
/// stored run as text, exporting it as a Chrome trace, comparing two runs and replaying them all
/// need the typed result again, and the stored bytes are the record of what happened (the engine
/// may have changed since), so they are decoded rather than recomputed.
///
/// Decoding what `ResultEncoder` wrote gives back a result that encodes to the same bytes
/// (tested over every conformance case). The one ambiguity of the JSON form, an empty array
/// argument (no element shows whether it held strings, objects or touches), is resolved by the
/// argument's name.
public enum ResultDecoder {
    /// A result document that is not what `ResultEncoder` writes.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var pointer: String
        public var message: String
        public var description: String { "\(pointer.isEmpty ? "/" : pointer): \(message)" }
    }

    public static func decode(_ bytes: [UInt8]) throws(Failure) -> DispatchResult {
        let tape: JSONTape
        do { tape = try JSONTape(parsing: bytes) } catch {
            throw Failure(pointer: "", message: "not JSON: \(error)")
        }
        return try decode(tape, at: tape.root)
    }

    public static func decode(_ tape: JSONTape, at node: Int) throws(Failure) -> DispatchResult {
        var r = Reader(tape: tape)
        return try r.result(node)
    }

    private struct Reader {
        let tape: JSONTape

        func fail(_ pointer: String, _ message: String) -> Failure { Failure(pointer: pointer, message: message) }

        func members(_ node: Int, _ pointer: String) throws(Failure) -> [(String, Int)] {
            guard tape.kind(node) == .object else { throw fail(pointer, "expected an object") }
            return tape.members(node).map { (tape.string($0.key) ?? "", $0.value) }
        }

        /// The members of an object whose keys are `Key`'s; any other key fails.
        func members<Key: DocumentKey>(_ node: Int, _ pointer: String, _: Key.Type) throws(Failure) -> [(Key, Int)] {
            var out: [(Key, Int)] = []
            for (name, v) in try members(node, pointer) {
                guard let k = Key.names.index(of: name) else { throw fail(pointer.pointer(name), "unknown key") }
                out.append((Key.names.values[k], v))
            }
            return out
        }

        func elements(_ node: Int, _ pointer: String) throws(Failure) -> [Int] {
            guard tape.kind(node) == .array else { throw fail(pointer, "expected an array") }
            return Array(tape.elements(node))
        }

        func string(_ node: Int, _ pointer: String) throws(Failure) -> String {
            guard let s = tape.string(node) else { throw fail(pointer, "expected a string") }
            return s
        }

        func optionalString(_ node: Int, _ pointer: String) throws(Failure) -> String? {
            tape.kind(node) == .null ? nil : try string(node, pointer)
        }

        func number(_ node: Int, _ pointer: String) throws(Failure) -> Double {
            guard let n = tape.number(node) else { throw fail(pointer, "expected a number") }
            return n
        }

        func integer(_ node: Int, _ pointer: String) throws(Failure) -> Int {
            let n = try number(node, pointer)
            guard n == n.rounded(), abs(n) < 9e15 else { throw fail(pointer, "expected an integer") }
            return Int(n)
        }

        func bool(_ node: Int, _ pointer: String) throws(Failure) -> Bool {
            guard let b = tape.bool(node) else { throw fail(pointer, "expected true or false") }
            return b
        }

        func strings(_ node: Int, _ pointer: String) throws(Failure) -> [String] {
            var out: [String] = []
            for (i, e) in try elements(node, pointer).enumerated() { out.append(try string(e, pointer.pointer(i))) }
            return out
        }

        func word<E: RawRepresentable>(_ node: Int, _ pointer: String, as: E.Type) throws(Failure) -> E
        where E.RawValue == String {
            let s = try string(node, pointer)
            guard let value = E(rawValue: s) else { throw fail(pointer, "unknown value \"\(s)\"") }
            return value
        }

        func point(_ node: Int, _ pointer: String) throws(Failure) -> Point {
            let e = try elements(node, pointer)
            guard e.count == 2 else { throw fail(pointer, "expected [x, y]") }
            return Point(try number(e[0], pointer.pointer(0)), try number(e[1], pointer.pointer(1)))
        }

        func ref(_ node: Int, _ pointer: String) throws(Failure) -> ObjectRef? {
            if tape.kind(node) == .null { return nil }
            var id: String?, className: String?
            for (key, v) in try members(node, pointer, ObjectRefKey.self) {
                switch key {
                case .id: id = try string(v, pointer.pointer(key.rawValue))
                case .class: className = try string(v, pointer.pointer(key.rawValue))
                }
            }
            guard let id, let className else { throw fail(pointer, "expected {\"id\", \"class\"}") }
            return ObjectRef(id: id, className: className)
        }

        mutating func result(_ node: Int) throws(Failure) -> DispatchResult {
            var r = DispatchResult(firstResponder: nil, responderChain: [], touches: [], recognizers: [], actions: [],
                                   recorder: TraceRecorder(), knobs: Knobs(), input: [], until: nil)
            var entries: [TraceEntry] = []
            var seen: Set<ResultKey> = []
            var nonTouch = NonTouchSummary(keyResponder: .init(initial: nil, final: nil))
            for (key, v) in try members(node, "", ResultKey.self) {
                let p = "".pointer(key.rawValue)
                seen.insert(key)
                switch key {
                case .format:
                    guard try string(v, p) == DispatchResult.format else { throw fail(p, "expected \(DispatchResult.format)") }
                case .firstResponder: r.firstResponder = try ref(v, p)
                case .responderChain:
                    for (i, e) in try elements(v, p).enumerated() { r.responderChain.append(try chainLink(e, p.pointer(i))) }
                case .touches:
                    for (i, e) in try elements(v, p).enumerated() { r.touches.append(try touch(e, p.pointer(i))) }
                case .recognizers:
                    for (i, e) in try elements(v, p).enumerated() { r.recognizers.append(try recognizer(e, p.pointer(i))) }
                case .actions:
                    for (i, e) in try elements(v, p).enumerated() { r.actions.append(try action(e, p.pointer(i))) }
                case .keyResponder: nonTouch.keyResponder = try keyResponder(v, p)
                case .presses:
                    for (i, e) in try elements(v, p).enumerated() { nonTouch.presses.append(try press(e, p.pointer(i))) }
                case .motions:
                    for (i, e) in try elements(v, p).enumerated() { nonTouch.motions.append(try delivery(e, p.pointer(i), motion: true)) }
                case .remoteControls:
                    for (i, e) in try elements(v, p).enumerated() {
                        nonTouch.remoteControls.append(try delivery(e, p.pointer(i), motion: false))
                    }
                case .responderChanges:
                    for (i, e) in try elements(v, p).enumerated() {
                        nonTouch.responderChanges.append(try responderChange(e, p.pointer(i)))
                    }
                case .warnings:
                    for (i, e) in try elements(v, p).enumerated() {
                        var pointer = "", detail = ""
                        for (key, w) in try members(e, p.pointer(i), WarningKey.self) {
                            switch key {
                            case .pointer: pointer = try string(w, p.pointer(i).pointer(key.rawValue))
                            case .detail: detail = try string(w, p.pointer(i).pointer(key.rawValue))
                            }
                        }
                        r.warnings.append(ValidationIssue(pointer, detail))
                    }
                case .elements:
                    for (i, e) in try elements(v, p).enumerated() { r.elements.append(try element(e, p.pointer(i))) }
                case .trace:
                    for (i, e) in try elements(v, p).enumerated() { entries.append(try entry(e, p.pointer(i))) }
                case .knobs: r.knobs = try knobs(v, p)
                case .input: (r.input, r.until) = try input(v, p)
                }
            }
            for required: ResultKey in [.format, .firstResponder, .responderChain, .touches, .recognizers, .actions, .trace]
            where !seen.contains(required) {
                throw fail("".pointer(required.rawValue), "required")
            }
            // The non-touch summaries come together (contract §2.1): all five or none.
            if let present = ResultKey.nonTouch.first(where: { seen.contains($0) }) {
                if let missing = ResultKey.nonTouch.first(where: { !seen.contains($0) }) {
                    throw fail("".pointer(missing.rawValue), "required with \"\(present.rawValue)\"")
                }
                r.nonTouch = nonTouch
            }
            r.recorder = try recorder(entries)
            return r
        }

        func keyResponder(_ node: Int, _ pointer: String) throws(Failure) -> NonTouchSummary.KeyResponder {
            var k = NonTouchSummary.KeyResponder(initial: nil, final: nil)
            for (key, v) in try members(node, pointer, KeyResponderKey.self) {
                let p = pointer.pointer(key.rawValue)
                switch key {
                case .initial: k.initial = try optionalString(v, p)
                case .final: k.final = try optionalString(v, p)
                }
            }
            return k
        }

        /// An entry of `presses` (`ResultEncoder.writeNonTouch`).
        func press(_ node: Int, _ pointer: String) throws(Failure) -> NonTouchSummary.Press {
            var s = NonTouchSummary.Press(id: "", type: .keyboard, key: nil, responder: nil, source: nil, chain: [], delivered: [],
                                          handledBy: nil, keyCommand: nil, textInput: nil, recognizers: [], finalPhase: .began)
            var seen: Set<PressSummaryKey> = []
            for (key, v) in try members(node, pointer, PressSummaryKey.self) {
                let p = pointer.pointer(key.rawValue)
                seen.insert(key)
                switch key {
                case .id: s.id = try string(v, p)
                case .type: s.type = try word(v, p, as: PressType.self)
                case .key: s.key = try string(v, p)
                case .responder: s.responder = try optionalString(v, p)
                case .source: s.source = tape.kind(v) == .null ? nil : try word(v, p, as: NonTouchSummary.Source.self)
                case .chain: s.chain = try strings(v, p)
                case .delivered: s.delivered = try strings(v, p)
                case .handledBy: s.handledBy = try optionalString(v, p)
                case .keyCommand: s.keyCommand = try optionalString(v, p)
                case .textInput: s.textInput = try optionalString(v, p)
                case .recognizers: s.recognizers = try strings(v, p)
                case .finalPhase: s.finalPhase = try word(v, p, as: PressPhase.self)
                }
            }
            for required: PressSummaryKey in [.id, .type, .finalPhase] where !seen.contains(required) {
                throw fail(pointer.pointer(required.rawValue), "required")
            }
            return s
        }

        /// An entry of `motions` (with `phase`) or `remoteControls` (without).
        func delivery(_ node: Int, _ pointer: String, motion: Bool) throws(Failure) -> NonTouchSummary.Delivery {
            var d = NonTouchSummary.Delivery(t: 0, phase: nil, subtype: "", responder: nil, source: nil, chain: [],
                                             delivered: [], handledBy: nil)
            var seen: Set<DeliveryKey> = []
            for (key, v) in try members(node, pointer, DeliveryKey.self) {
                let p = pointer.pointer(key.rawValue)
                seen.insert(key)
                switch key {
                case .t: d.t = try number(v, p)
                case .phase:
                    guard motion else { throw fail(p, "unknown key: a remote-control event has no phase") }
                    d.phase = try word(v, p, as: MotionPhase.self)
                case .subtype:
                    d.subtype = try string(v, p)
                    let known = motion ? MotionSubtype(rawValue: d.subtype) != nil : RemoteControlSubtype(rawValue: d.subtype) != nil
                    guard known else { throw fail(p, "unknown value \"\(d.subtype)\"") }
                case .responder: d.responder = try optionalString(v, p)
                case .source: d.source = tape.kind(v) == .null ? nil : try word(v, p, as: NonTouchSummary.Source.self)
                case .chain: d.chain = try strings(v, p)
                case .delivered: d.delivered = try strings(v, p)
                case .handledBy: d.handledBy = try optionalString(v, p)
                case .dropped: d.dropped = try bool(v, p)
                }
            }
            for required: DeliveryKey in motion ? [.t, .phase, .subtype] : [.t, .subtype] where !seen.contains(required) {
                throw fail(pointer.pointer(required.rawValue), "required")
            }
            return d
        }

        func responderChange(_ node: Int, _ pointer: String) throws(Failure) -> NonTouchSummary.ResponderChange {
            var c = NonTouchSummary.ResponderChange(t: 0, call: "", receiver: "", result: false, from: nil, to: nil)
            var seen: Set<ResponderChangeKey> = []
            for (key, v) in try members(node, pointer, ResponderChangeKey.self) {
                let p = pointer.pointer(key.rawValue)
                seen.insert(key)
                switch key {
                case .t: c.t = try number(v, p)
                case .call:
                    c.call = try string(v, p)
                    guard c.call == "become" || c.call == "resign" else { throw fail(p, "unknown value \"\(c.call)\"") }
                case .receiver: c.receiver = try string(v, p)
                case .result: c.result = try bool(v, p)
                case .from: c.from = try optionalString(v, p)
                case .to: c.to = try optionalString(v, p)
                }
            }
            for required: ResponderChangeKey in [.t, .call, .receiver, .result] where !seen.contains(required) {
                throw fail(pointer.pointer(required.rawValue), "required")
            }
            return c
        }

        /// An element check of `elements` (as `ResultEncoder.writeElement` writes it).
        func element(_ node: Int, _ pointer: String) throws(Failure) -> ElementCheck {
            var gesture: Int?, view: String?, point: Point?, hittable: Bool?, hitTestView: String?
            var reasons: [ElementCheck.Reason] = []
            for (key, v) in try members(node, pointer, ElementCheckKey.self) {
                let p = pointer.pointer(key.rawValue)
                switch key {
                case .gesture: gesture = try integer(v, p)
                case .view: view = try string(v, p)
                case .point: point = try self.point(v, p)
                case .hittable: hittable = try bool(v, p)
                case .hitTestView: hitTestView = try optionalString(v, p)
                case .reasons:
                    for (i, e) in try elements(v, p).enumerated() {
                        var rule = "", kind = "", text = ""
                        for (rkey, rv) in try members(e, p.pointer(i), ElementReasonKey.self) {
                            let rp = p.pointer(i).pointer(rkey.rawValue)
                            switch rkey {
                            case .rule: rule = try string(rv, rp)
                            case .kind: kind = try string(rv, rp)
                            case .text: text = try string(rv, rp)
                            }
                        }
                        reasons.append(ElementCheck.Reason(rule: rule, kind: kind, text: text))
                    }
                }
            }
            guard let gesture, let view, let point, let hittable else {
                throw fail(pointer, "expected {gesture, view, point, hittable, hitTestView, reasons}")
            }
            return ElementCheck(gesture: gesture, view: view, point: point, hittable: hittable,
                                hitTestView: hitTestView, reasons: reasons)
        }

        /// Records the decoded entries again, so the result carries a trace like a fresh run's.
        /// Nesting is rebuilt with push/pop from each entry's `parent` (entries come in pre-order:
        /// a parent is either still open or the entry just before).
        func recorder(_ entries: [TraceEntry]) throws(Failure) -> TraceRecorder {
            var recorder = TraceRecorder()
            var open: [Int] = []
            for (i, e) in entries.enumerated() {
                let pointer = "/trace".pointer(i)
                guard e.seq == i + 1 else { throw fail(pointer.pointer("seq"), "expected \(i + 1)") }
                if let parent = e.parent, parent == i, open.last != parent { open.append(parent); recorder.push(parent) }
                while let top = open.last, top != e.parent { open.removeLast(); recorder.pop() }
                guard open.last == e.parent, open.count == e.depth else {
                    throw fail(pointer, "parent \(e.parent.map(String.init) ?? "null") and depth \(e.depth) do not nest")
                }
                recorder.t = e.t
                recorder.cause = e.cause
                switch e.kind {
                case .call:
                    guard let receiver = e.receiver, let selector = e.selector else {
                        throw fail(pointer, "a call needs a receiver and a selector")
                    }
                    recorder.call(receiver, selector, e.args, result: e.result, note: e.note)
                case .marker:
                    guard let marker = e.marker else { throw fail(pointer.pointer("marker"), "required") }
                    recorder.marker(marker, e.receiver, e.args, note: e.note)
                case .state:
                    guard let receiver = e.receiver, let from = e.from, let to = e.to else {
                        throw fail(pointer, "a state change needs a receiver, from and to")
                    }
                    recorder.state(receiver, from: from, to: to, reason: e.reason ?? "", discrete: e.discrete, note: e.note)
                }
            }
            return recorder
        }

        func chainLink(_ node: Int, _ pointer: String) throws(Failure) -> DispatchResult.ChainLink {
            var id = "", className = "", role = ""
            for (key, v) in try members(node, pointer, ChainLinkKey.self) {
                switch key {
                case .id: id = try string(v, pointer.pointer(key.rawValue))
                case .class: className = try string(v, pointer.pointer(key.rawValue))
                case .role: role = try string(v, pointer.pointer(key.rawValue))
                }
            }
            return DispatchResult.ChainLink(ref: ObjectRef(id: id, className: className), role: role)
        }

        func touch(_ node: Int, _ pointer: String) throws(Failure) -> DispatchResult.TouchSummary {
            var t = DispatchResult.TouchSummary(id: "", window: nil, hitTestView: nil, recognizers: [], refused: nil,
                                                finalPhase: .began, cancelledBy: nil)
            for (key, v) in try members(node, pointer, TouchSummaryKey.self) {
                let p = pointer.pointer(key.rawValue)
                switch key {
                case .id: t.id = try string(v, p)
                case .window: t.window = try optionalString(v, p)
                case .hitTestView: t.hitTestView = try optionalString(v, p)
                case .recognizers: t.recognizers = try strings(v, p)
                case .refused: t.refused = tape.kind(v) == .null ? nil : try word(v, p, as: TouchRefusal.self)
                case .finalPhase: t.finalPhase = try word(v, p, as: TouchPhase.self)
                case .cancelledBy: t.cancelledBy = try optionalString(v, p)
                }
            }
            return t
        }

        func recognizer(_ node: Int, _ pointer: String) throws(Failure) -> DispatchResult.RecognizerSummary {
            var g = DispatchResult.RecognizerSummary(id: "", className: "", view: "", states: [])
            for (key, v) in try members(node, pointer, RecognizerSummaryKey.self) {
                let p = pointer.pointer(key.rawValue)
                switch key {
                case .id: g.id = try string(v, p)
                case .class: g.className = try string(v, p)
                case .view: g.view = try string(v, p)
                case .states:
                    for (i, e) in try elements(v, p).enumerated() {
                        g.states.append(try word(e, p.pointer(i), as: RecognizerState.self))
                    }
                }
            }
            return g
        }

        func action(_ node: Int, _ pointer: String) throws(Failure) -> ActionRecord {
            var a = ActionRecord(t: 0, action: "", sender: "", target: nil, via: .target, events: nil, state: nil)
            for (key, v) in try members(node, pointer, ActionKey.self) {
                let p = pointer.pointer(key.rawValue)
                switch key {
                case .t: a.t = try number(v, p)
                case .action: a.action = try string(v, p)
                case .sender: a.sender = try string(v, p)
                case .target: a.target = try string(v, p)
                case .via: a.via = try word(v, p, as: ActionRecord.Via.self)
                case .events:
                    var events: [ControlEvent] = []
                    for (i, e) in try elements(v, p).enumerated() { events.append(try word(e, p.pointer(i), as: ControlEvent.self)) }
                    a.events = events
                case .state: a.state = try word(v, p, as: RecognizerState.self)
                }
            }
            return a
        }

        func knobs(_ node: Int, _ pointer: String) throws(Failure) -> Knobs {
            var k = Knobs()
            for (key, v) in try members(node, pointer) {
                let value: KnobValue
                switch tape.kind(v) {
                case .bool: value = .bool(tape.bool(v)!)
                case .number: value = .number(try number(v, pointer.pointer(key)))
                case .string: value = .string(tape.string(v)!)
                default: throw fail(pointer.pointer(key), "expected a knob value")
                }
                if let problem = k.set(key, value) { throw fail(pointer.pointer(key), problem) }
            }
            return k
        }

        func input(_ node: Int, _ pointer: String) throws(Failure) -> ([TouchRecord], Double?) {
            var records: [TouchRecord] = []
            var until: Double?
            for (key, v) in try members(node, pointer, TouchesKey.self) {
                let p = pointer.pointer(key.rawValue)
                switch key {
                case .format: _ = try string(v, p)
                case .until: until = try number(v, p)
                case .events:
                    for (i, e) in try elements(v, p).enumerated() { records.append(try record(e, p.pointer(i))) }
                case .gestures: throw fail(p, "unknown key")   // the input is as dispatched: gestures expanded
                }
            }
            return (records, until)
        }

        func record(_ node: Int, _ pointer: String) throws(Failure) -> TouchRecord {
            var r = TouchRecord(t: 0, touches: [])
            for (key, v) in try members(node, pointer, TouchRecordKey.self) {
                let p = pointer.pointer(key.rawValue)
                if key != .t, key != .touches, r.nonTouch != nil { throw fail(p, "a record carries one kind") }
                switch key {
                case .t: r.t = try number(v, p)
                case .presses:
                    var presses: [PressChange] = []
                    for (i, e) in try elements(v, p).enumerated() {
                        let s = try pressSnapshot(e, p.pointer(i))
                        presses.append(PressChange(id: s.id, phase: s.phase, type: s.type, key: s.key))
                    }
                    r.nonTouch = .presses(presses)
                case .motion:
                    var m = MotionChange(phase: .began)
                    for (mk, mv) in try members(v, p, MotionRecordKey.self) {
                        switch mk {
                        case .subtype: m.subtype = try word(mv, p.pointer(mk.rawValue), as: MotionSubtype.self)
                        case .phase: m.phase = try word(mv, p.pointer(mk.rawValue), as: MotionPhase.self)
                        }
                    }
                    r.nonTouch = .motion(m)
                case .remoteControl:
                    var subtype: RemoteControlSubtype?
                    for (rk, rv) in try members(v, p, RemoteControlRecordKey.self) {
                        switch rk {
                        case .subtype: subtype = try word(rv, p.pointer(rk.rawValue), as: RemoteControlSubtype.self)
                        }
                    }
                    guard let subtype else { throw fail(p.pointer("subtype"), "required") }
                    r.nonTouch = .remoteControl(subtype)
                case .responder:
                    let calls = try members(v, p, ResponderCallKey.self)
                    guard calls.count == 1, let call = calls.first else { throw fail(p, "expected {\"become\": id} or {\"resign\": id}") }
                    let ck = call.0
                    let id = try string(call.1, p.pointer(ck.rawValue))
                    switch ck {
                    case .become: r.nonTouch = .responder(.become(id))
                    case .resign: r.nonTouch = .responder(.resign(id))
                    }
                case .touches:
                    for (i, e) in try elements(v, p).enumerated() {
                        let cp = p.pointer(i)
                        var c = TouchChange(id: "", phase: .began, at: nil)
                        for (ck, cv) in try members(e, cp, TouchChangeKey.self) {
                            switch ck {
                            case .id: c.id = try string(cv, cp.pointer(ck.rawValue))
                            case .phase: c.phase = try word(cv, cp.pointer(ck.rawValue), as: TouchPhase.self)
                            case .at: c.at = try point(cv, cp.pointer(ck.rawValue))
                            case .type: c.type = try word(cv, cp.pointer(ck.rawValue), as: TouchType.self)
                            }
                        }
                        r.touches.append(c)
                    }
                }
            }
            return r
        }

        func entry(_ node: Int, _ pointer: String) throws(Failure) -> TraceEntry {
            var e = TraceEntry(seq: 0, t: 0, cause: .input, kind: .call, depth: 0, parent: nil)
            for (key, v) in try members(node, pointer, TraceEntryKey.self) {
                let p = pointer.pointer(key.rawValue)
                switch key {
                case .seq: e.seq = try integer(v, p)
                case .t: e.t = try number(v, p)
                case .cause:
                    let text = try string(v, p)
                    if text == "input" { e.cause = .input }
                    else if text.hasPrefix("timer:") { e.cause = .timer(String(text.dropFirst(6))) }
                    else { throw fail(p, "unknown cause \"\(text)\"") }
                case .kind: e.kind = try word(v, p, as: TraceEntry.Kind.self)
                case .receiver: e.receiver = try ref(v, p)
                case .selector: e.selector = try string(v, p)
                case .swift: break  // derived from the selector (SelectorNames)
                case .args:
                    for (name, a) in try members(v, p) { e.args.append(TraceArg(name, try value(a, p.pointer(name), name: name))) }
                case .result: e.result = tape.kind(v) == .null ? nil : try value(v, p, name: "result")
                case .from: e.from = tape.kind(v) == .null ? nil : try word(v, p, as: RecognizerState.self)
                case .to: e.to = tape.kind(v) == .null ? nil : try word(v, p, as: RecognizerState.self)
                case .reason: e.reason = try optionalString(v, p)
                case .discrete: e.discrete = try bool(v, p)
                case .marker: e.marker = tape.kind(v) == .null ? nil : try word(v, p, as: MarkerKind.self)
                case .depth: e.depth = try integer(v, p)
                case .parent: e.parent = tape.kind(v) == .null ? nil : try integer(v, p)
                case .note: e.note = try string(v, p)
                }
            }
            return e
        }

        /// A call argument or result. Empty arrays take their element type from the name.
        func value(_ node: Int, _ pointer: String, name: String) throws(Failure) -> TraceValue {
            switch tape.kind(node) {
            case .null: return .null
            case .bool: return .bool(tape.bool(node)!)
            case .number: return .number(try number(node, pointer))
            case .string: return .string(tape.string(node)!)
            case .object:
                guard let r = try ref(node, pointer) else { return .null }
                return .object(r)
            case .array:
                let items = try elements(node, pointer)
                guard let first = items.first else {
                    switch name {
                    case "touches", "touch": return .touches([])
                    case "presses": return .presses([])
                    // Key command ids (KC5's markers) are strings, not objects of the scene.
                    case "events", "phases", "searched", "shadowed": return .strings([])
                    default: return .objects([])
                    }
                }
                switch tape.kind(first) {
                case .number: return .point(try point(node, pointer))
                case .string: return .strings(try strings(node, pointer))
                case .object:
                    // A press has a type, a touch a tap count (both have a phase).
                    if tape.members(first).contains(where: { tape.stringEquals($0.key, "type") }) {
                        var presses: [PressSnapshot] = []
                        for (i, e) in items.enumerated() { presses.append(try pressSnapshot(e, pointer.pointer(i))) }
                        return .presses(presses)
                    }
                    if tape.members(first).contains(where: { tape.stringEquals($0.key, "phase") }) {
                        var touches: [TouchSnapshot] = []
                        for (i, e) in items.enumerated() { touches.append(try snapshot(e, pointer.pointer(i))) }
                        return .touches(touches)
                    }
                    var refs: [ObjectRef] = []
                    for (i, e) in items.enumerated() {
                        guard let r = try ref(e, pointer.pointer(i)) else { throw fail(pointer.pointer(i), "expected an object") }
                        refs.append(r)
                    }
                    return .objects(refs)
                default: throw fail(pointer, "unexpected array element")
                }
            }
        }

        /// A press as records and calls show it: `{id, phase, type, key}`.
        func pressSnapshot(_ node: Int, _ pointer: String) throws(Failure) -> PressSnapshot {
            var s = PressSnapshot(id: "", phase: .began, type: .keyboard, key: nil)
            var seen: Set<PressChangeKey> = []
            for (key, v) in try members(node, pointer, PressChangeKey.self) {
                let p = pointer.pointer(key.rawValue)
                seen.insert(key)
                switch key {
                case .id: s.id = try string(v, p)
                case .phase: s.phase = try word(v, p, as: PressPhase.self)
                case .type: s.type = try word(v, p, as: PressType.self)
                case .key: s.key = try keyInput(v, p)
                }
            }
            for required: PressChangeKey in [.id, .phase, .type] where !seen.contains(required) {
                throw fail(pointer.pointer(required.rawValue), "required")
            }
            return s
        }

        func keyInput(_ node: Int, _ pointer: String) throws(Failure) -> KeyInput {
            var characters: String?, ignoring: String?, keyCode: String?, flags: [KeyModifierFlag]?
            for (key, v) in try members(node, pointer, KeyInputKey.self) {
                let p = pointer.pointer(key.rawValue)
                switch key {
                case .characters: characters = try string(v, p)
                case .charactersIgnoringModifiers: ignoring = try string(v, p)
                case .keyCode: keyCode = try string(v, p)
                case .modifierFlags:
                    var list: [KeyModifierFlag] = []
                    for (i, e) in try elements(v, p).enumerated() { list.append(try word(e, p.pointer(i), as: KeyModifierFlag.self)) }
                    flags = list
                }
            }
            guard let characters, let ignoring, let keyCode, let flags else {
                throw fail(pointer, "expected {characters, charactersIgnoringModifiers, keyCode, modifierFlags}")
            }
            return KeyInput(characters: characters, charactersIgnoringModifiers: ignoring, keyCode: keyCode, modifierFlags: flags)
        }

        func snapshot(_ node: Int, _ pointer: String) throws(Failure) -> TouchSnapshot {
            var s = TouchSnapshot(id: "", phase: .began, tapCount: 0, inWindow: .zero, inReceiver: nil)
            for (key, v) in try members(node, pointer, TouchSnapshotKey.self) {
                let p = pointer.pointer(key.rawValue)
                switch key {
                case .id: s.id = try string(v, p)
                case .phase: s.phase = try word(v, p, as: TouchPhase.self)
                case .tapCount: s.tapCount = try integer(v, p)
                case .inWindow: s.inWindow = try point(v, p)
                case .inReceiver: s.inReceiver = try point(v, p)
                }
            }
            return s
        }
    }
}

/// One of a result's `warnings`.
private enum WarningKey: String, DocumentKey {
    case pointer, detail
    static let names = NameTable<Self>()
}
