/// §2 step 6: which recognizers may begin or recognize, and what that does to the others and to
/// the views. Read it as the rules it implements:
///
/// - a recognizer that wants to leave `possible` first waits for the recognizers it requires to
///   fail (GM6, GM7); while it waits it is `pending` and keeps withholding (GS10, GV9);
/// - it fails if an interacting recognizer has already recognized and may prevent it (GM2, GM4),
///   unless their delegates allow both (GM3);
/// - its delegate, then the hit-test views of its touches, may veto it (GS7, X1, X2, SV6);
/// - when it begins or recognizes, every interacting recognizer still `possible` fails, or
///   each one that requires it to fail (GM2, GM6), its touches are taken from their views
///   (GV2), and its actions are sent (GS2), the two in the order of the `cancelTiming` knob (GV3);
/// - several wanting to recognize in one update go in recognizer order (G3), except that one
///   the other cannot prevent but which can prevent the other goes first (GM5);
/// - this repeats until nothing changes: a failure can release a waiting recognizer, and the
///   touches the last delaying recognizer held back are flushed to their views (GV5–GV7).
extension DispatchRun {
    enum Attempt { case pending, failed, recognized }

    mutating func resolve() {
        var rounds = 0
        while rounds < 100_000 {
            rounds += 1
            sendPendingActions()
            var progressed = flushWithheld()
            if flushWithheldPresses() { progressed = true }
            for g in orderedCandidates() where attempt(g) != .pending {
                progressed = true
                break
            }
            if !progressed { break }
        }
    }

    // MARK: ordering (GM5)

    /// Built-in and declared prevention, without tracing (for ordering only).
    func canPrevent(_ a: Int, _ b: Int) -> Bool {
        let ia = info(a), ib = info(b)
        guard ia.canPrevent, ib.canBePrevented else { return false }
        // GM4: a tap recognizer never prevents a tap recognizer that needs more taps.
        if ia.base == .tap, ib.base == .tap,
           (ib.spec?.numberOfTapsRequired ?? 1) > (ia.spec?.numberOfTapsRequired ?? 1) { return false }
        return true
    }

    private func orderedCandidates() -> [Int] {
        var remaining: [Int] = []
        for g in recognizers.indices where recognizers[g].state == .possible && recognizers[g].wantsToRecognize {
            remaining.append(g)
        }
        guard remaining.count > 1 else { return remaining }
        var ordered: [Int] = []
        while !remaining.isEmpty {
            // The first candidate no other one may prevent first (GM5), else the first.
            var pick = 0
            for (k, c) in remaining.enumerated() where !isPreempted(c, among: remaining) { pick = k; break }
            ordered.append(remaining.remove(at: pick))
        }
        return ordered
    }

    private func isPreempted(_ c: Int, among candidates: [Int]) -> Bool {
        for d in candidates where d != c && interact(c, d) && canPrevent(d, c) && !canPrevent(c, d) { return true }
        return false
    }

    // MARK: one attempt

    /// Recognizer indices `g` must wait for: static (`requireToFail`) and delegate ones (GM7).
    /// A required recognizer that holds no touch is not taking part and does not hold `g` back.
    private func requirements(of g: Int) -> [Int] {
        var out: [Int] = []
        for r in info(g).requireToFail { if let rt = runtimeIndex[r], !out.contains(rt) { out.append(rt) } }
        for rt in recognizers[g].dynamicRequirements where !out.contains(rt) { out.append(rt) }
        return out
    }

    func requires(_ b: Int, _ a: Int) -> Bool { requirements(of: b).contains(a) }

