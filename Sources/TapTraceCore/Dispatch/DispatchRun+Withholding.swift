/// Delays and cancels between recognizers and views (GV1–GV10): what the window holds back
/// from a view, and what happens to it when the recognizers decide.
extension DispatchRun {
    /// Possible recognizers holding touch `t` with a delay flag.
    private func delayers(_ t: Int, began: Bool) -> [Int] {
        var out: [Int] = []
        for g in touches[t].recognizers where delays(g, t, began: began) { out.append(g) }
        return out
    }

    /// Whether any possible recognizer holds touch `t` back (`delayers` without the array).
    private func isDelayed(_ t: Int, began: Bool) -> Bool {
        for g in touches[t].recognizers where delays(g, t, began: began) { return true }
        return false
    }

    private func delays(_ g: Int, _ t: Int, began: Bool) -> Bool {
        recognizers[g].state == .possible && recognizers[g].touches.contains(t)
            && (began ? info(g).delaysTouchesBegan : info(g).delaysTouchesEnded)
    }

    /// After the gesture pass: the new phase of each touch either waits (GV5, GV6) or goes to
    /// the view in the view pass. A touch already waiting keeps its phases in order.
    mutating func withholdArrivals(_ mine: [Int]) {
        for t in mine {
            touches[t].queuedThisUpdate = false
            guard touches[t].reachesView else { continue }
            let phase = touches[t].phase
            let item = WithheldPhase(phase: phase, location: touches[t].location, since: now, by: [])
            if !touches[t].withheld.isEmpty {
                // Coalesce moves: a flush sends at most one follow-up touchesMoved (GV5).
                if phase == .moved, touches[t].withheld.last?.phase == .moved {
                    touches[t].withheld[touches[t].withheld.count - 1].location = item.location
                } else {
                    touches[t].withheld.append(WithheldPhase(phase: phase, location: item.location, since: now,
                                                             by: touches[t].withheld[0].by))
                }
                touches[t].queuedThisUpdate = true
                continue
            }
            let view = index.view(touches[t].view!).id
            if phase == .began, case let by = delayers(t, began: true), !by.isEmpty {
                let names = by.map { info($0).id }
                touches[t].withheld = [WithheldPhase(phase: .began, location: item.location, since: now, by: names)]
                touches[t].queuedThisUpdate = true
                let byArg = TraceRecorder.Argument(.by, recognizersValue(by))
                trace.marker(.withhold, TraceObject(view: touches[t].view!), touchIDArg(t), .init(.phase, .word("began")), byArg,
                             note: "\(touches[t].id) (all phases) withheld from \(view) (\(names, suffix: ".delaysTouchesBegan", joinedBy: ", "); GV5)")
            } else if phase == .ended, case let by = delayers(t, began: false), !by.isEmpty {
                let names = by.map { info($0).id }
                touches[t].withheld = [WithheldPhase(phase: .ended, location: item.location, since: now, by: names)]
                touches[t].queuedThisUpdate = true
                let byArg = TraceRecorder.Argument(.by, recognizersValue(by))
                trace.marker(.withhold, TraceObject(view: touches[t].view!), touchIDArg(t), .init(.phase, .word("ended")), byArg,
                             note: "\(touches[t].id) ended withheld from \(view) (\(names, suffix: ".delaysTouchesEnded", joinedBy: ", ") while .possible; GV6)")
            }
        }
    }

    /// GV5–GV7: delivers what no possible recognizer holds back any more. Returns whether
    /// anything was delivered or dropped.
    mutating func flushWithheld() -> Bool {
        var batch: [(touch: Int, phases: [WithheldPhase])] = []
        for t in touches.indices where !touches[t].withheld.isEmpty {
            guard touches[t].reachesView else { touches[t].withheld = []; continue }
            let holdsBegan = isDelayed(t, began: true)
            let holdsEnded = holdsBegan || isDelayed(t, began: false)
            var ready: [WithheldPhase] = []
            for w in touches[t].withheld {
                let blocked = w.phase == .ended ? holdsEnded : holdsBegan
                if blocked { break }
                ready.append(w)
            }
            guard !ready.isEmpty else { continue }
            touches[t].withheld.removeFirst(ready.count)
            // What is left now waits on whoever blocks its first phase: after a began is
            // delivered, an ended queued behind it is held by the delaysTouchesEnded
            // recognizers still .possible (GV6), not by the began's holders.
            if !touches[t].withheld.isEmpty {
                touches[t].withheld[0].by = delayers(t, began: holdsBegan).map { info($0).id }
            }
            batch.append((t, ready))
        }
        guard !batch.isEmpty else { return false }
        for (t, phases) in batch {
            let names = phases[0].by
            // A touch cancelled by the input before its began was delivered never happened for
            // the view.
            if !touches[t].deliveredBegan, phases.contains(where: { $0.phase == .cancelled }) {
                touches[t].viewFinished = true
                trace.marker(.drop, TraceObject(view: touches[t].view!), touchIDArg(t),
                             note: "\(touches[t].id)'s withheld phases discarded: the touch was cancelled before its began was delivered")
                continue
            }
            let phasesArg = TraceRecorder.Argument(.phases, trace.texts(phases.map(\.phase.rawValue)))
            let m = trace.marker(.flush, TraceObject(view: touches[t].view!), touchIDArg(t), phasesArg,
                                 note: "\(touches[t].id) withheld since \(NumberText.format(phases[0].since)) by \(names, joinedBy: ", "); delivered now that none of them is .possible")
            trace.push(m)
            for w in phases {
                guard touches[t].reachesView else { break }
                deliver(to: touches[t].view!, w.phase, [t], locations: TouchPoints(t, w.location))
            }
            trace.pop()
        }
        return true
    }

    /// GV2, T9: a recognizer with `cancelsTouchesInView` that begins or recognizes takes its
    /// touches from their views: delivered ones are cancelled, never-delivered ones dropped.
    mutating func cancelViewTouches(of g: Int) {
        var groups: [(view: Int, event: Int, touches: [Int])] = []
        for t in recognizers[g].touches {
            let touch = touches[t]
            guard let v = touch.view, touch.unboundBy == nil, touch.refused == nil, !touch.viewFinished else { continue }
            touches[t].unboundBy = g
            let hadWithheld = !touch.withheld.isEmpty
            touches[t].withheld = []
            if !touch.deliveredBegan {
                touches[t].viewFinished = true
                trace.marker(.drop, TraceObject(view: v), touchIDArg(t),
                             note: "\(touch.id)\(hadWithheld ? "'s withheld phases" : "") discarded for \(index.view(v).id): never delivered, so no touchesCancelled (GV2)")
                continue
            }
            if let k = groups.firstIndex(where: { $0.view == v && $0.event == touch.event }) {
                groups[k].touches.append(t)
            } else {
                groups.append((v, touch.event, [t]))
            }
        }
        for group in groups {
            deliver(to: group.view, .cancelled, group.touches,
                    note: "cancelled by \(info(g).id) (cancelsTouchesInView; GV2, T9)")
        }
        if !recognizers[g].presses.isEmpty { cancelPresses(of: g) }           // PG3
    }
}
