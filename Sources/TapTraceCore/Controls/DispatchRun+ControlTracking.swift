/// A control's tracking of its touch (K1–K7).
struct ControlState {
    /// K1: a control tracks one touch, the first one bound to it.
    var touch: Int
    var isTracking: Bool
    var isTouchInside: Bool
    var isHighlighted: Bool
}

extension DispatchRun {
    /// K3: "inside" for tracking is the bounds grown by the slop on every side.
    private func insideWithSlop(_ v: Int, _ t: Int) -> Bool {
        let p = index.convertFromScreen(touches[t].location, to: v)
        return index.geometry[v].bounds.outset(by: knobs.controlTrackingSlop).contains(p)
    }

    private mutating func controlMarker(_ v: Int, highlighted: Bool?, inside: Bool?, events: [ControlEvent], note extra: StaticString? = nil) {
        // The note's parts, separated by "; ": highlight, inside test, events, extra.
        var note = NoteText(capacity: 128)
        if let highlighted {
            note.append(index.ref(view: v).id)
            note.append(highlighted ? ".highlighted = YES; " : ".highlighted = NO; ")
        }
        if let inside {
            note.append("inside(slop ")
            note.append(NumberText.format(knobs.controlTrackingSlop))
            note.append(inside ? ") = YES; " : ") = NO; ")
        }
        let names = events.map(\.rawValue)
        if names.isEmpty {
            note.append("no event")
        } else {
            note.append("fire {")
            note.append(names, prefix: ".", joinedBy: ", ")
            note.append("}")
        }
        if let extra { note.append("; "); note.append(extra) }
        let eventsArg = TraceRecorder.Argument(.events, trace.texts(names))
        trace.marker(.control, TraceObject(view: v), highlighted.map { .init(.highlighted, .bool($0)) },
                     inside.map { .init(.inside, .bool($0)) }, eventsArg, note: note)
    }

    /// The base UIControl touch methods of an enabled control (K2–K7, K11 handled by the caller).
    mutating func controlTouches(_ v: Int, _ phase: TouchPhase, _ ts: [Int]) {
        let eventArg = eventArg(touches[ts[0]].event)
        switch phase {
        case .began:
            guard controls[v] == nil, let t = ts.first else { return }          // K1
            // K2: touchInside, beginTracking (its answer becomes isTracking), highlight, TouchDown.
            let tracking = index.view(v).overrides?.beginTracking ?? true
            let touch = touchArg(t, receiverView: v)
            trace.call(TraceObject(view: v), .beginTracking, touch, eventArg, result: .bool(tracking))
            controls[v] = ControlState(touch: t, isTracking: tracking, isTouchInside: true, isHighlighted: true)
            var events: [ControlEvent] = []
            if tracking || !knobs.touchDownRequiresTracking {
                events.append(.touchDown)
                if touches[t].tapCount > 1 { events.append(.touchDownRepeat) }
            }
            controlMarker(v, highlighted: true, inside: nil, events: events)
            sendControlActions(v, events, event: touches[t].event)
        case .moved, .stationary:
            guard var state = controls[v], ts.contains(state.touch), state.isTracking else { return }
            let t = state.touch
            let wasInside = state.isTouchInside
            let inside = insideWithSlop(v, t)                                   // K3
            let keepTracking = index.view(v).overrides?.continueTracking ?? true
            let touch = touchArg(t, receiverView: v)
            trace.call(TraceObject(view: v), .continueTracking, touch, eventArg, result: .bool(keepTracking))
            state.isTouchInside = inside
            guard keepTracking else {
                // K4: NO stops tracking; no further control events for this touch.
                state.isTracking = false
                state.isHighlighted = false
                controls[v] = state
                controlMarker(v, highlighted: false, inside: inside, events: [], note: "tracking ends (continueTracking NO)")
                return
            }
            var events: [ControlEvent] = [inside ? .touchDragInside : .touchDragOutside]
            if inside && !wasInside { events.append(.touchDragEnter) }
            if !inside && wasInside { events.append(.touchDragExit) }
            let highlightChanged = state.isHighlighted != inside
            state.isHighlighted = inside
            controls[v] = state
            controlMarker(v, highlighted: highlightChanged ? inside : nil, inside: inside, events: events.sorted())
            sendControlActions(v, events.sorted(), event: touches[t].event)
        case .ended:
            guard let state = controls[v], ts.contains(state.touch) else { return }
            let t = state.touch
            controls[v] = nil
            // K5: endTracking, highlight off, then TouchUpInside/Outside if it was tracking.
            if state.isTracking {
                let touch = touchArg(t, receiverView: v)
                trace.call(TraceObject(view: v), .endTracking, touch, eventArg)
            }
            let inside = insideWithSlop(v, t)
            var events: [ControlEvent] = []
            if state.isTracking {
                if inside {
                    events.append(.touchUpInside)
                    if index.view(v).base == .UIButton { events.append(.primaryActionTriggered) }   // K6
                } else {
                    events.append(.touchUpOutside)
                }
            }
            controlMarker(v, highlighted: false, inside: inside, events: events)
            sendControlActions(v, events, event: touches[t].event)
        case .cancelled:
            guard let state = controls[v], ts.contains(state.touch) else { return }
            let t = state.touch
            controls[v] = nil
            // K7, GV10: cancelTracking, highlight off, TouchCancel.
            var events: [ControlEvent] = []
            if state.isTracking {
                trace.call(TraceObject(view: v), .cancelTracking, eventArg)
                events.append(.touchCancel)
            }
            controlMarker(v, highlighted: false, inside: nil, events: events)
            sendControlActions(v, events, event: touches[t].event)
        }
    }
}