    mutating func attempt(_ g: Int) -> Attempt {
        // Fields read in place (`index.recognizers[me].…`), not a copy of the whole
        // RecognizerInfo (its strings, spec, delegate and targets retained and released).
        let me = recognizers[g].info
        // GM6: wait for every required recognizer to fail; fail if one recognized.
        var waiting: [Int] = []
        for r in requirements(of: g) {
            if recognizers[r].state.hasRecognized {
                fail(g, "requiredRecognized(\(info(r).id))")
                return .failed
            }
            if recognizers[r].state == .possible, !recognizers[r].touches.isEmpty { waiting.append(r) }
        }
        if !waiting.isEmpty {
            if !recognizers[g].pendingMarked {
                recognizers[g].pendingMarked = true
                let names = waiting.map { info($0).id }.joined(separator: ", ")
                let waitingFor = TraceRecorder.Argument(.waitingFor, recognizersValue(waiting))
                trace.marker(.pending, object(recognizer: g), waitingFor,
                             note: "\(index.recognizers[me].id) would recognize but waits for \(names) to fail (GM6, GS10)")
            }
            return .pending
        }
        // GM2, GM4: an interacting recognizer that already recognized may prevent this one.
        for a in recognizers.indices where a != g && recognizers[a].state.hasRecognized && interact(a, g) {
            if tracedCanPrevent(a, g), !simultaneous(a, g) {
                fail(g, "prevented(\(info(a).id))")
                return .failed
            }
        }
        // GS7: the delegate first …
        if index.recognizers[me].isScrollViewPan {
            if !scrollViewPanShouldBegin(g) { fail(g, "shouldBeginFalse(\(index.view(index.recognizers[me].view).id))"); return .failed }
        } else if let d = index.recognizers[me].delegate, let answer = d.shouldBegin {
            trace.call(object(id: d.id), .shouldBegin, recognizerArg(g), result: .bool(answer))
            if !answer { fail(g, "shouldBeginFalse(\(d.id))"); return .failed }
        }
        // … then the views whose touches the recognition would take away.
        if index.recognizers[me].cancelsTouchesInView || !knobs.askViewsOnlyWhenCancelling {
            for v in viewsToAsk(g) {
                let answer = viewShouldBegin(v, g)
                trace.call(TraceObject(view: v), .shouldBegin, recognizerArg(g), result: .bool(answer))
                if !answer { fail(g, "shouldBeginFalse(\(index.view(v).id))"); return .failed }
            }
        }
        recognize(g)
        return .recognized
    }

    /// GS7: hit-test views of the recognizer's touches that still hold them, deepest first,
    /// without duplicates; with `askGRViewShouldBegin` also the recognizer's own view.
    private func viewsToAsk(_ g: Int) -> [Int] {
        var views: [Int] = []
        for t in recognizers[g].touches {
            let touch = touches[t]
            guard let v = touch.view, touch.unboundBy == nil, !touch.viewFinished,
                  touch.refused == nil, !views.contains(v) else { continue }
            views.append(v)
        }
        // PG3: a press responder that is a view is asked too.
        for p in recognizers[g].presses where nonTouch.presses[p].reachesResponder {
            if case .view(let v)? = nonTouch.presses[p].responder, !views.contains(v) { views.append(v) }
        }
        if knobs.askGRViewShouldBegin, !views.contains(info(g).view) { views.append(info(g).view) }
        guard views.count > 1 else { return views }
        var depth: [Int] = []
        for v in views { depth.append(index.depth(of: v)) }
        // Deepest first; equal depths keep their order. The closures capture locals only.
        return views.indices.sorted { l, r in depth[l] != depth[r] ? depth[l] > depth[r] : l < r }.map { views[$0] }
    }

    /// UIView `gestureRecognizerShouldBegin:` (GS7): the declared override, or X2's predicate
    /// for the controls that keep their single taps, or YES.
    func viewShouldBegin(_ v: Int, _ g: Int) -> Bool {
        let me = recognizers[g].info                                           // read in place, as in `attempt`
        if let o = index.view(v).overrides?.gestureRecognizerShouldBegin { return o.answer(for: index.recognizers[me].id) }
        if index.view(v).base.vetoesAncestorSingleTap, index.isEnabled(v), index.recognizers[me].base == .tap,
           (index.recognizers[me].spec?.numberOfTapsRequired ?? 1) == 1,
           (index.recognizers[me].spec?.numberOfTouchesRequired ?? 1) == 1,
           index.recognizers[me].view != v {
            return false                                                       // X1, X2
        }
        return true
    }

