/// §2 step 8, GS8: when no finger is down, recognizers in a final state are reset and return to
/// `possible`; those still `possible` (a double tap waiting for its second tap) are kept.
extension DispatchRun {
    mutating func endSequenceIfDone(fromInput: Bool) {
        // A press sequence ends too when no press is down (PG3).
        guard fingersDown == 0, pressesDown == 0 else { return }
        let finished = recognizers.indices.filter { recognizers[$0].state.isTerminal }
        // A timer update that finishes nothing has no sequence end to show.
        guard fromInput || !finished.isEmpty else { return }
        let kept = recognizers.indices.filter {
            recognizers[$0].state == .possible && !(recognizers[$0].touches.isEmpty && recognizers[$0].presses.isEmpty)
        }
        var note: NoteText = "no recognizer to reset"
        if !finished.isEmpty { note = "reset \(finished.map { info($0).id }, joinedBy: ", ")" }
        if !kept.isEmpty {
            note.append("; still .possible: ")
            note.append(kept.map { info($0).id }, joinedBy: ", ")
        }
        let reset = TraceRecorder.Argument(.reset, recognizersValue(finished))
        let m = trace.marker(.sequenceEnd, .none, reset, note: note)
        trace.push(m)
        for g in finished {
            trace.call(object(recognizer: g), .reset)
            cancelTimers(of: g)
            recognizers[g].state = .possible
            recognizers[g].history.append(.possible)
            recognizers[g].touches = []
            recognizers[g].presses = []
            recognizers[g].clearGestureData()
        }
        trace.pop()
    }
}
