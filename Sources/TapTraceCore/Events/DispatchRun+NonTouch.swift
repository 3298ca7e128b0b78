/// The pipeline of one non-touch record (N4): presses, a shake, a remote-control event, or app
/// code changing the first responder. None is hit-tested; each starts at the key window's
/// first responder (N1–N3) and climbs the responder chain of R2–R7.
extension DispatchRun {
    /// F2: the first responders at t = 0, made when the first non-touch record is dispatched
    /// (touch records never change them).
    mutating func startNonTouchState() {
        guard nonTouchState == nil else { return }
        nonTouchState = NonTouchRunState()
        if let id = index.scene.app?.focusedResponder, let r = index.responder(withId: id), let w = index.window(of: r) {
            nonTouch.firstResponders[w] = r
        }
        if let w = index.keyWindow { nonTouch.initialKeyResponder = nonTouch.firstResponders[w] }
    }

    mutating func processNonTouch(_ record: TouchRecord, _ event: NonTouchEvent) {
        now = record.t
        trace.t = record.t
        trace.cause = .input
        startNonTouchState()
        switch event {
        case .responder(let call):
            performResponderCall(call)                     // F3, F4: app code, no event (N4)
        case .presses(let changes):
            arrivalPreamble(source: changes.contains { $0.type == .keyboard } ? "a keyboard" : "a button")
            processPresses(changes)
        case .motion(let change):
            arrivalPreamble(source: "the accelerometer")
            processMotion(change)
        case .remoteControl(let subtype):
            arrivalPreamble(source: "a media remote")
            processRemoteControl(subtype)
        }
    }

    // MARK: N1–N3

    /// The key responder now: the key window's first responder, else the fallback (N3).
    func keyResponder() -> (responder: Responder, source: NonTouchSummary.Source)? {
        guard let w = index.keyWindow else { return nil }
        if let r = nonTouch.firstResponders[w] { return (r, .firstResponder) }
        return (index.fallbackResponder(window: w, knobs.keyResponderFallback), .fallback)
    }

    /// N4 step 2: the `[keyResponder]` marker; `recognizers` for a press (PG2).
    mutating func keyResponderMarker(_ subject: String, _ r: Responder, _ source: NonTouchSummary.Source, recognizers: [Int]?) {
        let window = index.keyWindow.map { index.ref(view: $0).id } ?? "none"
        var note: NoteText = "\(subject) → \(index.ref(r).id) "
        switch source {
        case .firstResponder: note.append("(first responder of key window \(window))")
        case .fallback:
            note.append("(fallback: key window \(window) has no first responder; keyResponderFallback = \(knobs.keyResponderFallback.rawValue), N3)")
        }
        let sourceArg = TraceRecorder.Argument(.source, trace.text(source.rawValue))
        if let recognizers {
            note.append("; GRs [")
            note.append(recognizers.map { info($0).id }, joinedBy: ", ")
            note.append("]")
            trace.marker(.keyResponder, index.object(r), sourceArg, .init(.recognizers, recognizersValue(recognizers)), note: note)
        } else {
            trace.marker(.keyResponder, index.object(r), sourceArg, note: note)
        }
    }

    /// Ids of a chain (R9), for the summaries.
    func chainIDs(_ chain: [Responder]) -> [String] { chain.map { index.ref($0).id } }

    func chain(from r: Responder) -> [Responder] {
        index.responderChain(from: r, includeWindowScene: knobs.includeWindowScene).chain
    }

    // MARK: N4 step 4

    /// `UIApplication sendEvent:` → the key window's `sendEvent:`, with `body` inside.
    mutating func sendNonTouchEvent(_ event: Int, _ body: (inout DispatchRun) -> Void) {
        guard let w = index.keyWindow else { return }
        let app = trace.call(index.object(.application), .sendEvent, eventArg(event))
        trace.push(app)
        let ws = trace.call(TraceObject(view: w), .sendEvent, eventArg(event))
        trace.push(ws)
        body(&self)
        trace.pop()
        trace.pop()
    }

    /// N5: the event fell off the end of the chain: one marker, nested in the last call.
    mutating func unhandledMarker(_ subject: String, _ method: String, last: Responder) {
        trace.marker(.unhandled, index.object(last),
                     note: "\(subject) \(method): no responder handled it; UIApplication drops it (N5)")
    }

    // MARK: EA1, EA2

    /// Four illustrative `arrival` markers before a touch, press, motion or remote-control
    /// record's own dispatch, when `arrivalPreamble` is on. They change nothing else.
    mutating func arrivalPreamble(source: String) {
        guard knobs.arrivalPreamble else { return }
        let stages: [(StaticString, String)] = [
            ("iohid", "IOKit wraps the input from \(source) in an IOHIDEvent"),
            ("backboardd", "backboardd (SpringBoard in older logs) routes it to the foreground app over a mach port"),
            ("source1", "the main run loop wakes: Source1 runs __IOHIDEventSystemClientQueueCallback"),
            ("source0", "Source0 runs the event queue (__UIApplicationHandleEventQueue, __processEventQueue on newer iOS) and builds the UIEvent"),
        ]
        for (stage, note) in stages {
            trace.marker(.arrival, .none, .init(.illustrative, .bool(true)), .init(.stage, .word(stage)),
                         note: "illustrative: \(note) (EA1, EA2)")
        }
    }

    // MARK: the summaries

    func nonTouchSummary() -> NonTouchSummary {
        guard nonTouchState != nil else { return NonTouchSummary(keyResponder: .init(initial: nil, final: nil)) }
        let final = index.keyWindow.flatMap { nonTouch.firstResponders[$0] }
        let presses = nonTouch.presses.map { p in
            NonTouchSummary.Press(
                id: p.id, type: p.type, key: p.key?.charactersIgnoringModifiers, responder: p.responder.map { index.ref($0).id },
                source: p.source, chain: chainIDs(p.chain), delivered: chainIDs(p.delivered),
                handledBy: p.handledBy.map { index.ref($0).id }, keyCommand: p.keyCommand,
                textInput: p.textInput.map { index.ref($0).id }, recognizers: p.recognizers.map { info($0).id },
                finalPhase: p.phase)
        }
        return NonTouchSummary(
            keyResponder: .init(initial: nonTouch.initialKeyResponder.map { index.ref($0).id }, final: final.map { index.ref($0).id }),
            presses: presses, motions: nonTouch.motions, remoteControls: nonTouch.remoteControls,
            responderChanges: nonTouch.responderChanges)
    }
}
