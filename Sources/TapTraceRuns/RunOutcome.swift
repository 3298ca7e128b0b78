import TapTraceCore
import TapTraceFormats
import TapTraceJSON

/// What a run did, without how: the part of a result that decides whether a layout change
/// "changed the outcome" (replay) and that history queries filter on.
///
/// It holds the first responder, the responder chain, each touch's hit-test view, refusal,
/// final phase and cancelling recognizer, every collected recognizer's state list, and the
/// actions. The trace is deliberately left out: a new layout can add a hit-test call or two
/// without the app behaving any differently.
public struct RunOutcome: Sendable, Hashable {
    public struct Touch: Sendable, Hashable {
        public var id: String
        public var hitTestView: String?
        public var refused: String?
        public var finalPhase: String
        public var cancelledBy: String?
    }

    public struct Recognizer: Sendable, Hashable {
        public var id: String
        public var states: [String]
    }

    public struct Action: Sendable, Hashable {
        public var t: Double
        public var action: String
        public var sender: String
        public var target: String?
        public var via: String

        /// `buyTapped: from buyButton to checkoutVC (target) at t=0.100`
        public var text: String {
            "\(action) from \(sender) to \(target ?? "nobody") (\(via)) at t=\(TextRenderer.time(t))"
        }
    }

    /// What became of the non-touch events (contract §2.1): who they went to and who handled
    /// them; nil for touch-only runs.
    public struct NonTouch: Sendable, Hashable {
        public struct Press: Sendable, Hashable {
            public var id: String
            public var responder: String?
            public var handledBy: String?
            public var keyCommand: String?
            public var textInput: String?
            public var finalPhase: String
        }
        /// A shake's or remote-control event's delivery, in input order.
        public struct Delivery: Sendable, Hashable {
            public var name: String
            public var responder: String?
            public var handledBy: String?
        }
        public struct ResponderChange: Sendable, Hashable {
            public var name: String
            public var result: Bool
            public var to: String?
        }
        public var keyResponder: String?
        public var presses: [Press]
        public var motions: [Delivery]
        public var remoteControls: [Delivery]
        public var responderChanges: [ResponderChange]

        init(_ summary: NonTouchSummary) {
            keyResponder = summary.keyResponder.final
            presses = summary.presses.map {
                Press(id: $0.id, responder: $0.responder, handledBy: $0.handledBy, keyCommand: $0.keyCommand,
                      textInput: $0.textInput, finalPhase: $0.finalPhase.rawValue)
            }
            motions = summary.motions.map { Delivery(name: Self.name($0), responder: $0.responder, handledBy: $0.handledBy) }
            remoteControls = summary.remoteControls.map { Delivery(name: Self.name($0), responder: $0.responder, handledBy: $0.handledBy) }
            responderChanges = summary.responderChanges.map {
                ResponderChange(name: Self.name($0), result: $0.result, to: $0.to)
            }
        }

        /// `shake began at t=0.000`, `togglePlayPause at t=0.500`.
        static func name(_ d: NonTouchSummary.Delivery) -> String {
            (d.phase.map { "\(d.subtype) \($0.rawValue)" } ?? d.subtype) + " at t=\(TextRenderer.time(d.t))"
        }

        /// `become TF at t=0.100`.
        static func name(_ c: NonTouchSummary.ResponderChange) -> String {
            "\(c.call) \(c.receiver) at t=\(TextRenderer.time(c.t))"
        }
    }

    public var firstResponder: ObjectRef?
    /// `id` per link; a cycle (R7) is written `(cycle at id)`.
    public var responderChain: [String]
    public var touches: [Touch]
    public var recognizers: [Recognizer]
    public var actions: [Action]
    public var nonTouch: NonTouch?

