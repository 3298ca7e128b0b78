extension DispatchRun {
    func info(_ g: Int) -> RecognizerInfo { index.recognizers[recognizers[g].info] }

    /// The runtime index of a scene recognizer, creating its runtime state on first use.
    mutating func runtime(for r: Int) -> Int {
        if let g = runtimeIndex[r] { return g }
        // Room for the recognizers of a touch's path at once: grown from empty, the list and
        // its index were reallocated for the second and the third.
        if recognizers.isEmpty {
            recognizers.reserveCapacity(8)
            runtimeIndex.reserveCapacity(8)
        }
        recognizers.append(RecognizerRuntime(info: r))
        runtimeIndex[r] = recognizers.count - 1
        return recognizers.count - 1
    }

    /// Whether two recognizers interact (GM1): they hold a common touch (or press, PG3).
    func interact(_ a: Int, _ b: Int) -> Bool {
        guard a != b else { return false }
        let tb = recognizers[b].touches
        if recognizers[a].touches.contains(where: { tb.contains($0) }) { return true }
        let pb = recognizers[b].presses
        return !pb.isEmpty && recognizers[a].presses.contains { pb.contains($0) }
    }

    /// Every state change goes through here: the trace entry and the `states` history.
    mutating func transition(_ g: Int, to new: RecognizerState, reason: String) {
        let old = recognizers[g].state
        recognizers[g].state = new
        recognizers[g].history.append(new)
        trace.state(object(recognizer: g), from: old, to: new, reason: reason, discrete: info(g).isDiscrete)
        if new != .possible {
            recognizers[g].wantsToRecognize = false
            if old == .possible { cancelTimers(of: g) }       // Q5
        }
    }

    /// A recognizer fails while possible (its own decision or a forced one).
    mutating func fail(_ g: Int, _ reason: String) {
        guard recognizers[g].state == .possible else { return }
        transition(g, to: .failed, reason: reason)
    }
}
