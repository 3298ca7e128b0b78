/// "Why did this view receive what it received?": for each touch that concerned the view (hit-
/// tested to it or inside it, or forwarded to it), how each phase it got arrived — as its
/// hit-test view (T1), held back and flushed (GV5, GV6), cancelled by a recognizer (GV2, T9),
/// forwarded up the chain (T5, R7) — and why the phases it did not get never came: refused
/// (E1, E4, SV4, Z2), held back and dropped (GV5, GV2), kept by a responder below it (T6–T8),
/// or the touch was hit-tested elsewhere (`notHit`, with `Explainer`'s reasons).
extension RunReasons {
    static func view(_ id: String, _ run: RunFacts) -> Finding {
        guard let v = run.index.view(withId: id) else {
            return Finding(short: "\(id) is not a view of this scene", reasons: [])
        }
        let calls = run.trace.entries(of: id).filter { run.trace[$0].touchPhase != nil }
        let concerned = run.touches.filter { t in
            (run.hitView(t).map { run.isInside($0, v) } ?? false) || calls.contains { run.trace[$0].touchIDs.contains(t.id) }
        }
        guard !concerned.isEmpty else {
            guard let first = run.touches.first else {
                return Finding(short: "\(id) received nothing: the run has no touch", reasons: [])
            }
            let f = notHit(v, first, run)
            let others = run.touches.count > 1 ? " (nor any of the run's \(run.touches.count) touches)" : ""
            return Finding(short: "\(id) received nothing: \(f.short)\(others)", reasons: f.reasons)
        }
        var reasons: [Reason] = []
        var received: [String] = []
        var notable: String?
        for t in concerned {
            let mine = calls.filter { run.trace[$0].touchIDs.contains(t.id) }
            var direct: [Int] = []
            func flushDirect() {
                guard !direct.isEmpty else { return }
                reasons.append(boundDelivery(id, t, direct, run))
                direct = []
            }
            for i in mine {
                if let f = arrival(i, run) {
                    flushDirect()
                    reasons += f.reasons
                    if notable == nil { notable = f.short }
                } else {
                    direct.append(i)
                }
            }
            flushDirect()
            let phases = mine.compactMap { run.trace[$0].touchPhase.map(RunFacts.method) }
            received.append(phases.isEmpty ? "nothing of \(t.id)" : "\(RunFacts.list(phases)) for \(t.id)")
            // What did not come.
            guard !mine.contains(where: { run.trace[$0].touchPhase?.isTerminal ?? false }), let h = run.hitView(t) else { continue }
            var missing: Finding?
            // Phases that reached the hit-test view stopped on the way up (T6–T8, R7); phases
            // that did not were held back or refused there.
            let reachedHit = h != v && !run.trace.touchCalls(of: run.name(h), touch: t.id).isEmpty
            if reachedHit, let f = forwardingStop(t, from: h, to: v, run) {
                missing = f
            } else if let f = heldBack(t, h, run) {
                missing = f
            } else if t.end == nil {
                missing = Finding(short: "\(t.id) was still down when the run ended",
                                  reasons: [Reason(rule: "T2", text: "\(t.id) had not ended when the run ended, so \(id) got neither touchesEnded: nor touchesCancelled: for it yet", trace: mine)])
            }
            if let missing {
                reasons += missing.reasons
                if notable == nil { notable = missing.short }
            }
        }
        let sentence = "\(id) received " + received.joined(separator: "; ") + (notable.map { ": " + $0 } ?? "")
        return Finding(short: sentence, reasons: reasons)
    }

    /// Phases delivered straight to the view the touch is bound to (T1).
    private static func boundDelivery(_ id: String, _ t: RunFacts.Touch, _ calls: [Int], _ run: RunFacts) -> Reason {
        let phases = calls.map { "\(RunFacts.method(run.trace[$0].touchPhase!)) at \(RunFacts.time(run.trace[$0].t))" }
        let hit = run.hitTestCalls(t).filter { run.trace[$0].result.map { $0 != .null } ?? false }
        return Reason(rule: "T1", text: "\(t.id) was hit-tested to \(id) (H1) and stays bound to it for its life: \(id) received \(RunFacts.list(phases))",
                      trace: Array(hit.suffix(1)) + calls)
    }

