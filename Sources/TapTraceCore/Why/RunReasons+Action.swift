/// "Why was this action sent, or not sent?": each send of the run with what fired it (a
/// control's events, K2–K9, or a recognizer's state change, GS2) and how it found its receiver
/// (a target, A1, or the nil-target walk, A2–A4); or, when it was not sent, each object of the
/// scene that could send it and why it did not (`+Control` for controls, `+Recognizer` for
/// recognizers), or that nothing in the scene sends it.
extension RunReasons {
    /// Where one send of the action is in the trace.
    struct ActionSite {
        /// Index in `result.actions`.
        var record: Int
        /// `-[UIControl sendAction:to:forEvent:]` (controls).
        var send: Int?
        /// `-[UIApplication sendAction:to:from:forEvent:]` (controls).
        var app: Int?
        /// The action method's call (nil when nobody got it).
        var call: Int?
        /// The nil-target walk's markers (A2–A4).
        var walk: [Int] = []
    }

    static func action(_ a: String, _ run: RunFacts) -> Finding {
        let sites = actionSites(a, run)
        let delivered = sites.filter { run.result.actions[$0.record].via != .unhandled }
        let unhandled = sites.filter { run.result.actions[$0.record].via == .unhandled }
        var reasons: [Reason] = []
        if !delivered.isEmpty {
            var shorts: [String] = []
            for site in delivered + unhandled {
                let f = sent(site, run)
                shorts.append(f.short)
                reasons += f.reasons
            }
            let more = delivered.count > 1 ? " (sent \(delivered.count) times in all)" : ""
            return Finding(short: shorts[0] + more, reasons: reasons)
        }
        var shorts: [String] = []
        for site in unhandled {
            let f = sent(site, run)
            shorts.append(f.short)
            reasons += f.reasons
        }
        let unhandledSenders = Set(unhandled.map { run.result.actions[$0.record].sender })
        let controls = run.index.scene.views.indices.filter { v in
            (run.index.view(v).targets ?? []).contains { $0.action == a } && !unhandledSenders.contains(run.name(v))
        }
        let recognizers = run.index.recognizers.filter { $0.targets.contains { $0.action == a } }
        for v in controls {
            let f = controlNotSending(v, a, run)
            shorts.append(f.short)
            reasons += f.reasons
        }
        for info in recognizers {
            if !info.targets.contains(where: { $0.action == a && $0.target != nil }) {
                let states = run.trace.states(of: info.id).filter { run.trace[$0].to?.hasRecognized ?? false }
                shorts.append("\(info.id)'s target for \(a) is nil, and a recognizer's action never walks the responder chain (A7)")
                reasons.append(Reason(rule: "A7", text: "\(info.id) lists \(a) with a nil target: a recognizer with a nil target sends nothing, whatever its state", trace: states))
                continue
            }
            let f = recognizer(info.id, run)
            shorts.append(f.short)
            reasons += f.reasons
        }
        if shorts.isEmpty {
            var implementers: [String] = []
            for v in run.index.scene.views.indices {
                if run.index.implements(.view(v), a) { implementers.append(run.name(v)) }
                if let vc = run.index.view(v).viewController, run.index.implements(.viewController(ofView: v), a) { implementers.append(vc.id) }
            }
            if run.index.implements(.application, a) { implementers.append(run.index.applicationRef.id) }
            if let d = run.index.appDelegateRef, run.index.scene.app?.delegate?.implements?.contains(a) == true { implementers.append(d.id) }
            let who = implementers.isEmpty ? "" : " (\(RunFacts.list(implementers)) implement\(implementers.count == 1 ? "s" : "") it, but nothing sends it)"
            return Finding(short: "\(a) was not sent: no control or recognizer in the scene sends it (K8)",
                           reasons: [Reason(rule: "K8", text: "no control's target–action table and no recognizer's targets in the scene name \(a)\(who)", trace: [])])
        }
        return Finding(short: "\(a) was not sent: " + shorts.joined(separator: "; "), reasons: reasons)
    }

