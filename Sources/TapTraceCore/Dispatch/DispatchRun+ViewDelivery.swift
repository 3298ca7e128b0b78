/// §2 step 7 and the responder side of touch delivery (T1–T10, R rules for touches).
extension DispatchRun {
    /// Delivers this update's phases that nothing held back, grouped per view (T4): views in
    /// the order of their lowest touch, phases began, moved, ended, cancelled.
    mutating func viewPass(_ mine: [Int]) {
        let ready = mine.filter { touches[$0].reachesView && !touches[$0].queuedThisUpdate }
        var views: [(view: Int, event: Int)] = []
        for t in ready.sorted() {
            let key = (touches[t].view!, touches[t].event)
            if !views.contains(where: { $0.view == key.0 && $0.event == key.1 }) { views.append(key) }
        }
        for (v, event) in views {
            for phase in [TouchPhase.began, .moved, .ended, .cancelled] {
                let ts = ready.filter {
                    touches[$0].view == v && touches[$0].event == event && touches[$0].phase == phase && touches[$0].reachesView
                }
                if !ts.isEmpty { deliver(to: v, phase, ts) }
            }
        }
    }

    /// One `touches…:withEvent:` to a hit-test view, with the bookkeeping of T2 (each touch ends
    /// exactly once) and SV4 (a scroll view may keep a began from its content).
    mutating func deliver(to v: Int, _ phase: TouchPhase, _ ts: [Int], locations: TouchPoints = [:], note: NoteText? = nil) {
        var ts = ts
        if phase == .began, let s = index.enclosingScrollView(of: v) {
            let answer = index.view(s).overrides?.touchesShouldBegin ?? true
            let touchesValue = touchesArg(ts, phase: .began, receiverView: s, locations: locations)
            trace.call(TraceObject(view: s), .touchesShouldBegin, touchesValue, eventArg(touches[ts[0]].event),
                       .init(.contentView, .object(TraceObject(view: v))), result: .bool(answer))
            if !answer {
                for t in ts {
                    touches[t].refused = .touchesShouldBegin
                    touches[t].withheld = []
                }
                ts = []
            }
        }
        guard !ts.isEmpty else { return }
        for t in ts {
            if phase == .began { touches[t].deliveredBegan = true }
            if phase.isTerminal { touches[t].viewFinished = true }
        }
        sendTouches(to: .view(v), phase, ts, locations: locations, note: note)
    }

    /// The touch method on a responder, then what its class does with it: a control tracks
    /// (T7, K rules), a scroll view keeps it (T8), an override without super consumes it (T6),
    /// and everything else forwards it to its next responder with the same touches (T5, R2–R7).
    /// Iterative, so a 10,000-deep chain does not recurse.
    mutating func sendTouches(to first: Responder, _ phase: TouchPhase, _ ts: [Int], locations: TouchPoints = [:], note: NoteText? = nil) {
        let selector = DispatchRun.touchSelector(phase)
        let event = eventArg(touches[ts[0]].event)
        var responder = first
        // Cycle guard (R7): a short chain is checked by scanning; a long one by a set.
        var seen: [Responder] = []
        var seenSet = Set<Responder>()
        var depth = 0
        // Touch locations in the current receiver view, carried up one level at a time.
        var local = TouchPoints()
        var localView: Int?
        while true {
            let repeated: Bool
            if seen.count < 32 {
                repeated = seen.contains(responder)
                seen.append(responder)
            } else {
                if seenSet.isEmpty { seenSet = Set(seen) }
                repeated = !seenSet.insert(responder).inserted
            }
            if repeated {
                trace.marker(.chainWalk, index.object(responder),
                             note: "nextResponder cycle: \(index.ref(responder).id) was already asked; forwarding stops (R7)")
                break
            }
            var receiverView: Int?
            if case .view(let v) = responder {
                receiverView = v
                if let from = localView, index.superview(from) == v {
                    let geometry = index.geometry[from]
                    local.transformPoints { geometry.convertToSuperview($0) }
                } else if localView != v {
                    local.removeAll()
                    for t in ts { local[t] = index.convertFromScreen(locations[t] ?? touches[t].location, to: v) }
                }
                localView = v
            }
            let touchesValue = touchesArg(ts, phase: phase, receiverView: receiverView, locations: locations,
                                          local: receiverView == nil ? [:] : local)
            let seq = trace.call(index.object(responder), selector, touchesValue, event, note: depth == 0 ? note : nil)
            trace.push(seq)
            depth += 1
            if (index.touchOverrides(responder)?[phase] ?? .superCall) == .handle { break }   // T6
            if case .view(let v) = responder {
                if index.isEnabledControl(v) {                                  // T7, K11
                    controlTouches(v, phase, ts)
                    break
                }
                if index.bases[v].isScrollView { break }                   // T8
            }
            guard let next = index.nextResponder(responder, includeWindowScene: knobs.includeWindowScene) else { break }
            responder = next
        }
        for _ in 0..<depth { trace.pop() }
    }
}