    public init(_ result: DispatchResult) {
        firstResponder = result.firstResponder
        responderChain = result.responderChain.map(Self.chainText)
        touches = result.touches.map {
            Touch(id: $0.id, hitTestView: $0.hitTestView, refused: $0.refused?.rawValue,
                  finalPhase: $0.finalPhase.rawValue, cancelledBy: $0.cancelledBy)
        }
        recognizers = result.recognizers.map { Recognizer(id: $0.id, states: $0.states.map(\.rawValue)) }
        actions = result.actions.map {
            Action(t: $0.t, action: $0.action, sender: $0.sender, target: $0.target, via: $0.via.rawValue)
        }
        nonTouch = result.nonTouch.map(NonTouch.init)
        canonicalJSON = Self.canonicalJSON(of: result)
    }

    /// The outcome as canonical JSON: fixed key order, so equal outcomes give equal bytes.
    public let canonicalJSON: [UInt8]

    /// `canonicalJSON` of `RunOutcome(result)`, written straight from the result: a stored
    /// dispatch needs only the digest, and building the outcome's arrays and strings first cost
    /// as much as writing the JSON. Written with a `ByteEmitter`, which
    /// writes what `JSONWriter` writes for the same values: through `JSONWriter` (container
    /// state and a uniqueness check per call) it cost about three times as many instructions,
    /// once per stored dispatch. The bytes must never change: stored runs keep
    /// their digests (`digestIsStable`; `CompactEncodingTests` compares every conformance
    /// case with the outcome's fields written by `JSONWriter`).
    public static func canonicalJSON(of result: DispatchResult) -> [UInt8] {
        ByteEmitter.array(capacity: 256 + 48 * result.responderChain.count + 160 * result.touches.count
                          + 96 * result.recognizers.count + 160 * result.actions.count) { e in
            e.literal("{\"firstResponder\":"); ResultJSON.ref(result.firstResponder, &e)
            e.literal(",\"responderChain\":[")
            for (k, link) in result.responderChain.enumerated() {
                if k > 0 { e.byte(0x2C) }
                e.string(chainText(link))
            }
            e.literal("],\"touches\":[")
            for (k, t) in result.touches.enumerated() {
                if k > 0 { e.byte(0x2C) }
                e.literal("{\"id\":"); e.string(t.id)
                e.literal(",\"hitTestView\":"); ResultJSON.optional(t.hitTestView, &e)
                e.literal(",\"refused\":"); ResultJSON.optional(t.refused?.rawValue, &e)
                e.literal(",\"finalPhase\":"); e.string(t.finalPhase.rawValue)
                e.literal(",\"cancelledBy\":"); ResultJSON.optional(t.cancelledBy, &e)
                e.byte(0x7D)
            }
            e.literal("],\"recognizers\":[")
            for (k, g) in result.recognizers.enumerated() {
                if k > 0 { e.byte(0x2C) }
                e.literal("{\"id\":"); e.string(g.id)
                e.literal(",\"states\":[")
                for (n, state) in g.states.enumerated() {
                    if n > 0 { e.byte(0x2C) }
                    e.string(state.rawValue)
                }
                e.literal("]}")
            }
            e.literal("],\"actions\":")
            writeActions(result.actions, &e)
            // Only runs with non-touch records have it: every other digest stays as it was.
            if let n = result.nonTouch { writeNonTouch(n, &e) }
            e.byte(0x7D)
        }
    }

    /// The outcome digest stored with every run: `o1:` and 32 hex digits, two FNV-1a 64-bit
    /// hashes (different offset bases) of `canonicalJSON`. Not cryptographic: it only has to
    /// tell outcomes apart, and replay double-checks equal digests field by field.
    public var digest: String { Self.digest(canonicalJSON) }

    /// `RunOutcome(result).digest` without building the outcome.
    public static func digest(of result: DispatchResult) -> String { digest(canonicalJSON(of: result)) }

