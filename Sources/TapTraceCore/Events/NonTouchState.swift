/// One press for its lifetime (P1, P2): bound to a responder at `began`, with what became of it.
struct PressState {
    let id: String
    let type: PressType
    let key: KeyInput?
    /// n of `E<n>`: its press sequence (N6).
    let event: Int
    var phase: PressPhase = .began
    /// P2: the key responder at `began`, kept for every phase.
    var responder: Responder?
    var source: NonTouchSummary.Source?
    var chain: [Responder] = []
    /// Who received `pressesBegan:withEvent:`, in order.
    var delivered: [Responder] = []
    var handledBy: Responder?
    /// KC1: a key command or (under `beforeResponders`) text input took it at key-down; no phase
    /// is delivered.
    var consumed = false
    /// P4: text input took the key at UIApplication; later phases stop there too.
    var takenAtApplication = false
    var keyCommand: String?
    var textInput: Responder?
    /// Runtime recognizers collected for it (PG2).
    var recognizers: [Int] = []
    /// PG3, GV2: the recognizer whose recognition took the press from its responder.
    var unboundBy: Int?
    /// The responder received `pressesBegan:` (so a cancel is owed when it is taken away).
    var deliveredBegan = false
    /// The responder received `pressesEnded:` or `pressesCancelled:`.
    var responderFinished = false
    /// GV5, GV6: phases held back from the responder while a delaying recognizer is possible.
    var withheld: [PressPhase] = []
    /// This update's phase went into `withheld`.
    var queuedThisUpdate = false

    init(id: String, type: PressType, key: KeyInput?, event: Int) {
        self.id = id; self.type = type; self.key = key; self.event = event
    }

    /// The responder still takes part in the press's delivery.
    var reachesResponder: Bool { responder != nil && !consumed && unboundBy == nil && !responderFinished }
}

/// The non-touch part of a run's state (rules §3.17–3.23), made when the first non-touch record
/// is dispatched: touch-only runs never pay for it. A class, so that the run (a struct, copied
/// around its helpers' closures) carries one reference and no fields of its own for it.
final class NonTouchRunState {
    /// F2: each window's first responder, by window view index.
    var firstResponders: [Int: Responder] = [:]
    var presses: [PressState] = []
    var pressIndexById: [String: Int] = [:]
    /// The press sequence's event number while a press is down (N6).
    var pressEvent: Int?
    /// The shake in progress's event number (N6: one per shake).
    var shakeEvent: Int?
    var motions: [NonTouchSummary.Delivery] = []
    var remoteControls: [NonTouchSummary.Delivery] = []
    var responderChanges: [NonTouchSummary.ResponderChange] = []
    var initialKeyResponder: Responder?

    init() {}

    var pressesDown: Int {
        var n = 0
        for p in presses where !p.phase.isTerminal { n += 1 }
        return n
    }
}

/// R7's cycle guard for the walks of non-touch events up the chain: a short chain (every real
/// one) is scanned, a longer one hashed, as `sendTouches` does, so a 10,000-deep chain stays
/// linear.
struct VisitedResponders {
    private var list: [Responder] = []
    private var set = Set<Responder>()

    /// Adds `r`; false when it was already there (a `nextResponder` cycle).
    mutating func insert(_ r: Responder) -> Bool {
        if list.count < 32 {
            if list.contains(r) { return false }
            list.append(r)
            return true
        }
        if set.isEmpty { set = Set(list) }
        return set.insert(r).inserted
    }
}
