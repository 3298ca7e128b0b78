/// The result's summaries of non-touch events (contract §2.1 "Result"): present only when the
/// run had a press, motion, remote-control or responder record, so that every touch-only
/// result stays byte-identical.
public struct NonTouchSummary: Sendable, Hashable {
    /// Where a non-touch event started (N1–N3).
    public enum Source: String, Sendable, Hashable {
        /// The key window's first responder.
        case firstResponder
        /// No first responder: `keyResponderFallback` chose (N3).
        case fallback
    }

    /// The key window's first responder at the start and at the end of the run (F2).
    public struct KeyResponder: Sendable, Hashable {
        public var initial: String?
        public var final: String?
        public init(initial: String?, final: String?) { self.initial = initial; self.final = final }
    }

    /// One press, from its `began` on (P1–P4, PG, KC).
    public struct Press: Sendable, Hashable {
        public var id: String
        public var type: PressType
        /// `key.charactersIgnoringModifiers` of a keyboard press; nil for other types.
        public var key: String?
        /// The responder it was bound to at `began` (P2).
        public var responder: String?
        public var source: Source?
        /// R9 from `responder`.
        public var chain: [String]
        /// Who received `pressesBegan:withEvent:`, in order.
        public var delivered: [String]
        /// The responder that consumed `pressesBegan:withEvent:` (`UIApplication` when text input
        /// took the key there, KC1); nil if none.
        public var handledBy: String?
        /// The key command performed (KC4).
        public var keyCommand: String?
        /// The responder whose text input took the key (KC2).
        public var textInput: String?
        /// Recognizers collected for the press (PG2).
        public var recognizers: [String]
        public var finalPhase: PressPhase
        public init(id: String, type: PressType, key: String?, responder: String?, source: Source?, chain: [String],
                    delivered: [String], handledBy: String?, keyCommand: String?, textInput: String?,
                    recognizers: [String], finalPhase: PressPhase) {
            self.id = id; self.type = type; self.key = key; self.responder = responder; self.source = source
            self.chain = chain; self.delivered = delivered; self.handledBy = handledBy; self.keyCommand = keyCommand
            self.textInput = textInput; self.recognizers = recognizers; self.finalPhase = finalPhase
        }
    }

    /// One motion or remote-control record's delivery (M2, RC2).
    public struct Delivery: Sendable, Hashable {
        public var t: Double
        /// A motion's phase; nil for remote control.
        public var phase: MotionPhase?
        /// `shake`, or a `RemoteControlSubtype`'s name.
        public var subtype: String
        public var responder: String?
        public var source: Source?
        public var chain: [String]
        public var delivered: [String]
        public var handledBy: String?
        /// RC3: the application does not receive remote-control events; nothing was delivered.
        public var dropped: Bool
        public init(t: Double, phase: MotionPhase?, subtype: String, responder: String?, source: Source?,
                    chain: [String], delivered: [String], handledBy: String?, dropped: Bool = false) {
            self.t = t; self.phase = phase; self.subtype = subtype; self.responder = responder; self.source = source
            self.chain = chain; self.delivered = delivered; self.handledBy = handledBy; self.dropped = dropped
        }
    }

    /// One `responder` record (F3, F4): the call and its answer, and the first responder of
    /// the receiver's window before and after.
    public struct ResponderChange: Sendable, Hashable {
        public var t: Double
        /// `become` or `resign`.
        public var call: String
        public var receiver: String
        public var result: Bool
        public var from: String?
        public var to: String?
        public init(t: Double, call: String, receiver: String, result: Bool, from: String?, to: String?) {
            self.t = t; self.call = call; self.receiver = receiver; self.result = result; self.from = from; self.to = to
        }
    }

    public var keyResponder: KeyResponder
    public var presses: [Press]
    public var motions: [Delivery]
    public var remoteControls: [Delivery]
    public var responderChanges: [ResponderChange]

    public init(keyResponder: KeyResponder, presses: [Press] = [], motions: [Delivery] = [],
                remoteControls: [Delivery] = [], responderChanges: [ResponderChange] = []) {
        self.keyResponder = keyResponder; self.presses = presses; self.motions = motions
        self.remoteControls = remoteControls; self.responderChanges = responderChanges
    }
}