    // MARK: how a phase arrived

    /// How the touch call `i` reached its receiver, when it was not a plain delivery to the
    /// touch's own view: forwarded (T5), flushed after being held back (GV5, GV6), or a
    /// cancellation (GV2, T9, T2). nil for a plain delivery.
    static func arrival(_ i: Int, _ run: RunFacts) -> Finding? {
        let chain = run.trace.forwardingChain(i)
        let root = chain[0]
        var reasons: [Reason] = []
        var short: String?
        if let f = rootArrival(root, run) {
            reasons += f.reasons
            short = f.short
        }
        guard chain.count > 1 else { return short == nil ? nil : Finding(short: short!, reasons: reasons) }
        let e = run.trace[i]
        let names = chain.compactMap { run.trace[$0].receiver?.id }
        let phase = RunFacts.method(e.touchPhase!)
        var rule = "T5"
        var text = "\(e.touchIDs.joined(separator: ", "))'s \(phase) went first to \(names[0]) and was forwarded up the responder chain \(names.joined(separator: " → ")): a responder that does not override the touch methods, or calls super in its override, passes them to its nextResponder"
        var supers: [String] = []
        for (k, c) in chain.dropLast().enumerated() {
            guard let id = run.trace[c].receiver?.id, let r = run.index.responder(withId: id) else { continue }
            if let o = run.index.touchOverrides(r), o[e.touchPhase!] == .superCall, o != .inherited { supers.append(id) }
            if let next = nextOverride(r, run.index), next == names[k + 1] {
                rule = "R7"
                text += "; \(id) overrides nextResponder to return \(next) (R7)"
            }
        }
        if !supers.isEmpty { text += "; \(RunFacts.list(supers)) override\(supers.count == 1 ? "s" : "") it and call\(supers.count == 1 ? "s" : "") super (T6)" }
        reasons.append(Reason(rule: rule, text: text + " (T5)", trace: chain))
        return Finding(short: short ?? "forwarded from \(names[0]) up the responder chain (\(rule))", reasons: reasons)
    }

    /// The call a touch method started with on the touch's view: flushed, or a cancellation.
    private static func rootArrival(_ root: Int, _ run: RunFacts) -> Finding? {
        let e = run.trace[root]
        let receiver = e.receiver?.id ?? "?"
        let touchIDs = e.touchIDs
        if let p = run.trace.parent(root), run.trace[p].marker == .flush {
            return flushed(root, flush: p, run)
        }
        guard e.touchPhase == .cancelled else { return nil }
        let touches = touchIDs.compactMap { run.touch($0) }
        if let g = touches.compactMap({ $0.summary?.cancelledBy }).first {
            let j = run.recognition(of: g, before: root)
            let what = j.map { "\(run.trace[$0].to == .began ? "began" : "recognized") at \(RunFacts.time(run.trace[$0].t))" } ?? "recognized"
            let isControl = run.index.view(withId: receiver).map { run.index.isEnabledControl($0) } ?? false
            let rule = isControl ? "GV10" : "GV2"
            var text = "\(g) \(what) and has cancelsTouchesInView = YES: it took \(RunFacts.list(touchIDs)) from \(receiver), which got touchesCancelled: and no further phase (GV2, T9)"
            var trace = (j.map { [$0] } ?? []) + [root]
            if isControl {
                let inner = run.trace.children(root).filter { run.trace[$0].selector == "cancelTrackingWithEvent:" || run.trace[$0].marker == .control }
                trace += inner
                text += "; as a control it cancelled its tracking and fired .touchCancel instead of a touch-up (GV10, K7)"
            }
            return Finding(short: "\(g) cancelled \(RunFacts.list(touchIDs)) (\(rule): cancelsTouchesInView)", reasons: [Reason(rule: rule, text: text, trace: trace)])
        }
        return Finding(short: "the input cancelled \(RunFacts.list(touchIDs)) (T2)",
                       reasons: [Reason(rule: "T2", text: "the input cancelled \(RunFacts.list(touchIDs)): \(receiver) got touchesCancelled: instead of touchesEnded:", trace: [root])])
    }