    private static func digest(_ canonical: [UInt8]) -> String {
        let (first, second) = fnv1a(canonical, 0xcbf2_9ce4_8422_2325, 0x84222325_cbf29ce4)
        // "o1:" and 32 lowercase hex digits, written as bytes (`hex` through `String(radix:)`
        // cost as much as the hashing).
        return String(unsafeUninitializedCapacity: 35) { out in
            out[0] = UInt8(ascii: "o"); out[1] = UInt8(ascii: "1"); out[2] = UInt8(ascii: ":")
            func hex(_ value: UInt64, at offset: Int) {
                for i in 0..<16 {
                    let nibble = Int((value >> UInt64(60 - 4 * i)) & 0xF)
                    out[offset + i] = nibble < 10 ? UInt8(ascii: "0") + UInt8(nibble) : UInt8(ascii: "a") + UInt8(nibble - 10)
                }
            }
            hex(first, at: 3)
            hex(second, at: 19)
            return 35
        }
    }

    /// Both hashes in one pass over the bytes (the digest is computed for every stored run).
    /// The values are those of two separate passes (`digestIsStable` pins them).
    static func fnv1a(_ bytes: [UInt8], _ basis1: UInt64, _ basis2: UInt64) -> (UInt64, UInt64) {
        var a = basis1, b = basis2
        bytes.withUnsafeBufferPointer { buffer in
            for byte in buffer {
                a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
        }
        return (a, b)
    }

    /// A result's actions as a compact JSON array (`[{"t","action","sender","target","via"}]`):
    /// the `actions` summary column of a stored run, and the outcome's `actions`.
    public static func actionsJSON(of result: DispatchResult) -> [UInt8] {
        ByteEmitter.array(capacity: 64 + 160 * result.actions.count) { e in writeActions(result.actions, &e) }
    }

    private static func writeActions(_ actions: [ActionRecord], _ e: inout ByteEmitter) {
        e.byte(0x5B)
        for (k, a) in actions.enumerated() {
            if k > 0 { e.byte(0x2C) }
            e.literal("{\"t\":"); e.number(a.t)
            e.literal(",\"action\":"); e.string(a.action)
            e.literal(",\"sender\":"); e.string(a.sender)
            e.literal(",\"target\":"); ResultJSON.optional(a.target, &e)
            e.literal(",\"via\":"); e.string(a.via.rawValue)
            e.byte(0x7D)
        }
        e.byte(0x5D)
    }

    /// The non-touch part of the outcome: who each event went to and who handled it.
    private static func writeNonTouch(_ n: NonTouchSummary, _ e: inout ByteEmitter) {
        e.literal(",\"nonTouch\":{\"keyResponder\":"); ResultJSON.optional(n.keyResponder.final, &e)
        e.literal(",\"presses\":[")
        for (k, p) in n.presses.enumerated() {
            if k > 0 { e.byte(0x2C) }
            e.literal("{\"id\":"); e.string(p.id)
            e.literal(",\"responder\":"); ResultJSON.optional(p.responder, &e)
            e.literal(",\"handledBy\":"); ResultJSON.optional(p.handledBy, &e)
            e.literal(",\"keyCommand\":"); ResultJSON.optional(p.keyCommand, &e)
            e.literal(",\"textInput\":"); ResultJSON.optional(p.textInput, &e)
            e.literal(",\"finalPhase\":"); e.string(p.finalPhase.rawValue)
            e.byte(0x7D)
        }
        let lists: [(StaticString, [NonTouchSummary.Delivery])] = [("],\"motions\":[", n.motions),
                                                                   ("],\"remoteControls\":[", n.remoteControls)]
        for (key, list) in lists {
            e.literal(key)
            for (k, d) in list.enumerated() {
                if k > 0 { e.byte(0x2C) }
                e.literal("{\"name\":"); e.string(NonTouch.name(d))
                e.literal(",\"responder\":"); ResultJSON.optional(d.responder, &e)
                e.literal(",\"handledBy\":"); ResultJSON.optional(d.handledBy, &e)
                e.byte(0x7D)
            }
        }
        e.literal("],\"responderChanges\":[")
        for (k, c) in n.responderChanges.enumerated() {
            if k > 0 { e.byte(0x2C) }
            e.literal("{\"name\":"); e.string(NonTouch.name(c))
            e.literal(",\"result\":"); if c.result { e.literal("true") } else { e.literal("false") }
            e.literal(",\"to\":"); ResultJSON.optional(c.to, &e)
            e.byte(0x7D)
        }
        e.literal("]}")
    }

    /// A responder chain link as the outcome names it: its id, or `(cycle at id)` (R7).
    private static func chainText(_ link: DispatchResult.ChainLink) -> String {
        link.role == "cycle" ? "(cycle at \(link.ref.id))" : link.ref.id
    }
}

/// One way two outcomes differ, for people: the field (`firstResponder`,
/// `touches[T1].hitTestView`, `recognizers[tapC].states`, `actions`, …), the value before and
/// after as short text (nil: absent), and a sentence.
public struct OutcomeDifference: Sendable, Hashable {
    public var field: String
    public var before: String?
    public var after: String?
    public var text: String

