/// Press recognizers (PG1–PG3): the recognizers of the press responder's view and its
/// superviews receive non-keyboard presses of their `allowedPressTypes` before the responder
/// does, and the touch rules of resolution, delays and cancels (GS, GM, GV) apply with "press"
/// for "touch".
extension DispatchRun {
    /// PG2: at `began`, the recognizers of the press responder's view (a controller's root view;
    /// none for the application or its delegate) and of each superview up to the window, in G3
    /// order, enabled and allowing the press's type (PG1), that their delegates let receive it.
    /// SV1's built-in recognizers are not collected: declared recognizers only.
    mutating func collectPressRecognizers(_ p: Int) -> [Int] {
        let press = nonTouch.presses[p]
        guard press.type != .keyboard, let r = press.responder else { return [] }     // PG1
        var start: Int?
        switch r {
        case .view(let v), .viewController(let v): start = v
        case .application, .appDelegate, .windowScene: start = nil
        }
        var list: [Int] = []
        var next = start
        while let a = next {
            next = index.superview(a)
            for s in index.recognizers(ofView: a) {
                guard let spec = index.recognizers[s].spec, index.recognizers[s].enabled,
                      (spec.allowedPressTypes ?? [.select]).contains(press.type) else { continue }
                let g = runtime(for: s)
                guard receivesTouches(g) else { continue }                                       // GS6
                if let d = index.recognizers[s].delegate {
                    let recognizer = TraceRecorder.Argument(.gestureRecognizer, .object(index.object(recognizer: s)))
                    if let answer = d.shouldReceiveEvent {                                       // G7
                        trace.call(object(id: d.id), .shouldReceiveEvent, recognizer, eventArg(press.event), result: .bool(answer))
                        if !answer { continue }
                    }
                    if let answer = d.shouldReceivePress {                                       // PG2
                        trace.call(object(id: d.id), .shouldReceivePress, recognizer, pressesArg([p], phase: .began),
                                   result: .bool(answer))
                        if !answer { continue }
                    }
                }
                recognizers[g].presses.append(p)
                list.append(g)
            }
        }
        nonTouch.presses[p].recognizers = list
        return list
    }

    /// §2 step 5 for presses: each recognizer gets its presses of this update, one call per
    /// phase, in collection order (PG3).
    mutating func pressGesturePass(_ ps: [Int]) {
        var order: [Int] = []
        for p in ps { for g in nonTouch.presses[p].recognizers where !order.contains(g) { order.append(g) } }
        for g in order {
            for phase in [PressPhase.began, .changed, .ended, .cancelled] {
                guard receivesTouches(g) else { break }
                let mine = ps.filter { nonTouch.presses[$0].phase == phase && recognizers[g].presses.contains($0) }
                guard !mine.isEmpty else { continue }
                let seq = trace.call(object(recognizer: g), Self.pressSelector(phase), pressesArg(mine, phase: phase),
                                     eventArg(nonTouch.presses[mine[0]].event))
                trace.push(seq)
                recognizerPresses(g, phase)
                trace.pop()
            }
        }
    }

    /// PG1: a tap recognizes when the press ends within `tapMaxDuration` (further presses within
    /// `tapMaxInterval` count as taps); a long press begins after its minimum duration and ends
    /// at release; other classes fail at once.
    private mutating func recognizerPresses(_ g: Int, _ phase: PressPhase) {
        let spec = info(g).spec
        if recognizers[g].state == .began || recognizers[g].state == .changed {
            switch phase {
            case .began, .stationary: break
            case .changed: changeStateFromPress(g, to: .changed, reason: "changed")
            case .ended: changeStateFromPress(g, to: .ended, reason: "recognized")
            case .cancelled: changeStateFromPress(g, to: .cancelled, reason: "touchCancelled")
            }
            return
        }
        guard recognizers[g].state == .possible else { return }
        if phase == .cancelled { fail(g, "touchCancelled"); return }
        switch info(g).base {
        case .tap:
            switch phase {
            case .began:
                cancelTimer(g, .tapInterval)
                if !hasTimer(g, .tapDuration) { schedule(g, .tapDuration, after: knobs.tapMaxDuration) }
            case .ended:
                cancelTimer(g, .tapDuration)
                recognizers[g].tapsCompleted += 1
                if recognizers[g].tapsCompleted >= (spec?.numberOfTapsRequired ?? 1) {
                    recognizers[g].wantsToRecognize = true
                } else {
                    schedule(g, .tapInterval, after: knobs.tapMaxInterval)
                }
            default: break
            }
        case .longPress:
            switch phase {
            case .began:
                if !hasTimer(g, .longPress) {
                    schedule(g, .longPress, after: spec?.minimumPressDuration ?? knobs.longPressMinimumDuration)
                }
            case .ended: fail(g, "liftedEarly")
            default: break
            }
        default:
            if phase == .began { fail(g, "pressNotRecognized") }
        }
    }