    /// A phase held back from the view while a recognizer that delays it was `.possible`, and
    /// delivered by the flush once none was (GV5, GV6).
    private static func flushed(_ call: Int, flush f: Int, _ run: RunFacts) -> Finding {
        let e = run.trace[call]
        let view = e.receiver?.id ?? "?"
        let touch = run.trace[f].touchIDs.first ?? "?"
        let w = run.trace.last(before: f) { $0.marker == .withhold && $0.touchIDs.contains(touch) }
        let previousFlush = run.trace.last(before: f) { $0.marker == .flush && $0.touchIDs.contains(touch) }
        let lower = max(w ?? 0, previousFlush ?? 0)
        let phase = e.touchPhase ?? .began
        // The recognizers of the touch that delayed this phase and failed since it was held.
        var released: [Int] = []
        for g in run.touch(touch)?.summary?.recognizers ?? [] {
            guard let info = run.recognizerInfo(g), info.delaysTouchesBegan || (phase.isTerminal && info.delaysTouchesEnded),
                  let s = run.trace.states(of: g).last(where: { $0 > lower && $0 < f && run.trace[$0].to == .failed }) else { continue }
            released.append(s)
        }
        released.sort()
        let withheldAll = w.map { run.trace[$0].stringArg("phase") == "began" } ?? false
        let rule = withheldAll && !(phase == .ended && previousFlush != nil) ? "GV5" : "GV6"
        let holders = w.map { run.trace[$0].objectIDs("by") } ?? []
        let since = w.map { RunFacts.time(run.trace[$0].t) } ?? "earlier"
        let flag = rule == "GV5" ? "delaysTouchesBegan" : "delaysTouchesEnded"
        let failedNames = released.compactMap { run.trace[$0].receiver?.id }
        var text = "\(touch)'s \(RunFacts.method(phase)) was held back from \(view)"
        if rule == "GV5" {
            text += " with the whole touch since \(since), because \(RunFacts.list(holders)) \(holders.count == 1 ? "has" : "have") \(flag) = YES"
        } else {
            text += failedNames.isEmpty ? " because a recognizer holding \(touch) with \(flag) = YES was still .possible"
                : " because \(RunFacts.list(failedNames)), holding \(touch) with \(flag) = YES, \(failedNames.count == 1 ? "was" : "were") still .possible"
        }
        text += "; it was delivered at \(RunFacts.time(run.trace[f].t))"
        text += failedNames.isEmpty ? ", once none of them was .possible" : " when \(RunFacts.list(failedNames)) failed"
        // The withhold marker shows GV5's hold; a touchesEnded: held after an earlier flush
        // was held by the recognizers that failed since (GV6), not by that marker.
        let trace = (rule == "GV5" ? (w.map { [$0] } ?? []) : []) + released + [f, call]
        let short = "\(RunFacts.method(phase)) was held back and delivered late" + (failedNames.isEmpty ? "" : " when \(RunFacts.list(failedNames)) failed") + " (\(rule))"
        return Finding(short: short, reasons: [Reason(rule: rule, text: text, trace: trace)])
    }

    // MARK: what did not come