    public init(field: String, before: String?, after: String?) {
        self.field = field
        self.before = before
        self.after = after
        // Chains are written with arrows, so "was …; now …" rather than "before → after".
        switch (before, after) {
        case (let b?, let a?): self.text = "\(field): was \(b); now \(a)"
        case (nil, let a?): self.text = "\(field): now \(a)"
        case (let b?, nil): self.text = "\(field): no longer \(b)"
        case (nil, nil): self.text = "\(field): changed"
        }
    }

    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("field"); w.string(field)
        w.key("before"); w.string(before)
        w.key("after"); w.string(after)
        w.key("text"); w.string(text)
        w.endObject()
    }
}

extension RunOutcome {
    /// Every difference from `self` (before) to `other` (after), in the order of the result
    /// document: first responder, chain, touches (by id), recognizers (by id), actions.
    public func differences(to other: RunOutcome) -> [OutcomeDifference] {
        var out: [OutcomeDifference] = []
        if firstResponder != other.firstResponder {
            out.append(OutcomeDifference(field: "firstResponder", before: firstResponder.map(Self.refText),
                                         after: other.firstResponder.map(Self.refText)))
        }
        if responderChain != other.responderChain {
            out.append(OutcomeDifference(field: "responderChain", before: Self.listText(responderChain),
                                         after: Self.listText(other.responderChain)))
        }
        let theirTouches = Dictionary(other.touches.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let myTouchIds = Set(touches.map(\.id))
        for t in touches {
            guard let u = theirTouches[t.id] else {
                out.append(OutcomeDifference(field: "touches[\(t.id)]", before: "present", after: nil))
                continue
            }
            func check(_ name: String, _ a: String?, _ b: String?) {
                if a != b { out.append(OutcomeDifference(field: "touches[\(t.id)].\(name)", before: a, after: b)) }
            }
            check("hitTestView", t.hitTestView, u.hitTestView)
            check("refused", t.refused, u.refused)
            check("finalPhase", t.finalPhase, u.finalPhase)
            check("cancelledBy", t.cancelledBy, u.cancelledBy)
        }
        for u in other.touches where !myTouchIds.contains(u.id) {
            out.append(OutcomeDifference(field: "touches[\(u.id)]", before: nil, after: "present"))
        }
        let theirRecognizers = Dictionary(other.recognizers.map { ($0.id, $0.states) }, uniquingKeysWith: { first, _ in first })
        let myRecognizerIds = Set(recognizers.map(\.id))
        for g in recognizers where theirRecognizers[g.id] != g.states {
            out.append(OutcomeDifference(field: "recognizers[\(g.id)].states", before: Self.listText(g.states, ", "),
                                         after: theirRecognizers[g.id].map { Self.listText($0, ", ") }))
        }
        for g in other.recognizers where !myRecognizerIds.contains(g.id) {
            out.append(OutcomeDifference(field: "recognizers[\(g.id)].states", before: nil,
                                         after: Self.listText(g.states, ", ")))
        }
        out += NonTouch.differences(nonTouch, other.nonTouch)
        if actions != other.actions {
            let script = SequenceAlignment.align(actions, other.actions)
            for step in script.steps {
                switch step {
                case .same: continue
                case .removed(let i): out.append(OutcomeDifference(field: "actions", before: actions[i].text, after: nil))
                case .inserted(let j): out.append(OutcomeDifference(field: "actions", before: nil, after: other.actions[j].text))
                }
            }
        }
        return out
    }

    static func refText(_ ref: ObjectRef) -> String { "\(ref.id) (\(ref.className))" }

    static func listText(_ items: [String], _ separator: String = " → ") -> String {
        items.isEmpty ? "[]" : items.joined(separator: separator)
    }
}

extension RunOutcome.NonTouch {
    /// What differs in the non-touch part: the key responder at the end, each press's
    /// responder, handler, key command and text input (by id), each shake's and
    /// remote-control event's responder and handler, and each responder change's answer and
    /// resulting first responder (in input order).
    static func differences(_ a: Self?, _ b: Self?) -> [OutcomeDifference] {
        guard a != b else { return [] }
        let empty = RunOutcome.NonTouch(NonTouchSummary(keyResponder: .init(initial: nil, final: nil)))
        let a = a ?? empty, b = b ?? empty
        var out: [OutcomeDifference] = []
        func check(_ field: String, _ x: String?, _ y: String?) {
            if x != y { out.append(OutcomeDifference(field: field, before: x ?? "nil", after: y ?? "nil")) }
        }
        check("keyResponder", a.keyResponder, b.keyResponder)
        let theirs = Dictionary(b.presses.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for p in a.presses {
            guard let q = theirs[p.id] else {
                out.append(OutcomeDifference(field: "presses[\(p.id)]", before: "present", after: nil))
                continue
            }
            check("presses[\(p.id)].responder", p.responder, q.responder)
            check("presses[\(p.id)].handledBy", p.handledBy, q.handledBy)
            check("presses[\(p.id)].keyCommand", p.keyCommand, q.keyCommand)
            check("presses[\(p.id)].textInput", p.textInput, q.textInput)
            check("presses[\(p.id)].finalPhase", p.finalPhase, q.finalPhase)
        }
        let mine = Set(a.presses.map(\.id))
        for q in b.presses where !mine.contains(q.id) {
            out.append(OutcomeDifference(field: "presses[\(q.id)]", before: nil, after: "present"))
        }
        for (label, x, y) in [("motions", a.motions, b.motions), ("remoteControls", a.remoteControls, b.remoteControls)] {
            for k in 0..<max(x.count, y.count) {
                guard k < x.count, k < y.count, x[k].name == y[k].name else {
                    out.append(OutcomeDifference(field: "\(label)[\(k)]", before: k < x.count ? x[k].name : nil,
                                                 after: k < y.count ? y[k].name : nil))
                    continue
                }
                check("\(label)[\(k)].responder", x[k].responder, y[k].responder)
                check("\(label)[\(k)].handledBy", x[k].handledBy, y[k].handledBy)
            }
        }
        for k in 0..<max(a.responderChanges.count, b.responderChanges.count) {
            let x = k < a.responderChanges.count ? a.responderChanges[k] : nil
            let y = k < b.responderChanges.count ? b.responderChanges[k] : nil
            guard let x, let y, x.name == y.name else {
                out.append(OutcomeDifference(field: "responderChanges[\(k)]", before: x?.name, after: y?.name))
                continue
            }
            check("responderChanges[\(k)].result", x.result ? "YES" : "NO", y.result ? "YES" : "NO")
            check("responderChanges[\(k)].to", x.to, y.to)
        }
        return out
    }
}
