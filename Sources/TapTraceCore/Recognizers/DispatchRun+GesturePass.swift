/// §2 step 5: inside `UIWindow.sendEvent:`, before any view sees the touches, every recognizer
/// that receives touches of this event gets them, one call per phase (G3 order, A-GR).
extension DispatchRun {
    static func touchSelector(_ phase: TouchPhase) -> UIKitSelector {
        switch phase {
        case .began: return .touchesBegan
        case .moved, .stationary: return .touchesMoved
        case .ended: return .touchesEnded
        case .cancelled: return .touchesCancelled
        }
    }

    /// GS5/GS6: possible recognizers and continuous ones that have begun receive touches;
    /// failed or finished ones receive nothing until reset.
    func receivesTouches(_ g: Int) -> Bool {
        let s = recognizers[g].state
        return s == .possible || s == .began || s == .changed
    }

    mutating func gesturePass(_ mine: [Int]) {
        // A single touch (the usual case) shares its lists instead of copying them into new
        // arrays: the recognizers in order are its own, and a phase's touches are `mine` or
        // none (otherwise six arrays per tap are allocated and freed).
        var order: [Int] = mine.count == 1 ? touches[mine[0]].recognizers : []
        if mine.count > 1 {
            for t in mine { for g in touches[t].recognizers where !order.contains(g) { order.append(g) } }
        }
        for g in order {
            for phase in [TouchPhase.began, .moved, .ended, .cancelled] {
                guard receivesTouches(g) else { break }
                var ts = mine
                if !mine.allSatisfy({ touches[$0].phase == phase && recognizers[g].touches.contains($0) }) {
                    ts = mine.filter { touches[$0].phase == phase && recognizers[g].touches.contains($0) }
                }
                guard !ts.isEmpty else { continue }
                let touchesValue = touchesArg(ts, phase: phase, receiverView: info(g).view)
                let seq = trace.call(object(recognizer: g), DispatchRun.touchSelector(phase), touchesValue,
                                     eventArg(touches[ts[0]].event))
                trace.push(seq)
                recognizerTouches(g, phase, ts)
                trace.pop()
            }
        }
    }
}