    /// Every send of action `a`, matched with its record: the records of controls and of
    /// recognizers each come in the order the trace shows their sends.
    static func actionSites(_ a: String, _ run: RunFacts) -> [ActionSite] {
        var controlSends: [Int] = []
        var recognizerCalls: [Int] = []
        for i in run.trace.entries.indices where run.trace[i].kind == .call {
            let e = run.trace[i]
            if e.selector == "sendAction:to:forEvent:", e.stringArg("action") == a {
                controlSends.append(i)
            } else if e.selector == a, run.trace.parent(i).map({ run.trace[$0].selector != "sendAction:to:from:forEvent:" }) ?? true {
                recognizerCalls.append(i)
            }
        }
        var sites: [ActionSite] = []
        var c = 0, r = 0
        for (k, record) in run.result.actions.enumerated() where record.action == a {
            var site = ActionSite(record: k)
            if record.via == .recognizer {
                if r < recognizerCalls.count { site.call = recognizerCalls[r] }
                r += 1
            } else {
                if c < controlSends.count {
                    let send = controlSends[c]
                    site.send = send
                    site.app = run.trace.children(send).first { run.trace[$0].selector == "sendAction:to:from:forEvent:" }
                    if let app = site.app {
                        let inner = run.trace.children(app)
                        site.walk = inner.filter { run.trace[$0].marker == .chainWalk }
                        site.call = inner.first { run.trace[$0].kind == .call && run.trace[$0].selector == a }
                    }
                }
                c += 1
            }
            sites.append(site)
        }
        return sites
    }

    /// One send: what fired it and how it found (or did not find) its receiver.
    static func sent(_ site: ActionSite, _ run: RunFacts) -> Finding {
        let record = run.result.actions[site.record]
        let a = record.action
        let at = RunFacts.time(record.t)
        if record.via == .recognizer {
            let sender = record.sender
            let j = site.call.flatMap { c in
                run.trace.states(of: sender).last { $0 < c && (record.state == nil || run.trace[$0].to == record.state) }
            }
            var reasons: [Reason] = []
            if let j, let info = run.recognizerInfo(sender), run.trace[j].from == .possible {
                reasons += transition(j, info, run).reasons.sorted { ($0.trace.min() ?? 0) < ($1.trace.min() ?? 0) }
            }
            let state = record.state.map { ".\($0.rawValue)" } ?? "a new state"
            reasons.append(Reason(rule: "GS2", text: "\(sender) went to \(state) at \(at) and sent \(a) to its target \(record.target ?? "?") (recognizer actions go to their targets, never up the responder chain, A7)",
                                  trace: (j.map { [$0] } ?? []) + (site.call.map { [$0] } ?? [])))
            return Finding(short: "\(a) was sent at \(at) by \(sender) (\(state)) to \(record.target ?? "?")", reasons: reasons)
        }

        if record.via == .keyCommand {
            let reason = Reason(rule: "KC4", text: "at \(at) the key command \(record.sender) matched a key-down and \(record.target ?? "?") was the first responder on the chain from the press responder that implements \(a), so it got the action with the key command as sender (KC3, KC4)",
                                trace: site.call.map { [$0] } ?? [])
            return Finding(short: "\(a) was sent at \(at) by the key command \(record.sender) to \(record.target ?? "?")", reasons: [reason])
        }
        let sender = record.sender
        let v = run.index.view(withId: sender)
        let touchCall = site.send.flatMap { run.trace.parent($0) }
        let marker = site.send.flatMap { s in run.trace.last(before: s) { $0.marker == .control && $0.receiver?.id == sender } }
        let fired = (marker.map { run.trace[$0].strings("events") } ?? (record.events ?? []).map(\.rawValue)).compactMap(ControlEvent.init(rawValue:))
        let entry = v.flatMap { v in
            (run.index.view(v).targets ?? []).first { e in
                e.action == a && e.target == record.target.flatMap { record.via == .target ? $0 : nil } && fired.contains { e.mask & $0.bit != 0 }
            } ?? (run.index.view(v).targets ?? []).first { e in e.action == a && fired.contains { e.mask & $0.bit != 0 } }
        }
        let matched = fired.filter { ev in entry.map { $0.mask & ev.bit != 0 } ?? true }
        let events = matched.map(\.rawValue).joined(separator: ", ")
        let touch = touchCall.flatMap { run.trace[$0].touchIDs.first } ?? "its touch"
        var reasons: [Reason] = []
        if let touchCall, let f = arrival(touchCall, run) { reasons += f.reasons }
        let registered = entry.map { "{" + $0.events.map { "." + $0.rawValue }.joined(separator: ", ") + "}" } ?? "its events"
        let firedText = "{" + fired.map { "." + $0.rawValue }.joined(separator: ", ") + "}"
        let why = matched.first.map { eventCause($0, touch: touch, control: sender, run) } ?? "its events fired"
        var trace: [Int] = []
        for i in [touchCall, marker, site.send, site.app] { if let i { trace.append(i) } }
        switch record.via {
        case .target:
            if let call = site.call { trace.append(call) }
            reasons.append(Reason(rule: "K8", text: "at \(at) \(sender) fired \(firedText): \(why); its target–action entry (\(record.target ?? "?"), \(a), \(registered)) matches, so \(sender) called sendAction:to:forEvent: and UIApplication sendAction:to:from:forEvent: delivered \(a) to the target \(record.target ?? "?") (K8, K9, A1)",
                                  trace: trace))
            return Finding(short: "\(a) was sent at \(at) by \(sender) (\(events)) to \(record.target ?? "?")", reasons: reasons)
        case .responderChain:
            reasons.append(Reason(rule: "K8", text: "at \(at) \(sender) fired \(firedText): \(why); its target–action entry (nil, \(a), \(registered)) matches, so \(sender) sent \(a) with a nil target (K8, K9)", trace: trace))
            reasons += walkReasons(site, a, found: record.target, run)
            return Finding(short: "\(a) was sent at \(at) by \(sender) (\(events)) with a nil target and reached \(record.target ?? "?") up the responder chain (A2)", reasons: reasons)
        case .unhandled, .recognizer, .keyCommand:
            reasons.append(Reason(rule: "K8", text: "at \(at) \(sender) fired \(firedText): \(why); its target–action entry (nil, \(a), \(registered)) matches, so \(sender) sent \(a) with a nil target (K8, K9)", trace: trace))
            reasons += walkReasons(site, a, found: nil, run)
            return Finding(short: "\(sender) sent \(a) at \(at) with a nil target, but no responder on the chain implements it (A2)", reasons: reasons)
        }
    }

