/// Why a press, a key command, a shake or a remote-control event went where it went (rules
/// §3.17–3.23): the key responder it started at (N1–N3), the key-command search (KC3, KC4),
/// text input (KC2), who received it up the chain and who took it (P3, M2, RC2), or why it
/// ended unhandled (N5). With a responder named: whether it got there, and if not, what
/// stopped it first.
extension RunReasons {
    static func press(_ id: String, responder asked: String?, _ run: RunFacts) -> Finding {
        guard let p = run.result.nonTouch?.presses.first(where: { $0.id == id }) else {
            return Finding(short: "\(id) is not a press of this run", reasons: [])
        }
        var reasons: [Reason] = []
        let at = run.trace.markers(.keyResponder).first { run.trace[$0].note?.hasPrefix("\(id) →") ?? false }
        reasons.append(startReason(p.responder, p.source, subject: id, marker: at))
        if p.type == .keyboard, let key = p.key {
            let search = run.trace.markers(.keyCommand).first { i in at.map { i > $0 } ?? false }
            if let search, let note = run.trace[search].note {
                reasons.append(Reason(rule: "KC3", text: "the key-command search for \"\(key)\": \(note)", trace: [search]))
            }
            if let command = p.keyCommand {
                let call = run.trace.entries.indices.first { i in
                    run.trace[i].kind == .call && run.trace[i].stringArg("sender") == command && (at.map { i > $0 } ?? true)
                }
                reasons.append(Reason(rule: "KC4", text: "\(command) ran: its action went to the first responder on the chain from \(p.responder ?? "?") that implements it, and the press was consumed there, so no responder received it (KC1)",
                                      trace: call.map { [$0] } ?? []))
            }
        }
        if let text = p.textInput {
            let marker = run.trace.markers(.textInput).first { i in at.map { i > $0 } ?? false }
            let place = p.handledBy == "UIApplication" ? "at UIApplication, after the press climbed the chain unhandled (KC1, P4)" : "before any delivery (keyboardPipeline = beforeResponders, KC1)"
            reasons.append(Reason(rule: "KC2", text: "\(text)'s text input took the key \(place)", trace: marker.map { [$0] } ?? []))
        }
        if !p.recognizers.isEmpty {
            reasons.append(Reason(rule: "PG2", text: "recognizers collected for it: \(RunFacts.list(p.recognizers)) (PG1, PG2); they got each phase before its responder (PG3)"))
        }
        reasons.append(chainReason(delivered: p.delivered, handledBy: p.handledBy, method: "pressesBegan:", subject: id, run) {
            if case .presses(let list)? = $0.arg("presses") { return list.contains { $0.id == id } }
            return false
        })
        var short: String
        if let command = p.keyCommand {
            short = "\(id) ran the key command \(command) and was delivered to no responder"
        } else if let handler = p.handledBy {
            short = "\(id) went to \(p.responder ?? "?") and was taken by \(handler)"
        } else if p.delivered.isEmpty {
            short = "\(id) was not delivered to any responder"
        } else {
            short = "\(id) went to \(p.responder ?? "?") and nobody took it"
        }
        if let asked { short += reached(asked, delivered: p.delivered, handledBy: p.handledBy, chain: p.chain, consumedBy: p.keyCommand, &reasons) }
        return Finding(short: short, reasons: reasons)
    }

    static func keyCommand(_ id: String, _ run: RunFacts) -> Finding {
        let presses = run.result.nonTouch?.presses ?? []
        var reasons: [Reason] = []
        let searches = run.trace.markers(.keyCommand)
        var matched: [Int] = []
        var shadowedIn: [Int] = []
        for i in searches {
            if run.trace[i].stringArg("match") == id { matched.append(i) }
            if run.trace[i].strings("shadowed").contains(id) { shadowedIn.append(i) }
        }
        let ran = presses.filter { $0.keyCommand == id }.map(\.id)
        if !ran.isEmpty {
            reasons.append(Reason(rule: "KC4", text: "\(id) ran at the key-down of \(RunFacts.list(ran)): a key-down matched its input and modifier flags, and a responder on the chain implements its action", trace: matched))
        }
        let matchedOnly = matched.filter { i in !(run.trace[i].note?.contains("yields") ?? false) }.count > ran.count
        if matched.contains(where: { run.trace[$0].note?.contains("yields") ?? false }) {
            reasons.append(Reason(rule: "KC1", text: "at a key-down it matched, but the press responder's text input would take the key and \(id) does not want priority over system behavior, so it yielded to text input", trace: matched))
        }
        if matchedOnly {
            let skipped = run.trace.markers(.chainWalk).filter { run.trace[$0].note?.hasSuffix("\(id) is skipped (KC4)") ?? false }
            reasons.append(Reason(rule: "KC4", text: "at a key-down it matched, but no responder on the chain from the press responder implements its action, so it was skipped", trace: skipped))
        }
        if !shadowedIn.isEmpty {
            reasons.append(Reason(rule: "KC3", text: "\(id) matched but another matching command came first (keyCommandPrecedence = \(run.knobs.keyCommandPrecedence.rawValue)), so it was shadowed", trace: shadowedIn))
        }
        if matched.isEmpty && shadowedIn.isEmpty {
            let searchedHere = searches.filter { run.trace[$0].note?.contains(String(id.split(separator: ".").first ?? "")) ?? false }
            reasons.append(Reason(rule: "KC3", text: searches.isEmpty
                ? "the run has no keyboard key-down, so no key command was searched"
                : "no key-down matched its input and modifier flags (shift, control, alternate and command must be the same), or its responder was not on the chain of the press responder",
                trace: searchedHere.isEmpty ? searches : searchedHere))
        }
        let short = ran.isEmpty ? "\(id) did not run" : "\(id) ran at the key-down of \(RunFacts.list(ran))"
        return Finding(short: short, reasons: reasons)
    }

