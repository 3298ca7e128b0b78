/// Presses (P1–P4): bound at `began` to the key responder (P2), given to press recognizers first
/// (PG3), then to the responder and up the chain by UIResponder's default implementations (P3),
/// where UIApplication's own press methods meet text input (P4, KC1).
extension DispatchRun {
    mutating func processPresses(_ changes: [PressChange]) {
        // N6: one event per press sequence, from the first press down until none is down.
        if nonTouch.pressesDown == 0, changes.contains(where: { $0.phase == .began }) || nonTouch.pressEvent == nil {
            sequenceNumber += 1
            nonTouch.pressEvent = sequenceNumber
        }
        let event = nonTouch.pressEvent!
        var changed: [Int] = []
        // N4 steps 2–3, press by press in input order.
        for c in changes {
            if c.phase == .began {
                var press = PressState(id: c.id, type: c.type, key: c.key, event: event)
                if let (r, source) = keyResponder() {
                    press.responder = r
                    press.source = source
                    press.chain = chain(from: r)
                }
                nonTouch.presses.append(press)
                let p = nonTouch.presses.count - 1
                nonTouch.pressIndexById[c.id] = p
                changed.append(p)
                guard let r = press.responder else { continue }
                let grs = collectPressRecognizers(p)
                keyResponderMarker(c.id, r, press.source!, recognizers: grs)
                if c.type == .keyboard, c.key != nil { keyDown(p) }
            } else if let p = nonTouch.pressIndexById[c.id] {
                nonTouch.presses[p].phase = c.phase
                changed.append(p)
                if nonTouch.presses[p].consumed {
                    // KC5 (3): in place of the delivery of a press consumed at its key-down.
                    let press = nonTouch.presses[p]
                    trace.marker(.keyboard, press.responder.map { index.object($0) } ?? .none,
                                 .init(.stage, .word("consumed")), .init(.phase, trace.text(c.phase.rawValue)),
                                 note: "\(press.id) consumed at key-down: not delivered")
                }
            }
        }
        let deliverable = changed.filter { nonTouch.presses[$0].responder != nil && !nonTouch.presses[$0].consumed }
        var involvesRecognizers = false
        for p in changed where !nonTouch.presses[p].recognizers.isEmpty { involvesRecognizers = true }
        if !deliverable.isEmpty {
            // N4 step 4 (KC1: not when every press of the record is consumed), then step 5.
            sendNonTouchEvent(event) { run in
                run.pressGesturePass(deliverable)
                run.withholdPressArrivals(deliverable)
                run.resolve()
                run.pressResponderPass(deliverable)
            }
        }
        if involvesRecognizers { endSequenceIfDone(fromInput: true) }
        if nonTouch.pressesDown == 0 { nonTouch.pressEvent = nil }
    }

    /// The responder pass: this update's phases that nothing held back, grouped per responder
    /// (in the order of their first press) and phase (T4's grouping).
    mutating func pressResponderPass(_ ps: [Int]) {
        let ready = ps.filter { nonTouch.presses[$0].reachesResponder && !nonTouch.presses[$0].queuedThisUpdate }
        var responders: [Responder] = []
        for p in ready {
            let r = nonTouch.presses[p].responder!
            if !responders.contains(r) { responders.append(r) }
        }
        for r in responders {
            for phase in [PressPhase.began, .changed, .ended, .cancelled] {
                let group = ready.filter { nonTouch.presses[$0].responder == r && nonTouch.presses[$0].phase == phase }
                if !group.isEmpty { sendPresses(phase, group) }
            }
        }
    }

    static func pressSelector(_ phase: PressPhase) -> UIKitSelector {
        switch phase {
        case .began: return .pressesBegan
        case .changed, .stationary: return .pressesChanged
        case .ended: return .pressesEnded
        case .cancelled: return .pressesCancelled
        }
    }

    /// The `presses` argument: the presses in `phase`, sorted by id (§5.2).
    mutating func pressesArg(_ ps: [Int], phase: PressPhase) -> TraceRecorder.Argument {
        guard trace.enabled else { return .init(.presses, .null) }
        let list = ps.map { PressSnapshot(id: nonTouch.presses[$0].id, phase: phase, type: nonTouch.presses[$0].type,
                                          key: nonTouch.presses[$0].key) }
        return .init(.presses, trace.presses(list))
    }

    /// One press method on the presses' responder, then up the chain (P3): an override without
    /// super consumes the set (with `only`, when one press matches), UIApplication runs the
    /// text-input step at a key-down and stops the later phases of a key it typed (P4, KC1 (c)),
    /// and a set that nobody consumes ends unhandled (N5).
    mutating func sendPresses(_ phase: PressPhase, _ ps: [Int], note: NoteText? = nil) {
        guard let first = nonTouch.presses[ps[0]].responder else { return }
        for p in ps {
            if phase == .began { nonTouch.presses[p].deliveredBegan = true }
            if phase.isTerminal { nonTouch.presses[p].responderFinished = true }
        }
        let selector = Self.pressSelector(phase)
        let event = eventArg(nonTouch.presses[ps[0]].event)
        var set = ps
        var responder = first
        var asked = VisitedResponders()
        var depth = 0
        while true {
            if !asked.insert(responder) {
                trace.marker(.chainWalk, index.object(responder),
                             note: "nextResponder cycle: \(index.ref(responder).id) was already asked; forwarding stops (R7)")
                break
            }
            let seq = trace.call(index.object(responder), selector, pressesArg(set, phase: phase), event,
                                 note: depth == 0 ? note : nil)
            trace.push(seq)
            depth += 1
            if phase == .began { for p in set { nonTouch.presses[p].delivered.append(responder) } }
            if let o = index.pressOverrides(responder), o[phase] == .handle,
               o.only.map({ names in set.contains { pressMatches(nonTouch.presses[$0], names) } }) ?? true {
                if phase == .began { for p in set { nonTouch.presses[p].handledBy = responder } }
                break
            }
            if responder == .application, index.pressOverrides(.application) == nil {
                // P4: UIApplication's pressesBegan/Ended/Cancelled.
                if phase == .began, knobs.keyboardPipeline == .atApplication {
                    var left: [Int] = []
                    for p in set {
                        if nonTouch.presses[p].type == .keyboard, nonTouch.presses[p].key != nil,
                           let r = nonTouch.presses[p].responder, index.hasTextInput(r), textInputStep(p) {
                            nonTouch.presses[p].takenAtApplication = true
                            nonTouch.presses[p].textInput = r
                            nonTouch.presses[p].handledBy = .application
                        } else {
                            left.append(p)
                        }
                    }
                    set = left
                } else if phase == .ended || phase == .cancelled {
                    set = set.filter { !nonTouch.presses[$0].takenAtApplication }
                }
                if set.isEmpty { break }
            }
            guard let next = index.nextResponder(responder, includeWindowScene: knobs.includeWindowScene) else {
                let ids = set.map { nonTouch.presses[$0].id }.joined(separator: ", ")
                unhandledMarker(ids, selector.names.objc.split(separator: ":").first.map(String.init) ?? "", last: responder)
                break
            }
            responder = next
        }
        for _ in 0..<depth { trace.pop() }
    }

    /// P3's `only`: a press matches a name by its type, its key's characters (ignoring
    /// modifiers) or its key code.
    func pressMatches(_ p: PressState, _ names: [String]) -> Bool {
        for name in names {
            if name == p.type.rawValue { return true }
            if let key = p.key, name == key.charactersIgnoringModifiers || name == key.keyCode { return true }
        }
        return false
    }
}