    /// The nil-target walk: where it started (A3) and whom it asked (A2, A4).
    private static func walkReasons(_ site: ActionSite, _ a: String, found: String?, _ run: RunFacts) -> [Reason] {
        var reasons: [Reason] = []
        guard let start = site.walk.first else { return reasons }
        reasons.append(Reason(rule: "A3", text: "the walk for \(a) " + (run.trace[start].note.map { "started at " + ($0.hasPrefix("start = ") ? String($0.dropFirst(8)) : $0) } ?? "started at the first responder"), trace: [start]))
        let asked = site.walk.dropFirst().filter { run.trace[$0].arg("implements") != nil }
        let no = asked.filter { run.trace[$0].arg("implements") == .bool(false) }.compactMap { run.trace[$0].receiver?.id }
        let cycle = site.walk.dropFirst().filter { run.trace[$0].arg("implements") == nil }
        let askedText = no.isEmpty ? "" : "\(RunFacts.list(no)) \(no.count == 1 ? "does" : "do") not implement it; "
        if let found {
            reasons.append(Reason(rule: "A2", text: "\(askedText)\(found) is the first responder on the chain that implements \(a), so it gets the action (A2, A4)",
                                  trace: Array(asked) + (site.call.map { [$0] } ?? [])))
        } else {
            let ending = cycle.isEmpty ? "the chain ended" : "the walk hit a nextResponder cycle (R7)"
            reasons.append(Reason(rule: "A2", text: "\(askedText)\(ending) before a responder that implements \(a) was found, so UIApplication sendAction:to:from:forEvent: returned NO and nobody received the action (A2, A4)",
                                  trace: Array(asked) + cycle + (site.app.map { [$0] } ?? [])))
        }
        return reasons
    }

    /// Why a control fired an event (K2–K7), in words.
    private static func eventCause(_ event: ControlEvent, touch: String, control: String, _ run: RunFacts) -> String {
        let slop = RunFacts.number(run.knobs.controlTrackingSlop)
        switch event {
        case .touchUpInside: return "\(touch) lifted inside \(control)'s bounds grown by the \(slop) pt tracking slop (K3, K5)"
        case .primaryActionTriggered: return "a tap on a UIButton also triggers its primary action (K6)"
        case .touchUpOutside: return "\(touch) lifted outside \(control)'s bounds grown by the \(slop) pt tracking slop (K3, K5)"
        case .touchDown: return "\(touch) began on \(control) and it began tracking (K2)"
        case .touchDownRepeat: return "\(touch) began on \(control) as a repeated tap (K2, T10)"
        case .touchDragInside, .touchDragOutside, .touchDragEnter, .touchDragExit: return "\(touch) moved while \(control) was tracking (K4)"
        case .touchCancel: return "\(touch) was cancelled while \(control) was tracking (K7)"
        default: return "\(control) fired .\(event.rawValue)"
        }
    }
}