    static func deliveries(_ list: [NonTouchSummary.Delivery], what: String, responder asked: String?, _ run: RunFacts) -> Finding {
        guard !list.isEmpty else { return Finding(short: "the run has no \(what)", reasons: []) }
        var reasons: [Reason] = []
        var reachedAll = true
        for d in list {
            let name = (d.phase.map { "\(d.subtype) \($0.rawValue)" } ?? d.subtype) + " at " + RunFacts.time(d.t)
            if d.dropped {
                reasons.append(Reason(rule: "RC3", text: "\(name) was dropped: the application does not receive remote-control events"))
                reachedAll = false
                continue
            }
            let marker = run.trace.markers(.keyResponder).first { run.trace[$0].t == d.t }
            reasons.append(startReason(d.responder, d.source, subject: name, marker: marker))
            let method = what == "shake" ? "motion" : "remoteControlReceivedWithEvent:"
            reasons.append(chainReason(delivered: d.delivered, handledBy: d.handledBy, method: method, subject: name, run) { $0.t == d.t })
            if let asked, !d.delivered.contains(asked) { reachedAll = false }
        }
        var short = list.count == 1 ? "1 \(what)" : "\(list.count) \(what)s"
        let handlers = Set(list.compactMap(\.handledBy))
        short += handlers.isEmpty ? ", taken by nobody" : ", taken by " + RunFacts.list(handlers.sorted())
        if let asked {
            short += reachedAll ? "; every one reached \(asked)" : "; not every one reached \(asked) (see the chain of each)"
        }
        return Finding(short: short, reasons: reasons)
    }

    /// N1–N3: where it started.
    private static func startReason(_ responder: String?, _ source: NonTouchSummary.Source?, subject: String, marker: Int?) -> Reason {
        switch source {
        case .firstResponder?:
            return Reason(rule: "N1", text: "\(subject) started at \(responder ?? "?"), the first responder of the key window (non-touch events are not hit-tested)",
                          trace: marker.map { [$0] } ?? [])
        case .fallback?:
            return Reason(rule: "N3", text: "the key window had no first responder, so \(subject) started at the fallback \(responder ?? "?") (keyResponderFallback)",
                          trace: marker.map { [$0] } ?? [])
        case nil:
            return Reason(rule: "N2", text: "\(subject) had no key responder (the scene has no key window)")
        }
    }

    /// P3, M2, RC2, N5: who received it and who took it.
    private static func chainReason(delivered: [String], handledBy: String?, method: String, subject: String, _ run: RunFacts,
                                    _ isOfThisEvent: (TraceEntry) -> Bool) -> Reason {
        let calls = run.trace.entries.indices.filter { i in
            run.trace[i].kind == .call && (run.trace[i].selector?.hasPrefix(method) ?? false) && isOfThisEvent(run.trace[i])
        }
        if delivered.isEmpty {
            return Reason(rule: "KC1", text: "no responder received \(method) for \(subject)")
        }
        let path = delivered.joined(separator: " → ")
        if let handledBy {
            return Reason(rule: "P3", text: "\(method) went \(path); \(handledBy) took it (an override that does not call super, or UIApplication's text input), so it went no further",
                          trace: calls)
        }
        let unhandled = run.trace.markers(.unhandled).filter { isOfThisEvent(run.trace[$0]) || calls.contains(run.trace.parent($0) ?? -1) }
        return Reason(rule: "N5", text: "\(method) went \(path); every responder passed it on (UIResponder's default implementation calls the next responder), so it fell off the end of the chain unhandled",
                      trace: calls + unhandled)
    }

    /// With a responder asked about: did the event reach it, and if not, what stopped it.
    private static func reached(_ asked: String, delivered: [String], handledBy: String?, chain: [String], consumedBy command: String?,
                                _ reasons: inout [Reason]) -> String {
        if delivered.contains(asked) { return "; it reached \(asked)" }
        if let command {
            reasons.append(Reason(rule: "KC1", text: "\(asked) never received it: the key command \(command) consumed the press at its key-down, before any delivery"))
        } else if !chain.contains(asked) {
            reasons.append(Reason(rule: "R9", text: "\(asked) is not on the responder chain from where it started (\(chain.joined(separator: " → "))): make \(asked) (or a view inside it) the first responder, or put it on that chain"))
        } else if let handledBy {
            reasons.append(Reason(rule: "P3", text: "\(asked) is on the chain, but \(handledBy) took it first, nearer the start"))
        } else {
            reasons.append(Reason(rule: "N5", text: "\(asked) was never reached"))
        }
        return "; it did not reach \(asked)"
    }
}