    /// A change made inside a press method; its action is sent in resolution (GS2, GS4).
    private mutating func changeStateFromPress(_ g: Int, to new: RecognizerState, reason: String) {
        transition(g, to: new, reason: reason)
        recognizers[g].pendingActionStates.append(new)
    }

    // MARK: delays and cancels (GV with presses, PG3)

    private func pressDelayers(_ p: Int, began: Bool) -> [Int] {
        nonTouch.presses[p].recognizers.filter {
            recognizers[$0].state == .possible && recognizers[$0].presses.contains(p)
                && (began ? info($0).delaysTouchesBegan : info($0).delaysTouchesEnded)
        }
    }

    /// GV5, GV6: the new phase of each press waits while a delaying recognizer is possible.
    mutating func withholdPressArrivals(_ ps: [Int]) {
        for p in ps {
            nonTouch.presses[p].queuedThisUpdate = false
            guard nonTouch.presses[p].reachesResponder else { continue }
            let phase = nonTouch.presses[p].phase
            if !nonTouch.presses[p].withheld.isEmpty {
                nonTouch.presses[p].withheld.append(phase)
                nonTouch.presses[p].queuedThisUpdate = true
                continue
            }
            let by = phase == .began ? pressDelayers(p, began: true) : phase == .ended ? pressDelayers(p, began: false) : []
            guard !by.isEmpty else { continue }
            nonTouch.presses[p].withheld = [phase]
            nonTouch.presses[p].queuedThisUpdate = true
            let press = nonTouch.presses[p]
            let names = by.map { info($0).id }
            let flag: StaticString = phase == .began ? ".delaysTouchesBegan" : ".delaysTouchesEnded"
            trace.marker(.withhold, index.object(press.responder!), .init(.phase, trace.text(phase.rawValue)),
                         .init(.by, recognizersValue(by)),
                         note: "\(press.id) \(phase.rawValue) withheld from \(index.ref(press.responder!).id) (\(names, suffix: flag, joinedBy: ", ") while .possible; PG3, GV\(phase == .began ? "5" : "6"))")
        }
    }

    /// GV5–GV7 for presses: delivers what no possible recognizer holds back any more.
    mutating func flushWithheldPresses() -> Bool {
        guard nonTouchState != nil else { return false }
        var progressed = false
        for p in nonTouch.presses.indices where !nonTouch.presses[p].withheld.isEmpty {
            guard nonTouch.presses[p].reachesResponder else { nonTouch.presses[p].withheld = []; continue }
            let holdsBegan = !pressDelayers(p, began: true).isEmpty
            let holdsEnded = holdsBegan || !pressDelayers(p, began: false).isEmpty
            var ready: [PressPhase] = []
            for phase in nonTouch.presses[p].withheld {
                if phase == .ended ? holdsEnded : holdsBegan { break }
                ready.append(phase)
            }
            guard !ready.isEmpty else { continue }
            nonTouch.presses[p].withheld.removeFirst(ready.count)
            progressed = true
            let press = nonTouch.presses[p]
            let m = trace.marker(.flush, index.object(press.responder!), .init(.phases, trace.texts(ready.map(\.rawValue))),
                                 note: "\(press.id) withheld; delivered now that no recognizer holding it is .possible (PG3, GV7)")
            trace.push(m)
            for phase in ready where nonTouch.presses[p].reachesResponder { sendPresses(phase, [p]) }
            trace.pop()
        }
        return progressed
    }

    /// PG3, GV2: a recognizer with `cancelsTouchesInView` that begins or recognizes takes its
    /// presses from their responder: `pressesCancelled:withEvent:` where `pressesBegan:` was
    /// delivered (a withheld `ended` becomes this cancel, GV6), nothing where it was not.
    mutating func cancelPresses(of g: Int) {
        for p in recognizers[g].presses where nonTouch.presses[p].reachesResponder {
            nonTouch.presses[p].unboundBy = g
            nonTouch.presses[p].withheld = []
            let press = nonTouch.presses[p]
            guard press.deliveredBegan else {
                nonTouch.presses[p].responderFinished = true
                trace.marker(.drop, index.object(press.responder!),
                             note: "\(press.id) discarded for \(index.ref(press.responder!).id): never delivered, so no pressesCancelled (PG3, GV2)")
                continue
            }
            // Delivered as its responder's own press again, then marked taken.
            nonTouch.presses[p].unboundBy = nil
            sendPresses(.cancelled, [p], note: "cancelled by \(info(g).id) (cancelsTouchesInView; PG3, GV2)")
            nonTouch.presses[p].unboundBy = g
        }
    }
}
