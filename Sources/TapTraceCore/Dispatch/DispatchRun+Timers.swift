/// The virtual clock's timers (Q1–Q6).
enum TimerKind: String, Sendable {
    case longPress = "minimumPressDuration"
    case tapInterval = "tapMaxInterval"
    case tapDuration = "tapMaxDuration"
    case scrollDelay = "scrollDelay"
    case swipeDuration = "swipeMaximumDuration"
}

struct PendingTimer {
    let deadline: Double
    let recognizer: Int
    let kind: TimerKind
    let serial: Int
}

extension DispatchRun {
    mutating func schedule(_ g: Int, _ kind: TimerKind, after delay: Double) {
        timerSerial += 1
        let deadline = now + delay
        timers.append(PendingTimer(deadline: deadline, recognizer: g, kind: kind, serial: timerSerial))
        let kindArg = TraceRecorder.Argument(.kind, trace.text(kind.rawValue))
        trace.marker(.timer, object(recognizer: g), .init(.action, .word("scheduled")), kindArg, .init(.deadline, .number(deadline)),
                     note: "\(info(g).id) timer \(kind.rawValue) scheduled for t=\(NumberText.format(deadline))")
    }

    func hasTimer(_ g: Int, _ kind: TimerKind) -> Bool {
        timers.contains { $0.recognizer == g && $0.kind == kind }
    }

    mutating func cancelTimer(_ g: Int, _ kind: TimerKind) {
        guard hasTimer(g, kind) else { return }
        timers.removeAll { $0.recognizer == g && $0.kind == kind }
        let kindArg = TraceRecorder.Argument(.kind, trace.text(kind.rawValue))
        trace.marker(.timer, object(recognizer: g), .init(.action, .word("cancelled")), kindArg,
                     note: "\(info(g).id) timer \(kind.rawValue) cancelled")
    }

    /// Q5: a recognizer's timers are dropped when it leaves `possible` or is reset, in kind
    /// order. The kinds are gathered in a small array, not a `Set` (a recognizer has one or two).
    mutating func cancelTimers(of g: Int) {
        var kinds: [TimerKind] = []
        for timer in timers where timer.recognizer == g && !kinds.contains(timer.kind) { kinds.append(timer.kind) }
        if kinds.count > 1 { kinds.sort { $0.rawValue < $1.rawValue } }
        for kind in kinds { cancelTimer(g, kind) }
    }

    /// Q3/Q4: fires every timer due at or before `limit`, in deadline order, each as its own
    /// update outside `sendEvent:`: a `[timer]` marker, then resolution and the sequence end.
    mutating func fireTimers(through limit: Double) {
        while let next = timers.filter({ $0.deadline <= limit })
                .min(by: { ($0.deadline, $0.serial) < ($1.deadline, $1.serial) }) {
            timers.removeAll { $0.serial == next.serial }
            now = next.deadline
            trace.t = next.deadline
            let g = next.recognizer
            trace.cause = .timer(info(g).id)
            let kindArg = TraceRecorder.Argument(.kind, trace.text(next.kind.rawValue))
            let m = trace.marker(.timer, object(recognizer: g), .init(.action, .word("fired")), kindArg,
                                 note: "\(info(g).id) timer \(next.kind.rawValue) fired")
            trace.push(m)
            recognizerTimerFired(g, next.kind)
            resolve()
            trace.pop()
            endSequenceIfDone(fromInput: false)
        }
    }
}
