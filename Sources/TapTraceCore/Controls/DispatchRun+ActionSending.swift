/// Target-action (K8–K10, A1–A7): `-[UIControl sendAction:to:forEvent:]` →
/// `-[UIApplication sendAction:to:from:forEvent:]` → the action, or a walk up the responder
/// chain for a nil target.
extension DispatchRun {
    /// K9: the control's table in registration order; each entry whose events intersect the
    /// fired set is sent once.
    mutating func sendControlActions(_ v: Int, _ events: [ControlEvent], event: Int) {
        guard !events.isEmpty else { return }
        let fired = events.reduce(UInt32(0)) { $0 | $1.bit }
        let sender = TraceObject(view: v)
        for entry in index.view(v).targets ?? [] where entry.mask & fired != 0 {
            let target: TraceObject? = entry.target.map { object(id: $0) }
            let targetArg = TraceRecorder.Argument(.target, target.map { .object($0) } ?? .null)
            let action = TraceRecorder.Argument(.action, trace.text(entry.action))
            let s1 = trace.call(sender, .sendActionToForEvent, action, targetArg, eventArg(event))
            trace.push(s1)
            let s2 = trace.call(index.object(.application), .sendActionToFromForEvent, action, targetArg,
                                .init(.sender, .object(sender)), eventArg(event))
            trace.push(s2)
            var record = ActionRecord(t: now, action: entry.action, sender: index.ref(view: v).id, target: nil, via: .target,
                                      events: events, state: nil)
            let handled: Bool
            if let id = entry.target, let target {
                // A1: an explicit target gets the action.
                invokeAction(entry.action, on: target, sender: sender, event: event)
                record.target = id
                handled = true
            } else if let found = nilTargetWalk(entry.action, sender: .view(v)) {
                invokeAction(entry.action, on: index.object(found), sender: sender, event: event)
                record.target = index.ref(found).id
                record.via = .responderChain
                handled = true
            } else {
                record.via = .unhandled
                handled = false
            }
            trace.pop()
            trace.setResult(s2, .bool(handled))
            trace.pop()
            actions.append(record)
        }
    }

    /// A5: the arguments the selector takes: none, the sender, or the sender and the event.
    private mutating func invokeAction(_ action: String, on target: TraceObject, sender: TraceObject, event: Int) {
        let n = SelectorNames.argumentCount(action)
        trace.call(target, action: action, n >= 1 ? .init(.sender, .object(sender)) : nil, n >= 2 ? eventArg(event) : nil)
    }

    /// A2–A4: walks from the focused responder or the sender (knob `nilTargetStart`) to the
    /// first responder that implements the action.
    private mutating func nilTargetWalk(_ action: String, sender: Responder) -> Responder? {
        // F2: the key window's first responder at the time of the action, once records have
        // changed it; the scene's `focusedResponder` otherwise.
        let focused = nonTouchState != nil
            ? index.keyWindow.flatMap { nonTouch.firstResponders[$0] }
            : index.scene.app?.focusedResponder.flatMap { index.responder(withId: $0) }
        let start: Responder?
        let why: String
        switch knobs.nilTargetStart {
        case .focusedElseSender:
            start = focused ?? sender
            why = focused != nil ? "the focused responder" : "no focused responder; the sender"
        case .senderOnly:
            start = sender
            why = "knob nilTargetStart = senderOnly"
        case .focusedOnly:
            start = focused
            why = focused != nil ? "the focused responder" : "no focused responder: nothing is asked"
        }
        let actionArg = TraceRecorder.Argument(.action, trace.text(action))
        trace.marker(.chainWalk, start.map { index.object($0) } ?? .none, actionArg,
                     note: "start = \(start.map { index.ref($0).id } ?? "none") (\(why); A3)")
        guard let start else { return nil }
        var r: Responder? = start
        var seen = Set<Responder>()
        while let current = r {
            guard seen.insert(current).inserted else {
                trace.marker(.chainWalk, index.object(current), note: "nextResponder cycle at \(index.ref(current).id); the walk ends (R7)")
                return nil
            }
            let answer: Bool
            if knobs.nilTargetUsesCanPerformAction {
                answer = index.canPerformOverride(current, action) ?? index.implements(current, action)
                let actionArg = TraceRecorder.Argument(.action, trace.text(action))
                trace.call(index.object(current), .canPerformAction, actionArg, .init(.sender, .object(index.object(sender))),
                           result: .bool(answer))
            } else {
                // A4: respondsToSelector:, and a declared canPerformAction: NO skips it.
                answer = index.implements(current, action) && index.canPerformOverride(current, action) != false
                let actionArg = TraceRecorder.Argument(.action, trace.text(action))
                trace.marker(.chainWalk, index.object(current), actionArg, .init(.implements, .bool(answer)),
                             note: "\(index.ref(current).id) implements \(action)? \(answer ? "YES" : "NO")")
            }
            if answer { return current }
            r = index.nextResponder(current, includeWindowScene: knobs.includeWindowScene)
        }
        return nil
    }
}
