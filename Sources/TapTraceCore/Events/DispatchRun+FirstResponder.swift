/// App code calling `becomeFirstResponder` (F3) and `resignFirstResponder` (F4): not events, so
/// no `sendEvent:`; the calls UIKit makes inside them are nested in them.
extension DispatchRun {
    mutating func performResponderCall(_ call: ResponderCall) {
        guard let r = index.responder(withId: call.receiver), let w = index.window(of: r) else { return }
        let before = nonTouch.firstResponders[w]
        let result: Bool
        switch call {
        case .become: result = becomeFirstResponder(r, window: w)
        case .resign: result = resignFirstResponder(r, window: w)
        }
        nonTouch.responderChanges.append(NonTouchSummary.ResponderChange(
            t: now, call: call.name, receiver: index.ref(r).id, result: result,
            from: before.map { index.ref($0).id }, to: nonTouch.firstResponders[w].map { index.ref($0).id }))
    }

    /// F3. `resigning`: the old first responder has already resigned (F4 step 3 passing first
    /// responder status up the chain): no second resign, and `from` names it.
    @discardableResult
    private mutating func becomeFirstResponder(_ x: Responder, window w: Int, resigned: Responder? = nil) -> Bool {
        let seq = trace.call(index.object(x), .becomeFirstResponder)
        trace.push(seq)
        let answer = becomeSteps(x, window: w, resigned: resigned)
        trace.pop()
        trace.setResult(seq, .bool(answer))
        return answer
    }

    private mutating func becomeSteps(_ x: Responder, window w: Int, resigned: Responder?) -> Bool {
        let old = nonTouch.firstResponders[w]
        if old == x { return true }                                             // step 1
        switch knobs.becomeOrder {
        case .canBecomeFirst:
            guard askCanBecome(x) else { return false }                         // step 2
            if let old, !resignSteps(old, window: w, passToAncestor: false) { return false }   // step 3
        case .resignFirst:
            if let old, !resignSteps(old, window: w, passToAncestor: false) { return false }   // step 3 first
            guard askCanBecome(x) else {
                // A refusing X leaves the window without a first responder (F3, knob).
                if let old { firstResponderMarker(from: old, to: nil) }
                return false
            }
        }
        nonTouch.firstResponders[w] = x                                         // step 4
        firstResponderMarker(from: old ?? resigned, to: x)
        return true
    }

    /// F4.
    private mutating func resignFirstResponder(_ x: Responder, window w: Int) -> Bool {
        let seq = trace.call(index.object(x), .resignFirstResponder)
        trace.push(seq)
        let answer = resignSteps(x, window: w, passToAncestor: knobs.resignPassesToAncestor, traced: false)
        trace.pop()
        trace.setResult(seq, .bool(answer))
        return answer
    }

    /// F4's steps; `traced`: the `resignFirstResponder` call itself is still to be recorded
    /// (a resign inside F3 step 3).
    private mutating func resignSteps(_ x: Responder, window w: Int, passToAncestor: Bool, traced: Bool = true) -> Bool {
        var seq = 0
        if traced {
            seq = trace.call(index.object(x), .resignFirstResponder)
            trace.push(seq)
        }
        defer {
            if traced { trace.pop() }
        }
        guard nonTouch.firstResponders[w] == x else {                          // step 1
            if traced { trace.setResult(seq, .bool(false)) }
            return false
        }
        let may = index.canResignFirstResponder(x)                              // step 2
        trace.call(index.object(x), .canResignFirstResponder, result: .bool(may))
        guard may else {
            if traced { trace.setResult(seq, .bool(false)) }
            return false
        }
        nonTouch.firstResponders[w] = nil                                       // step 3
        if traced { trace.setResult(seq, .bool(true)) }
        guard passToAncestor else {
            if !traced { firstResponderMarker(from: x, to: nil) }
            return true
        }
        // UIKit offers first responder status up the chain from X's next responder.
        var r = index.nextResponder(x, includeWindowScene: knobs.includeWindowScene)
        var seen: [Responder] = [x]
        while let candidate = r, !seen.contains(candidate) {
            seen.append(candidate)
            if askCanBecome(candidate) {
                becomeFirstResponder(candidate, window: w, resigned: x)
                return true
            }
            r = index.nextResponder(candidate, includeWindowScene: knobs.includeWindowScene)
        }
        firstResponderMarker(from: x, to: nil)
        return true
    }

    private mutating func askCanBecome(_ r: Responder) -> Bool {
        let answer = index.canBecomeFirstResponder(r)
        trace.call(index.object(r), .canBecomeFirstResponder, result: .bool(answer))
        return answer
    }

    private mutating func firstResponderMarker(from: Responder?, to: Responder?) {
        let fromID = from.map { index.ref($0).id } ?? "nil", toID = to.map { index.ref($0).id } ?? "nil"
        trace.marker(.firstResponder, to.map { index.object($0) } ?? from.map { index.object($0) } ?? .none,
                     .init(.from, from.map { .object(index.object($0)) } ?? .null),
                     .init(.to, to.map { .object(index.object($0)) } ?? .null),
                     note: "\(fromID) → \(toID)\(to == nil ? " (resign, F4)" : " (F3)")")
    }
}