    /// SV6: a scroll view, as its pan's delegate, lets the pan begin unless a content view is
    /// already tracking one of its touches and may not lose it.
    private mutating func scrollViewPanShouldBegin(_ g: Int) -> Bool {
        let s = info(g).view
        let seq = trace.call(TraceObject(view: s), .shouldBegin, recognizerArg(g))
        trace.push(seq)
        defer { trace.pop() }
        var contentViews: [Int] = []
        for t in recognizers[g].touches {
            let touch = touches[t]
            if let v = touch.view, v != s, touch.deliveredBegan, !touch.viewFinished, touch.unboundBy == nil,
               touch.refused == nil, !contentViews.contains(v) {
                contentViews.append(v)
            }
        }
        var answer = true
        if contentViews.isEmpty {
            trace.setNote(seq, "no content view is tracking a touch yet")
        } else if !(index.view(s).scrollView?.canCancelContentTouches ?? true) {
            answer = false
            trace.setNote(seq, "canCancelContentTouches is NO and a content view is tracking (SV6)")
        } else {
            for v in contentViews {
                let cancel = index.view(s).overrides?.touchesShouldCancel ?? !index.view(v).base.isControl
                trace.call(TraceObject(view: s), .touchesShouldCancel, .init(.view, .object(TraceObject(view: v))),
                           result: .bool(cancel))
                if !cancel { answer = false; break }
            }
        }
        trace.setResult(seq, .bool(answer))
        return answer
    }

    /// GM4 with the subclass hooks traced when the scene declares them.
    private mutating func tracedCanPrevent(_ a: Int, _ b: Int) -> Bool {
        let ia = info(a), ib = info(b)
        if let declared = ia.spec?.canPrevent {
            trace.call(object(recognizer: a), .canPrevent, recognizerArg(b), result: .bool(declared))
        }
        if let declared = ib.spec?.canBePrevented, ia.canPrevent {
            trace.call(object(recognizer: b), .canBePrevented, recognizerArg(a), result: .bool(declared))
        }
        return canPrevent(a, b)
    }

    /// GM3: A's delegate is asked first, then B's; either YES allows both. X5: controls are not
    /// recognizers and never take part.
    private mutating func simultaneous(_ a: Int, _ b: Int) -> Bool {
        for (x, y) in [(a, b), (b, a)] {
            guard let d = info(x).delegate, !info(x).isScrollViewPan, let list = d.shouldRecognizeSimultaneouslyWith else { continue }
            let answer = list.contains(info(y).id)
            trace.call(object(id: d.id), .shouldRecognizeSimultaneously, recognizerArg(x),
                       recognizerArg(y, as: .otherGestureRecognizer), result: .bool(answer))
            if answer { return true }
        }
        return false
    }

    // MARK: recognition and its effects

    private mutating func recognize(_ g: Int) {
        let me = info(g)
        transition(g, to: me.isDiscrete ? .ended : .began, reason: me.isDiscrete ? "recognized" : "began")
        // GM6/GM8: recognizers that require this one to fail, anywhere; GM2: interacting ones.
        for b in recognizers.indices where b != g && recognizers[b].state == .possible {
            if requires(b, g) {
                fail(b, "requiredRecognized(\(me.id))")
            } else if interact(g, b), tracedCanPrevent(g, b), !simultaneous(g, b) {
                fail(b, "prevented(\(me.id))")
            }
        }
        let state = recognizers[g].state
        if me.cancelsTouchesInView {
            // GV3: the order of touchesCancelled and the first action is a knob.
            if knobs.cancelTiming == .beforeAction {
                cancelViewTouches(of: g)
                sendRecognizerActions(g, state)
            } else {
                sendRecognizerActions(g, state)
                cancelViewTouches(of: g)
            }
        } else {
            sendRecognizerActions(g, state)                                    // GV4
        }
    }

    /// GS4: actions of state changes made inside touch methods in this update.
    private mutating func sendPendingActions() {
        for g in recognizers.indices where !recognizers[g].pendingActionStates.isEmpty {
            let states = recognizers[g].pendingActionStates
            recognizers[g].pendingActionStates = []
            for s in states { sendRecognizerActions(g, s) }
        }
    }

    /// GS2, GS3, A7: one action per target, in the order added; a nil target sends nothing and
    /// never walks the responder chain.
    mutating func sendRecognizerActions(_ g: Int, _ state: RecognizerState) {
        let me = info(g)
        for target in me.targets {
            guard let id = target.target else { continue }
            let sender = SelectorNames.argumentCount(target.action) == 0 ? nil : recognizerArg(g, as: .sender)
            trace.call(object(id: id), action: target.action, sender, note: ".\(state.rawValue)")
            actions.append(ActionRecord(t: now, action: target.action, sender: me.id, target: id,
                                        via: .recognizer, events: nil, state: state))
        }
    }
}
