/// "Why did this recognizer end where it did?": the touches it never received and why (G1, G4,
/// G6, G7, GS6, G9, E4), then each state change of the run with the cause its state entry
/// records (GS7/X1 vetoes, GM6 requirements, GM2 prevention, timers, movement, lifts, too many
/// touches), the waits (GS10) and the actions it sent (GS2).
extension RunReasons {
    static func recognizer(_ id: String, _ run: RunFacts) -> Finding {
        guard let info = run.recognizerInfo(id) else {
            return Finding(short: "\(id) is not a recognizer of this scene", reasons: [])
        }
        var keyed: [(key: Int, reason: Reason)] = []
        func add(_ reasons: [Reason]) {
            for r in reasons { keyed.append((r.trace.min() ?? Int.max, r)) }
        }

        let received = run.touches.filter { $0.summary?.recognizers.contains(id) ?? false }
        // Touches that went elsewhere explain nothing when one reached its view (G1).
        let reachedView = !received.isEmpty || run.touches.contains { t in run.hitView(t).map { run.isInside($0, info.view) } ?? false }
        var missed: [Finding] = []
        for t in run.touches where !(t.summary?.recognizers.contains(id) ?? false) {
            guard let f = notReceived(info, t, run, receivedAny: reachedView) else { continue }
            missed.append(f)
            add(f.reasons)
        }

        if !received.isEmpty {
            // G1, G2: the touches it was given, where each was hit-tested.
            var shown: [Int] = []
            var whereText: [String] = []
            for t in received {
                shown += run.markers(.collect, touch: t.id).prefix(1)
                if let first = run.trace.touchCalls(of: id, touch: t.id).first { shown.append(first) }
                whereText.append("\(t.id) (hit-tested to \(t.summary?.hitTestView ?? "?"))")
            }
            add([Reason(rule: "G1", text: "\(id) received \(RunFacts.list(whereText)): \(received.count == 1 ? "it was" : "each was") hit-tested to \(run.name(info.view)), the view \(id) is attached to, or a view inside it, so \(id) was collected for it when it began (G2)",
                        trace: shown.sorted())])
        }

        let states = run.trace.states(of: id)
        var shorts: [Int: String] = [:]
        var changed: [Int] = []
        for i in states {
            if run.trace[i].reasonParts.word == "changed" { changed.append(i); continue }
            let f = transition(i, info, run)
            shorts[i] = f.short
            add(f.reasons)
        }
        if !changed.isEmpty {
            let first = run.trace[changed[0]].t, last = run.trace[changed[changed.count - 1]].t
            let span = first == last ? "at \(RunFacts.time(first))" : "from \(RunFacts.time(first)) to \(RunFacts.time(last))"
            add([Reason(rule: "GS1", text: "\(id) went to .changed \(changed.count == 1 ? "once" : "\(changed.count) times") \(span), as its touches moved after it began", trace: changed)])
        }
        for m in run.trace.markers(of: id, .pending) {
            let waiting = run.trace[m].objectIDs("waitingFor")
            var shown = [m]
            for w in waiting { if let f = run.failure(of: w, before: run.trace.count), f > m { shown.append(f) } }
            add([Reason(rule: "GS10", text: "at \(RunFacts.time(run.trace[m].t)) \(id) would have recognized but waited, still .possible, for \(RunFacts.list(waiting)) to fail (GM6)", trace: shown)])
        }
        let sent = sentActions(id, run)
        if !sent.isEmpty {
            let names = Array(Set(sent.map { "\(run.result.actions[$0.record].action) to \(run.result.actions[$0.record].target ?? "?")" })).sorted()
            add([Reason(rule: "GS2", text: "\(id) sent \(RunFacts.list(names)) on \(sent.count == 1 ? "its state change" : "\(sent.count) state changes"); a recognizer sends its actions on began, changed, ended and cancelled, never on failed",
                        trace: sent.map(\.call))])
        } else if states.contains(where: { run.trace[$0].to?.hasRecognized ?? false }),
                  !info.targets.contains(where: { $0.target != nil }) {
            add([Reason(rule: "A7", text: "\(id) has no target: it recognized but sent nothing (a recognizer's action never walks the responder chain)",
                        trace: states.filter { run.trace[$0].to?.hasRecognized ?? false })])
        }
        if states.isEmpty, !received.isEmpty {
            add(stillPossible(info, received, run))
        }

        var reasons = keyed.enumerated().sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }.map(\.element.reason)
        if reasons.isEmpty {
            reasons = [Reason(rule: "G1", text: "the run has no touch, so \(id) received nothing", trace: [])]
        }
        return Finding(short: recognizerSentence(info, received: received, missed: missed, states: states, shorts: shorts,
                                                 sent: sent, run), reasons: reasons)
    }

    private static func recognizerSentence(_ info: RecognizerInfo, received: [RunFacts.Touch], missed: [Finding], states: [Int],
                                           shorts: [Int: String], sent: [(record: Int, call: Int)], _ run: RunFacts) -> String {
        let id = info.id
        guard !received.isEmpty else {
            return "\(id) never received a touch" + (missed.first.map { ": " + $0.short } ?? "")
        }
        guard let final = states.last else {
            return "\(id) received \(RunFacts.list(received.map(\.id))) but stayed .possible: it neither recognized nor failed before the run ended"
        }
        let e = run.trace[final]
        let at = RunFacts.time(e.t)
        switch e.to {
        case .failed?:
            return "\(id) failed at \(at): \(shorts[final] ?? e.reason ?? "")"
        case .cancelled?:
            return "\(id) was cancelled at \(at): \(shorts[final] ?? e.reason ?? "")"
        case .ended? where e.from == .possible:
            let mine = sent.filter { run.result.actions[$0.record].t == e.t }.map { run.result.actions[$0.record] }
            if mine.isEmpty { return "\(id) recognized at \(at) but sent no action" + (info.targets.contains { $0.target != nil } ? "" : ": it has no target (A7)") }
            return "\(id) recognized at \(at) and sent " + RunFacts.list(mine.map { "\($0.action) to \($0.target ?? "?")" })
        case .ended?:
            let began = states.last { run.trace[$0].to == .began }.map { " began at \(RunFacts.time(run.trace[$0].t)) and" } ?? ""
            return "\(id)\(began) ended at \(at)"
        case .began?, .changed?:
            let began = states.last { run.trace[$0].to == .began }.map { RunFacts.time(run.trace[$0].t) } ?? at
            return "\(id) began at \(began) and was still .\(e.to!.rawValue) when the run ended"
        default:
            return "\(id) went to .\(e.to?.rawValue ?? "?") at \(at)"
        }
    }

    // MARK: touches it did not receive

    /// Why touch `t` is not one of the recognizer's. A touch hit-tested outside its view is a
    /// reason only when the recognizer received no touch at all (G1).
    static func notReceived(_ info: RecognizerInfo, _ t: RunFacts.Touch, _ run: RunFacts, receivedAny: Bool) -> Finding? {
        let id = info.id
        let viewName = run.name(info.view)
        let collect = run.markers(.collect, touch: t.id).first
        switch t.summary?.refused {
        case .exclusiveTouch?:
            let gate = run.markers(.gate, touch: t.id)
            if let hit = run.hitView(t), !run.isInside(hit, info.view), receivedAny { return nil }
            return Finding(short: "\(t.id) was refused because of an exclusive-touch view (E4)",
                           reasons: [Reason(rule: "E4", text: "at \(RunFacts.time(t.began)) " + (gate.first.flatMap { run.trace[$0].note } ?? "\(t.id) was refused: an exclusive-touch view was tracking another touch (E3)") + "; so \(id) never got it", trace: gate)])
        case .ignoringInteractionEvents?:
            guard !receivedAny else { return nil }
            return notHit(info.view, t, run)
        default: break
        }
        guard let hit = run.hitView(t) else {
            guard !receivedAny else { return nil }
            return notHit(info.view, t, run)
        }
        guard run.isInside(hit, info.view) else {
            guard !receivedAny else { return nil }
            let where_ = notHit(info.view, t, run)
            var reasons = [Reason(rule: "G1", text: "a recognizer receives only touches hit-tested to its view (\(viewName)) or a view inside it; \(t.id) was hit-tested to \(run.name(hit)), outside \(viewName)",
                                  trace: (where_.reasons.first?.trace ?? []) + (collect.map { [$0] } ?? []))]
            reasons += where_.reasons.dropFirst()
            return Finding(short: "\(t.id) was hit-tested to \(run.name(hit)), outside \(viewName) (G1)", reasons: reasons)
        }
        let shown = collect.map { [$0] } ?? []
        if !info.enabled {
            return Finding(short: "\(id) is disabled (G4)",
                           reasons: [Reason(rule: "G4", text: "\(id) is disabled (enabled = NO): it is left out when \(t.id)'s recognizers are collected, although \(t.id) was hit-tested to \(hit == info.view ? viewName : "\(run.name(hit)) inside \(viewName)")", trace: shown)])
        }
        // G6, G7: its delegate was asked about this touch and answered NO.
        let lower = run.hitTestCalls(t).last ?? 0
        if let c = collect {
            for q in (lower..<c) where run.trace[q].kind == .call && run.trace[q].objectIDs("gestureRecognizer") == [id]
                && run.trace[q].boolResult == false {
                let e = run.trace[q]
                let touchQuestion = e.selector == "gestureRecognizer:shouldReceiveTouch:"
                guard touchQuestion || e.selector == "gestureRecognizer:shouldReceiveEvent:" else { continue }
                let rule = touchQuestion ? "G6" : "G7"
                let question = touchQuestion ? "gestureRecognizer:shouldReceiveTouch:" : "gestureRecognizer:shouldReceiveEvent:"
                let delegate = e.receiver?.id ?? "its delegate"
                return Finding(short: "its delegate \(delegate) answered NO to \(question) for \(t.id) (\(rule))",
                               reasons: [Reason(rule: rule, text: "at \(RunFacts.time(t.began)) \(id)'s delegate \(delegate) answered NO to \(question) for \(t.id): \(id) never sees that touch, and does not delay or cancel it", trace: [q, c])])
            }
            // GS6: it had failed (or finished) earlier in the sequence and was not reset yet.
            if let s = run.trace.states(of: id).last(where: { $0 < c }), run.trace[s].to?.isTerminal ?? false,
               !run.trace.calls(of: id, "reset").contains(where: { $0 > s && $0 < c }) {
                let e = run.trace[s]
                return Finding(short: "\(id) had already gone to .\(e.to!.rawValue) in this sequence (GS6)",
                               reasons: [Reason(rule: "GS6", text: "\(id) went to .\(e.to!.rawValue) at \(RunFacts.time(e.t)) and is not reset before the sequence ends, so it is not given \(t.id), which began at \(RunFacts.time(t.began))", trace: [s, c])])
            }
        }
        if info.spec?.requiresExclusiveTouchType == true {
            return Finding(short: "\(t.id) is of another touch type (G9)",
                           reasons: [Reason(rule: "G9", text: "\(id) has requiresExclusiveTouchType = YES and already holds a touch of another type, so it ignores \(t.id)", trace: shown)])
        }
        return Finding(short: "\(t.id) is not among its touches (G2)",
                       reasons: [Reason(rule: "G2", text: "\(id) is not in \(t.id)'s recognizers, fixed when \(t.id) began", trace: shown)])
    }

    // MARK: state changes

    /// One state entry of the recognizer and what caused it.
    static func transition(_ i: Int, _ info: RecognizerInfo, _ run: RunFacts) -> Finding {
        let e = run.trace[i]
        let id = info.id
        let at = RunFacts.time(e.t)
        let change = "\(id) .\(e.from?.rawValue ?? "?") → .\(e.to?.rawValue ?? "?")"
        let (word, argument) = e.reasonParts
        let parent = run.trace.parent(i)
        let shown = (parent.map { [$0] } ?? []) + [i]
        let knobs = run.knobs
        let spec = info.spec
        func finding(_ rule: String, _ short: String, _ text: String, _ trace: [Int]) -> Finding {
            Finding(short: short + " (\(rule))", reasons: [Reason(rule: rule, text: "at \(at) \(change): " + text, trace: trace)])
        }
        switch word {
        case "recognized" where e.from == .possible, "began":
            return recognized(i, info, run)
        case "recognized":
            let rule = info.base == .longPress ? "GP4" : (info.base == .pan || info.base == .scrollViewPan || info.base == .screenEdgePan ? "GP7" : "GS1")
            return finding(rule, "its fingers lifted", "its fingers lifted, which ends a gesture that has begun", shown)
        case "shouldBeginFalse":
            return shouldBeginFalse(i, argument ?? "", info, run)
        case "requiredRecognized":
            let x = argument ?? "?"
            let j = run.recognition(of: x, before: i)
            let xr = run.index.recognizer(withId: x)
            let isStatic = xr.map { info.requireToFail.contains($0) } ?? false
            var trace = j.map { [$0] } ?? []
            var how = "require(toFail: \(x))"
            var rule = "GM6"
            if !isStatic, let q = requirementQuestion(id, x, before: i, run) {
                trace.insert(q, at: 0)
                how = "its delegate's answer YES to \(run.trace[q].selector ?? "")"
                rule = "GM7"
            }
            let what = j.map { run.trace[$0].to == .began ? "began at \(RunFacts.time(run.trace[$0].t))" : "recognized at \(RunFacts.time(run.trace[$0].t))" } ?? "recognized"
            return finding(rule, "it requires \(x) to fail and \(x) \(what)",
                           "\(id) may not leave .possible until \(x) has failed (\(how)); \(x) \(what) instead, so \(id) fails", trace + [i])
        case "prevented":
            let x = argument ?? "?"
            let j = run.recognition(of: x, before: i)
            var trace = j.map { [$0] } ?? []
            let lower = j ?? 0
            for q in lower..<i where run.trace[q].kind == .call {
                let ids = run.trace[q].objectIDs("gestureRecognizer") + run.trace[q].objectIDs("otherGestureRecognizer")
                guard ids.contains(id), ids.contains(x) else { continue }
                if run.trace[q].selector == "gestureRecognizer:shouldRecognizeSimultaneouslyWithGestureRecognizer:"
                    || run.trace[q].selector == "canPreventGestureRecognizer:" || run.trace[q].selector == "canBePreventedByGestureRecognizer:" {
                    trace.append(q)
                }
            }
            let shared = run.touches.filter { ($0.summary?.recognizers.contains(id) ?? false) && ($0.summary?.recognizers.contains(x) ?? false) }.map(\.id)
            let what = j.map { run.trace[$0].to == .began ? "began at \(RunFacts.time(run.trace[$0].t))" : "recognized at \(RunFacts.time(run.trace[$0].t))" } ?? "recognized"
            return finding("GM2", "\(x) \(what) and prevented it",
                           "\(x) \(what); the two hold \(shared.isEmpty ? "a common touch" : RunFacts.list(shared)), so only one may recognize, and no delegate allowed both (GM3)", trace + [i])
        case "timeout":
            return timeout(i, info, run)
        case "movedTooFar":
            let distance = parent.flatMap { movement(info, $0, run) }
            let moved = distance.map { "moved \(RunFacts.number(($0 * 10).rounded() / 10)) pt" } ?? "moved too far"
            switch info.base {
            case .tap:
                let limit = RunFacts.number(knobs.tapAllowableMovement)
                if let p = parent, run.trace[p].touchPhase == .began {
                    return finding("GP12", "the next tap began too far from the first",
                                   "the next tap began \(distance.map { RunFacts.number(($0 * 10).rounded() / 10) + " pt" } ?? "too far") from the first, more than tapAllowableMovement = \(limit) pt", shown)
                }
                return finding("GP12", "its touch \(moved), more than tapAllowableMovement = \(limit) pt",
                               "its touch \(moved) from where it began, more than tapAllowableMovement = \(limit) pt", shown)
            case .longPress:
                let limit = RunFacts.number(spec?.allowableMovement ?? knobs.longPressAllowableMovement)
                return finding("GP2", "its touch \(moved) before it was held long enough",
                               "its touch \(moved) from where it began, more than allowableMovement = \(limit) pt, before minimumPressDuration", shown)
            default:
                return finding("GS1", "its touches moved off its directions",
                               "its touches moved more than swipeMaximumDeviation = \(RunFacts.number(knobs.swipeMaximumDeviation)) pt off each of its directions", shown)
            }
        case "liftedEarly":
            switch info.base {
            case .tap:
                return finding("GP8", "its tap lifted with too few fingers",
                               "its tap lifted with fewer fingers down at once than numberOfTouchesRequired = \(spec?.numberOfTouchesRequired ?? 1)", shown)
            case .longPress:
                let held = parent.map { run.trace[$0].t - pressStart(info, before: $0, run) }
                let duration = RunFacts.number(spec?.minimumPressDuration ?? knobs.longPressMinimumDuration)
                return finding("GP1", "its touch lifted before minimumPressDuration = \(duration) s",
                               "its touch lifted\(held.map { " after " + RunFacts.number(($0 * 1000).rounded() / 1000) + " s" } ?? ""), before minimumPressDuration = \(duration) s", shown)
            case .pan, .screenEdgePan, .scrollViewPan:
                return finding("GP7", "its touches lifted before moving panHysteresis = \(RunFacts.number(knobs.panHysteresis)) pt",
                               "its touches lifted before moving panHysteresis = \(RunFacts.number(knobs.panHysteresis)) pt, so it never began", shown)
            case .scrollViewDelay:
                return finding("SV7", "the touch ended before scrollDelay = \(RunFacts.number(knobs.scrollDelay)) s",
                               "the touch ended before scrollDelay = \(RunFacts.number(knobs.scrollDelay)) s (a quick tap): the delay recognizer fails at once and the content view gets the touches it held back", shown)
            case .swipe:
                return finding("GS1", "its touches lifted before moving swipeMinimumDistance = \(RunFacts.number(knobs.swipeMinimumDistance)) pt",
                               "its touches lifted before moving swipeMinimumDistance = \(RunFacts.number(knobs.swipeMinimumDistance)) pt in one of its directions", shown)
            case .pinch, .rotation:
                return finding("GS1", "its touches lifted before the gesture began", "its touches lifted before the two fingers moved enough to begin", shown)
            }
        case "tooManyTouches":
            switch info.base {
            case .pan, .screenEdgePan:
                let most = spec?.maximumNumberOfTouches.map { "maximumNumberOfTouches = \($0)" } ?? "its maximumNumberOfTouches"
                return finding("GP6", "more fingers than \(most) were down", "more fingers than \(most) were down", shown)
            case .tap:
                let n = spec?.numberOfTouchesRequired ?? 1
                return finding("GP8", "more fingers than numberOfTouchesRequired = \(n) were down",
                               "more fingers than numberOfTouchesRequired = \(n) were down at once", shown)
            default:
                return finding("GS1", "more fingers than it takes were down", "more fingers than it takes were down", shown)
            }
        case "notAtEdge":
            return finding("GS1", "its touch did not begin at one of its edges",
                           "its touch began farther than screenEdgeMargin = \(RunFacts.number(knobs.screenEdgeMargin)) pt from each of its edges", shown)
        case "touchCancelled":
            return finding("GS1", "its touch was cancelled", "its touch was cancelled by the input (touchesCancelled:withEvent:)", shown)
        case "disabled":
            return finding("G4", "it was disabled", "it was disabled while it held touches", shown)
        default:
            return finding("GS1", e.reason ?? "its state changed", e.reason ?? "", shown)
        }
    }

    /// Leaving `.possible` for `.began` or `.ended`: what made it want to, and what did not stop it.
    private static func recognized(_ i: Int, _ info: RecognizerInfo, _ run: RunFacts) -> Finding {
        let e = run.trace[i]
        let id = info.id
        // The touch call or timer on the recognizer that last changed its mind.
        let trigger = run.trace.last(before: i) { x in
            x.receiver?.id == id && (x.touchPhase != nil || (x.marker == .timer && x.stringArg("action") == "fired"))
        }
        let (rule, what) = wanted(info, run)
        let verb = e.to == .began ? "began" : "recognized"
        var reasons = [Reason(rule: rule, text: "at \(RunFacts.time(e.t)) \(id) \(verb) (.possible → .\(e.to?.rawValue ?? "?")): \(what)",
                              trace: (trigger.map { [$0] } ?? []) + [i])]
        // GS7: the questions asked before it could leave .possible, all answered YES.
        let lower = trigger ?? (run.trace.states(of: id).last { $0 < i } ?? 0)
        let asked = (lower..<i).filter {
            run.trace[$0].kind == .call && run.trace[$0].selector == "gestureRecognizerShouldBegin:"
                && run.trace[$0].objectIDs("gestureRecognizer") == [id]
        }
        if !asked.isEmpty {
            let who = asked.compactMap { run.trace[$0].receiver?.id }
            reasons.append(Reason(rule: "GS7", text: "\(RunFacts.list(who)) \(who.count == 1 ? "was" : "were") asked gestureRecognizerShouldBegin: and answered YES", trace: asked))
        } else if !info.cancelsTouchesInView {
            reasons.append(Reason(rule: "GS7", text: "no view was asked gestureRecognizerShouldBegin:, because \(id) has cancelsTouchesInView = NO and takes no touch from a view", trace: [i]))
        }
        // GM6: the requirements it waited for failed first.
        for r in info.requireToFail {
            let x = run.index.recognizers[r].id
            if let f = run.failure(of: x, before: i) {
                reasons.append(Reason(rule: "GM6", text: "\(id) requires \(x) to fail, and \(x) failed at \(RunFacts.time(run.trace[f].t))", trace: [f]))
            }
        }
        return Finding(short: "\(verb) at \(RunFacts.time(e.t)) (\(rule))", reasons: reasons)
    }

    /// What makes a recognizer of this class want to leave `.possible`, with its rule (GP).
    private static func wanted(_ info: RecognizerInfo, _ run: RunFacts) -> (rule: String, what: String) {
        let knobs = run.knobs
        let spec = info.spec
        let rule: String, what: String
        switch info.base {
        case .tap:
            let taps = spec?.numberOfTapsRequired ?? 1
            (rule, what) = ("GP9", taps == 1 ? "its tap lifted" : "the last of its \(taps) taps lifted")
        case .longPress:
            (rule, what) = ("GP4", "its touch was held for minimumPressDuration = \(RunFacts.number(spec?.minimumPressDuration ?? knobs.longPressMinimumDuration)) s without moving too far")
        case .pan, .scrollViewPan:
            (rule, what) = ("GP5", "its touches moved panHysteresis = \(RunFacts.number(knobs.panHysteresis)) pt")
        case .screenEdgePan:
            (rule, what) = ("GP5", "its touch began at one of its edges and moved panHysteresis = \(RunFacts.number(knobs.panHysteresis)) pt")
        case .swipe:
            (rule, what) = ("GS1", "its touches moved swipeMinimumDistance = \(RunFacts.number(knobs.swipeMinimumDistance)) pt in one of its directions")
        case .pinch, .rotation, .scrollViewDelay:
            (rule, what) = ("GS1", "its touches moved enough")
        }
        return (rule, what)
    }

    /// `shouldBeginFalse(x)`: the delegate or a view answered NO (GS7), a control's own veto
    /// (X1, X2), or the scroll view for its pan (SV6).
    private static func shouldBeginFalse(_ i: Int, _ x: String, _ info: RecognizerInfo, _ run: RunFacts) -> Finding {
        let e = run.trace[i]
        let id = info.id
        let at = RunFacts.time(e.t)
        let q = run.trace.last(before: i) { c in
            c.kind == .call && c.selector == "gestureRecognizerShouldBegin:" && c.receiver?.id == x && c.boolResult == false
        }
        var trace = (q.map { [$0] } ?? [])
        // What made it try to leave .possible, just before it was asked.
        let trigger = run.trace.last(before: q ?? i) { c in
            c.receiver?.id == id && (c.touchPhase != nil || (c.marker == .timer && c.stringArg("action") == "fired"))
        }
        let attempt = trigger.map { j -> Reason in
            let (rule, what) = wanted(info, run)
            return Reason(rule: rule, text: "at \(at) \(what), so \(id) tried to leave .possible and was asked to begin (GS7)", trace: [j])
        }
        func withAttempt(_ f: Finding) -> Finding { Finding(short: f.short, reasons: (attempt.map { [$0] } ?? []) + f.reasons) }
        let v = run.index.view(withId: x)
        if info.isScrollViewPan, v == info.view {
            let inner = q.map { run.trace.children($0).filter { run.trace[$0].boolResult == false } } ?? []
            trace += inner + [i]
            let why = q.flatMap { run.trace[$0].note }.map { ": " + $0 } ?? ""
            return withAttempt(Finding(short: "the scroll view \(x) answered NO to gestureRecognizerShouldBegin: for its pan (SV6)",
                           reasons: [Reason(rule: "SV6", text: "at \(at) the scroll view \(x), its pan's delegate, answered NO to gestureRecognizerShouldBegin:\(why); \(id) fails", trace: trace)]))
        }
        trace.append(i)
        if let d = info.delegate, d.id == x, d.shouldBegin == false {
            return withAttempt(Finding(short: "its delegate \(x) answered NO to gestureRecognizerShouldBegin: (GS7)",
                           reasons: [Reason(rule: "GS7", text: "at \(at) \(id) tried to leave .possible; its delegate \(x) answered NO to gestureRecognizerShouldBegin:, so \(id) failed", trace: trace)]))
        }
        guard let v else {
            return withAttempt(Finding(short: "\(x) answered NO to gestureRecognizerShouldBegin: (GS7)",
                           reasons: [Reason(rule: "GS7", text: "at \(at) \(x) answered NO to gestureRecognizerShouldBegin:, so \(id) failed", trace: trace)]))
        }
        let asked = "\(x) was asked because it is the hit-test view of \(id)'s touch and \(id) has cancelsTouchesInView = YES: its recognition would take that touch from \(x)"
        let note = q.flatMap { run.trace[$0].note }
        let base = run.index.view(v).base
        let vetoedByClass = note.map { $0.contains("X1") }
            ?? (run.index.view(v).overrides?.gestureRecognizerShouldBegin == nil && base.vetoesAncestorSingleTap)
        if vetoedByClass {
            return withAttempt(Finding(short: "\(x)'s gestureRecognizerShouldBegin: answered NO (X1)",
                           reasons: [Reason(rule: "X1", text: "at \(at) \(x), a \(base.rawValue), answered NO to gestureRecognizerShouldBegin: for \(id): a \(base.rawValue) keeps a single-finger single tap from a tap recognizer of an ancestor (here \(run.name(info.view))), so the tap is \(x)'s and \(id) fails (X1, X2). \(asked) (GS7)", trace: trace)]))
        }
        return withAttempt(Finding(short: "\(x)'s gestureRecognizerShouldBegin: override answered NO (GS7)",
                       reasons: [Reason(rule: "GS7", text: "at \(at) \(x)'s gestureRecognizerShouldBegin: override answered NO for \(id), so \(id) failed. \(asked)", trace: trace)]))
    }

    private static func timeout(_ i: Int, _ info: RecognizerInfo, _ run: RunFacts) -> Finding {
        let e = run.trace[i]
        let id = info.id
        let knobs = run.knobs
        let fired = run.trace.parent(i).flatMap { run.trace[$0].marker == .timer ? $0 : nil }
            ?? run.trace.last(before: i) { $0.marker == .timer && $0.receiver?.id == id && $0.stringArg("action") == "fired" }
        let kind = fired.flatMap { run.trace[$0].stringArg("kind") } ?? ""
        let scheduled = fired.flatMap { f in
            run.trace.last(before: f) { $0.marker == .timer && $0.receiver?.id == id && $0.stringArg("action") == "scheduled" && $0.stringArg("kind") == kind }
        }
        let trace = (scheduled.map { [$0] } ?? []) + (fired.map { [$0] } ?? []) + [i]
        let rule: String, text: String
        switch kind {
        case "tapMaxInterval":
            let taps = info.spec?.numberOfTapsRequired ?? 1
            rule = "GP10"
            text = "its next tap did not begin within tapMaxInterval = \(RunFacts.number(knobs.tapMaxInterval)) s of the last lift (it needs \(taps) taps)"
        case "tapMaxDuration":
            rule = "GP11"
            text = "its touch stayed down longer than tapMaxDuration = \(RunFacts.number(knobs.tapMaxDuration)) s"
        case "scrollDelay":
            rule = "SV8"
            text = "the touch was held for scrollDelay = \(RunFacts.number(knobs.scrollDelay)) s without the pan beginning: the delay recognizer fails and the content view gets the touches it held back"
        case "swipeMaximumDuration":
            rule = "Q3"
            text = "the swipe did not complete within swipeMaximumDuration = \(RunFacts.number(knobs.swipeMaximumDuration)) s"
        default:
            rule = "Q3"
            text = "its timer fired"
        }
        return Finding(short: "its \(kind.isEmpty ? "" : kind + " ")timer fired (\(rule))",
                       reasons: [Reason(rule: rule, text: "at \(RunFacts.time(e.t)) \(id) .possible → .failed when its \(kind) timer fired: " + text, trace: trace)])
    }

    /// How far the touch of recognizer call `p` is from where it was when the recognizer got its
    /// `touchesBegan` (window coordinates).
    private static func movement(_ info: RecognizerInfo, _ p: Int, _ run: RunFacts) -> Double? {
        let call = run.trace[p]
        for touch in call.touchIDs {
            guard let now = call.snapshot(touch)?.inWindow else { continue }
            if call.touchPhase == .began {
                // A further tap: its distance from the first tap's touch.
                let reset = run.trace.calls(of: info.id, "reset").last { $0 < p } ?? -1
                guard let first = run.trace.calls(of: info.id, "touchesBegan:withEvent:").first(where: { $0 > reset && $0 < p }),
                      let start = run.trace[first].args.lazy.compactMap({ a -> Point? in
                          if case .touches(let list) = a.value { return list.first?.inWindow }
                          return nil
                      }).first else { continue }
                return start.distance(to: now)
            }
            guard let began = run.trace.calls(of: info.id, "touchesBegan:withEvent:").last(where: { $0 < p && run.trace[$0].touchIDs.contains(touch) }),
                  let start = run.trace[began].snapshot(touch)?.inWindow else { continue }
            return start.distance(to: now)
        }
        return nil
    }

    /// When the touches of the long press's current attempt began.
    private static func pressStart(_ info: RecognizerInfo, before p: Int, _ run: RunFacts) -> Double {
        let touch = run.trace[p].touchIDs.first
        if let began = run.trace.calls(of: info.id, "touchesBegan:withEvent:").last(where: { $0 < p && (touch == nil || run.trace[$0].touchIDs.contains(touch!)) }) {
            return run.trace[began].t
        }
        return run.trace[p].t
    }

    /// A delegate question that made `id` require `x` to fail (GM7), answered YES.
    private static func requirementQuestion(_ id: String, _ x: String, before i: Int, _ run: RunFacts) -> Int? {
        run.trace.last(before: i) { c in
            guard c.kind == .call, c.boolResult == true else { return false }
            let me = c.objectIDs("gestureRecognizer"), other = c.objectIDs("otherGestureRecognizer")
            if c.selector == "gestureRecognizer:shouldRequireFailureOfGestureRecognizer:" { return me == [id] && other == [x] }
            if c.selector == "gestureRecognizer:shouldBeRequiredToFailByGestureRecognizer:" { return me == [x] && other == [id] }
            return false
        }
    }

    /// Still `.possible` at the end with touches: it never changed state. Its timers that had
    /// not fired when the run ended (Q6) and its touch calls are what the trace shows.
    private static func stillPossible(_ info: RecognizerInfo, _ received: [RunFacts.Touch], _ run: RunFacts) -> [Reason] {
        let id = info.id
        let calls = run.trace.entries(of: id).filter { run.trace[$0].touchPhase != nil }
        var reasons = [Reason(rule: "GS1", text: "\(id) received \(RunFacts.list(received.map(\.id))) but neither recognized nor failed: what it needs (\(needs(info, run))) did not happen before the run ended", trace: calls)]
        var open: [String: Int] = [:]
        for m in run.trace.markers(of: id, .timer) {
            let kind = run.trace[m].stringArg("kind") ?? ""
            if run.trace[m].stringArg("action") == "scheduled" { open[kind] = m } else { open[kind] = nil }
        }
        for (kind, m) in open.sorted(by: { $0.value < $1.value }) {
            let deadline: String
            if case .number(let d)? = run.trace[m].arg("deadline") { deadline = " due at " + RunFacts.time(d) } else { deadline = "" }
            reasons.append(Reason(rule: "Q6", text: "its \(kind) timer\(deadline) had not fired when the run ended (the run goes on only until `until` or the drain limit)", trace: [m]))
        }
        return reasons
    }

    private static func needs(_ info: RecognizerInfo, _ run: RunFacts) -> String {
        let k = run.knobs
        switch info.base {
        case .tap: return "\(info.spec?.numberOfTapsRequired ?? 1) completed tap(s), GP9"
        case .longPress: return "a hold of \(RunFacts.number(info.spec?.minimumPressDuration ?? k.longPressMinimumDuration)) s, GP1"
        case .pan, .scrollViewPan, .screenEdgePan: return "a move of \(RunFacts.number(k.panHysteresis)) pt, GP5"
        case .swipe: return "a move of \(RunFacts.number(k.swipeMinimumDistance)) pt in one of its directions"
        case .pinch, .rotation: return "two fingers moving apart or around"
        case .scrollViewDelay: return "the scroll delay, SV2"
        }
    }

    /// The actions the recognizer sent: each one's record in `result.actions` and its call.
    static func sentActions(_ id: String, _ run: RunFacts) -> [(record: Int, call: Int)] {
        var out: [(Int, Int)] = []
        var used = Set<Int>()
        for (k, a) in run.result.actions.enumerated() where a.via == .recognizer && a.sender == id {
            guard let call = run.trace.entries.indices.first(where: { c in
                !used.contains(c) && run.trace[c].kind == .call && run.trace[c].selector == a.action
                    && run.trace[c].receiver?.id == a.target && run.trace[c].t == a.t
                    && run.trace.parent(c).map { run.trace[$0].selector != "sendAction:to:from:forEvent:" } ?? true
            }) else { continue }
            used.insert(call)
            out.append((k, call))
        }
        return out
    }
}