    /// Why a touch's phases did not reach its hit-test view `h`: refused (E1, E4, SV4, Z2),
    /// held back and dropped (GV5, GV2), or still held back at the end (GV5, GV6).
    static func heldBack(_ t: RunFacts.Touch, _ h: Int, _ run: RunFacts) -> Finding? {
        let name = run.name(h)
        let gate = run.markers(.gate, touch: t.id)
        switch t.summary?.refused {
        case .exclusiveTouch?:
            return Finding(short: "\(t.id) was refused because of an exclusive-touch view (E4)",
                           reasons: [Reason(rule: "E4", text: "at \(RunFacts.time(t.began)) " + (gate.first.flatMap { run.trace[$0].note } ?? "\(t.id) was refused: an exclusive-touch view was tracking another touch (E3)"), trace: gate)])
        case .multipleTouchDisabled?:
            return Finding(short: "\(name) already held a touch and is not multiple-touch enabled (E1)",
                           reasons: [Reason(rule: "E1", text: gate.first.flatMap { run.trace[$0].note } ?? "\(name) holds another touch and multipleTouchEnabled is NO", trace: gate)])
        case .touchesShouldBegin?:
            let q = run.trace.entries.indices.filter {
                run.trace[$0].selector == "touchesShouldBegin:withEvent:inContentView:" && run.trace[$0].boolResult == false
                    && run.trace[$0].touchIDs.contains(t.id)
            }
            let scroll = q.first.flatMap { run.trace[$0].receiver?.id } ?? "the enclosing scroll view"
            return Finding(short: "\(scroll) answered NO to touchesShouldBegin:withEvent:inContentView: (SV4)",
                           reasons: [Reason(rule: "SV4", text: "\(scroll) answered NO to touchesShouldBegin:withEvent:inContentView: for \(t.id) in \(name): the touch is kept from \(name) for its whole life", trace: q)])
        case .ignoringInteractionEvents?:
            return Finding(short: "the application ignores interaction events (Z2)",
                           reasons: [Reason(rule: "Z2", text: "the application ignores interaction events: \(t.id) was dropped before any view received it", trace: gate)])
        case nil:
            break
        }
        let withholds = run.markers(.withhold, touch: t.id).filter { run.trace[$0].receiver?.id == name }
        if let d = run.markers(.drop, touch: t.id).first(where: { run.trace[$0].receiver?.id == name }) {
            let w = withholds.last { $0 < d }
            let holders = w.map { run.trace[$0].objectIDs("by") } ?? []
            guard let g = t.summary?.cancelledBy else {
                return Finding(short: "\(t.id) was cancelled before its touchesBegan: was delivered (T2)",
                               reasons: [Reason(rule: "T2", text: run.trace[d].note ?? "\(t.id) was cancelled by the input while held back: for \(name) the touch never happened", trace: (w.map { [$0] } ?? []) + [d])])
            }
            let j = run.recognition(of: g, before: d)
            let what = j.map { "\(run.trace[$0].to == .began ? "began" : "recognized") at \(RunFacts.time(run.trace[$0].t))" } ?? "recognized"
            let held = holders.isEmpty ? "" : "\(t.id) was held back from \(name) since \(RunFacts.time(run.trace[w!].t)) by \(RunFacts.list(holders)) (\(w.flatMap { run.trace[$0].stringArg("phase") } == "began" ? "delaysTouchesBegan, GV5" : "delaysTouchesEnded, GV6")); "
            return Finding(short: "\(t.id) was held back and dropped when \(g) \(what.split(separator: " ").first ?? "recognized") (GV2)",
                           reasons: [Reason(rule: holders.isEmpty ? "GV2" : "GV5", text: "\(held)\(g) \(what) with cancelsTouchesInView = YES, so the phases \(name) had not received were dropped: \(name) never got touchesBegan:, and so no touchesCancelled: either (GV2)",
                                            trace: (w.map { [$0] } ?? []) + (j.map { [$0] } ?? []) + [d])])
        }
        if let w = withholds.last, !run.markers(.flush, touch: t.id).contains(where: { $0 > w && run.trace[$0].receiver?.id == name }),
           !run.trace.touchCalls(of: name, touch: t.id).contains(where: { $0 > w && run.trace[$0].touchPhase == .cancelled }) {
            let holders = run.trace[w].objectIDs("by")
            let began = run.trace[w].stringArg("phase") == "began"
            let rule = began ? "GV5" : "GV6"
            return Finding(short: "\(t.id) was still held back by \(RunFacts.list(holders)) when the run ended (\(rule))",
                           reasons: [Reason(rule: rule, text: "\(t.id)\(began ? " (all phases)" : "'s touchesEnded:") was held back from \(name) at \(RunFacts.time(run.trace[w].t)) by \(RunFacts.list(holders)) (\(began ? "delaysTouchesBegan" : "delaysTouchesEnded")), which \(holders.count == 1 ? "was" : "were") still .possible when the run ended", trace: [w])])
        }
        return nil
    }

    /// Why phases that reached the touch's view `h` did not get forwarded as far as `v`: the
    /// responder where forwarding stopped keeps them (T6, T7, T8, K11 passes them on), or the
    /// chain does not pass through `v` (R7).
    static func forwardingStop(_ t: RunFacts.Touch, from h: Int, to v: Int, _ run: RunFacts) -> Finding? {
        let hName = run.name(h), vName = run.name(v)
        let roots = run.trace.touchCalls(of: hName, touch: t.id).filter { run.trace.forwardedFrom($0) == nil }
        guard let root = roots.first else { return nil }
        let end = run.trace.forwardingEnd(root)
        let path = run.trace.forwardingChain(end)
        let names = path.compactMap { run.trace[$0].receiver?.id }
        guard let last = names.last, !names.contains(vName), let r = run.index.responder(withId: last) else { return nil }
        let phase = run.trace[root].touchPhase ?? .began
        let rule: String, why: String
        if let o = run.index.touchOverrides(r), o[phase] == .handle {
            rule = "T6"; why = "\(last) overrides \(RunFacts.method(phase)) without calling super, so it keeps the touches"
        } else if case .view(let x) = r, run.index.isEnabledControl(x) {
            rule = "T7"; why = "\(last) is a UIControl: it tracks its touches and does not forward them"
        } else if case .view(let x) = r, run.index.bases[x].isScrollView {
            rule = "T8"; why = "\(last) is a scroll view: it keeps the touches hit-tested to it"
        } else {
            // The chain went past without `v`: a nextResponder override (R7), or `v` is not
            // above the hit-test view at all (R9).
            let overriding = names.compactMap { n in run.index.responder(withId: n).flatMap { r in nextOverride(r, run.index).map { (n, $0) } } }.first
            let via = names.count > 1 ? " (forwarded \(names.joined(separator: " → ")))" : ""
            if let (who, to) = overriding, run.index.isDescendant(h, of: v) {
                return Finding(short: "the responder chain from \(hName) skips \(vName): \(who) overrides nextResponder to return \(to) (R7)",
                               reasons: [Reason(rule: "R7", text: "\(t.id) was delivered to its hit-test view \(hName)\(via); \(who) overrides nextResponder to return \(to), so the touch methods never reach \(vName)", trace: path)])
            }
            return Finding(short: "\(vName) is not on the responder chain of \(hName) (R9)",
                           reasons: [Reason(rule: "R9", text: "\(t.id) was delivered to its hit-test view \(hName)\(via); \(vName) is not on its responder chain, so it never got it", trace: path)])
        }
        let via = names.count > 1 ? " (forwarded \(names.joined(separator: " → ")))" : ""
        return Finding(short: "\(t.id) went to \(hName)\(via) and \(last) kept it (\(rule))",
                       reasons: [Reason(rule: rule, text: "\(t.id) was delivered to its hit-test view \(hName)\(via); \(why), so \(vName) never got it", trace: path)])
    }

    /// A responder's declared `nextResponder` override (R7), as its id.
    static func nextOverride(_ r: Responder, _ index: SceneIndex) -> String? {
        switch r {
        case .view(let v): return index.view(v).overrides?.nextResponder
        case .viewController(let v): return index.view(v).viewController?.overrides?.nextResponder
        case .application: return index.scene.app?.overrides?.nextResponder
        case .appDelegate: return index.scene.app?.delegate?.overrides?.nextResponder
        case .windowScene: return nil
        }
    }
}
