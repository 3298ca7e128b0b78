/// One dispatch of a touch sequence against an indexed scene: the pipeline of rules §2, run
/// update by update on the virtual clock. All mutable state of a run lives here; the scene index
/// is shared and never copied.
///
/// A struct whose methods mutate it in place: its state is checked for overlapping access at
/// compile time, where a class's stored properties were checked at run time on every access
/// (`swift_beginAccess`). Helpers that do not mutate avoid closures that use `self`: such a
/// closure captures a copy of the whole run.
///
/// The pipeline for an input record at time t (rules §2):
/// 1. timers due at or before t fire first, each as its own update (`fireTimers`);
/// 2. new touches are hit-tested (`hitTestNewTouches`);
/// 3. gates and recognizer collection (`gate`, `collectRecognizers`);
/// 4. `UIApplication.sendEvent:` → `UIWindow.sendEvent:` per window;
/// 5. the gesture pass (`gesturePass`);
/// 6. resolution: requirements, questions, state changes, cancels, actions, flushes (`resolve`);
/// 7. the view pass (`viewPass`);
/// 8. the sequence end resets finished recognizers (`endSequenceIfDone`).
struct DispatchRun {
    let index: SceneIndex
    let knobs: Knobs
    let hitTester: HitTester
    var trace: TraceRecorder
    var actions: [ActionRecord] = []
    var touches: [TouchState] = []
    var touchIndexById: [String: Int] = [:]
    var sequenceNumber = 0
    var recognizers: [RecognizerRuntime] = []
    /// Scene recognizer index → runtime index (created when first collected).
    var runtimeIndex: [Int: Int] = [:]
    var controls: [Int: ControlState] = [:]
    var timers: [PendingTimer] = []
    var timerSerial = 0
    var now = 0.0
    /// Touches changed by the current input record.
    var changed: [Int] = []
    /// First responders, presses and the non-touch summaries (rules §3.17–3.23); nil in
    /// touch-only runs (`startNonTouchState` makes it).
    var nonTouchState: NonTouchRunState?
    /// The non-touch state, once a non-touch record has made it.
    var nonTouch: NonTouchRunState { nonTouchState! }
    /// Presses still down (none in touch-only runs).
    var pressesDown: Int { nonTouchState?.pressesDown ?? 0 }
    /// What the run may spend (its trace's length, time); nil: no bound (`WorkBudget`).
    let budget: WorkBudget?
    /// When the budget's clock is read next: after this many more input records, or once the
    /// trace has this many entries.
    private var recordsUntilClock = 0
    private var entriesAtClock = 0

    init(index: SceneIndex, knobs: Knobs, traceEnabled: Bool = true, budget: WorkBudget? = nil) {
        self.index = index
        self.knobs = knobs
        self.hitTester = HitTester(index: index, knobs: knobs)
        self.trace = TraceRecorder(index: index, enabled: traceEnabled)
        self.budget = budget
    }

    /// Touches not ended or cancelled. Counted by index: `reduce` copied every TouchState
    /// (its id and arrays retained and released) to read its phase.
    var fingersDown: Int {
        var n = 0
        for t in touches.indices where !touches[t].phase.isTerminal { n += 1 }
        return n
    }

    // MARK: running

    mutating func run(_ records: [TouchRecord], until: Double?) {
        for record in records {
            // Between two records is a safe point: nothing is half-delivered. A record's own
            // work is bounded by the scene (hit-testing, the chain, the recognizers).
            if budget != nil, !mayContinue() { return }
            fireTimers(through: record.t)       // §2 step 1, Q4: a timer due at t fires first
            if let event = record.nonTouch {
                processNonTouch(record, event)  // N4
            } else {
                processInput(record)
            }
        }
        if budget != nil, !mayContinue() { return }
        // Q6: keep firing timers after the last input, up to `until` or the drain limit.
        let last = records.last?.t ?? 0
        fireTimers(through: until ?? (last + knobs.drainLimit))
        if budget != nil { _ = mayContinue(clock: false) }
    }

    /// Whether the budget lets the run go on: the trace's length is compared every time, the
    /// clock read every `WorkBudget.clockInterval` records or `entryInterval` entries. A trace
    /// past `Limits.traceEntries` stops the run, which is then refused whole: a harness that
    /// asserts on a result must not get a truncated one that looks complete.
    private mutating func mayContinue(clock: Bool = true) -> Bool {
        guard let budget else { return true }
        let entries = trace.count
        if entries > budget.limits.traceEntries {
            budget.stop(.limit(LimitExceeded(.traceEntries, maximum: budget.limits.traceEntries, size: entries,
                                             isLowerBound: true)))
            return false
        }
        guard clock else { return budget.stop == nil }
        recordsUntilClock -= 1
        guard recordsUntilClock <= 0 || entries - entriesAtClock >= WorkBudget.entryInterval else {
            return budget.stop == nil
        }
        recordsUntilClock = WorkBudget.clockInterval
        entriesAtClock = entries
        return budget.mayContinue()
    }

    private mutating func processInput(_ record: TouchRecord) {
        now = record.t
        trace.t = record.t
        trace.cause = .input
        arrivalPreamble(source: "the digitizer")         // EA1 (off by default)
        if fingersDown == 0 { sequenceNumber += 1 }
        let event = sequenceNumber
        changed.removeAll(keepingCapacity: true)
        var newTouches: [Int] = []
        for c in record.touches {
            if c.phase == .began {
                var t = TouchState(id: c.id, type: c.type ?? .direct, event: event, time: record.t, location: c.at ?? .zero)
                t.tapCount = tapCount(for: t)
                t.traceID = trace.touchID(c.id)
                touches.append(t)
                touchIndexById[c.id] = touches.count - 1
                newTouches.append(touches.count - 1)
                changed.append(touches.count - 1)
            } else if let i = touchIndexById[c.id] {
                touches[i].phase = c.phase
                if let p = c.at { touches[i].location = p }
                if c.phase.isTerminal { touches[i].endTime = record.t }
                changed.append(i)
            }
        }
        hitTestNewTouches(newTouches, event: event)          // step 2
        for t in newTouches { gate(t) }                      // step 3: E rules
        for t in newTouches { collectRecognizers(t) }        // step 3: G rules

        // Steps 4–7, once per window that has touches in this event (W6). A touch no window
        // claimed (W5) is dropped: only its hit-test calls are traced.
        var windows: [Int] = []
        for t in changed { if let w = touches[t].window, !windows.contains(w) { windows.append(w) } }
        if !windows.isEmpty {
            let app = trace.call(index.object(.application), .sendEvent, eventArg(event))
            trace.push(app)
            for w in windows {
                let ws = trace.call(TraceObject(view: w), .sendEvent, eventArg(event))
                trace.push(ws)
                // With one window and every changed touch in it (the usual case), its touches
                // are the changed ones: shared, not filtered into a new array.
                let mine = windows.count == 1 && !changed.contains(where: { touches[$0].window == nil })
                    ? changed : changed.filter { touches[$0].window == w }
                gesturePass(mine)                            // step 5
                withholdArrivals(mine)                       // GV1, GV5, GV6
                resolve()                                    // step 6
                viewPass(mine)                               // step 7
                trace.pop()
            }
            trace.pop()
        }
        endSequenceIfDone(fromInput: true)                   // step 8
    }

    // MARK: step 2

    private mutating func hitTestNewTouches(_ newTouches: [Int], event: Int) {
        for t in newTouches {
            if index.scene.app?.ignoringInteractionEvents == true {
                // Z2: every touch event is dropped before hit-testing.
                touches[t].refused = .ignoringInteractionEvents
                trace.marker(.gate, .none, touchIDArg(t),
                             note: "\(touches[t].id) dropped: the application ignores interaction events (Z2)")
                continue
            }
            if let (w, v) = hitTester.windowHitTest(screenPoint: touches[t].location, event: event,
                                                    passes: knobs.hitTestPasses, trace: &trace) {
                touches[t].window = w
                touches[t].view = v
            }
        }
    }

    /// T10: a finger-down soon after a nearby lift continues the tap count.
    private func tapCount(for t: TouchState) -> Int {
        var best: TouchState?
        for other in touches where other.phase == .ended {
            guard let lift = other.liftTime else { continue }
            guard t.beganTime - lift <= knobs.tapCountInterval,
                  other.location.distance(to: t.location) <= knobs.tapCountDistance else { continue }
            if best == nil || other.beganTime > best!.beganTime { best = other }
        }
        return (best?.tapCount ?? 0) + 1
    }

    // MARK: helpers shared by the rule files

    /// Any object of the scene by id, for trace receivers (targets, delegates); an id the scene
    /// does not have names an object of that class.
    mutating func object(id: String) -> TraceObject {
        index.object(id: id) ?? trace.object(named: ObjectRef(id: id, className: id))
    }

    func object(recognizer g: Int) -> TraceObject { index.object(recognizer: recognizers[g].info) }

    /// The `event` argument: the touch's multitouch sequence (§1).
    func eventArg(_ event: Int) -> TraceRecorder.Argument { .init(.event, .event(Int32(event))) }

    /// A touch's id as the `touch` argument.
    func touchIDArg(_ t: Int) -> TraceRecorder.Argument { .init(.touch, .text(touches[t].traceID)) }

    /// A touch as a call shows it; `receiverView` is the view whose coordinates `inReceiver`
    /// uses (nil for controllers and the application).
    /// `inReceiver` can be given when the caller already knows it (forwarding up a deep chain
    /// converts one level at a time instead of from the screen each time).
    /// Reads the touch field by field, into a static function: called on the run itself from
    /// the mutating methods that record it, it made the compiler copy the whole run (every
    /// array retained, then released) around `convertFromScreen`, 2,200 instructions per
    /// dispatch of bench/make-scene.py's tap (callgrind).
    mutating func snapshot(_ t: Int, phase: TouchPhase, location: Point? = nil, receiverView: Int?,
                           inReceiver: Point? = nil) -> TraceRecorder.Snapshot {
        Self.snapshot(index: index, id: touches[t].traceID, tapCount: touches[t].tapCount,
                      at: location ?? touches[t].location, window: touches[t].window, phase: phase,
                      receiverView: receiverView, inReceiver: inReceiver)
    }

    private static func snapshot(index: SceneIndex, id: Int32, tapCount: Int, at p: Point, window: Int?,
                                 phase: TouchPhase, receiverView: Int?, inReceiver: Point?) -> TraceRecorder.Snapshot {
        var inWindow = p
        if let w = window { inWindow = index.geometry[w].convertFromSuperview(p) }
        var inView = inReceiver
        if inView == nil, let v = receiverView { inView = index.convertFromScreen(p, to: v) }
        return TraceRecorder.Snapshot(id: id, phase: phase, tapCount: tapCount, inWindow: inWindow, inReceiver: inView)
    }

    /// The `touches` argument, sorted by id. The snapshots go straight into the recorder's
    /// table (an array of them per call was allocated and freed for every touch method), and
    /// nothing is computed when the trace is off.
    mutating func touchesArg(_ ts: [Int], phase: TouchPhase, receiverView: Int?, locations: TouchPoints = [:],
                             local: TouchPoints = [:]) -> TraceRecorder.Argument {
        guard trace.enabled else { return .init(.touches, .null) }
        let start = trace.snapshotEnd
        for t in ts {
            let s = snapshot(t, phase: phase, location: locations[t], receiverView: receiverView, inReceiver: local[t])
            trace.snapshot(s)
        }
        return .init(.touches, trace.touches(from: start))
    }

    /// The `touch` argument of a delegate question or a control's tracking: the touch alone.
    mutating func touchArg(_ t: Int, receiverView: Int?) -> TraceRecorder.Argument {
        guard trace.enabled else { return .init(.touch, .null) }
        let start = trace.snapshotEnd
        let s = snapshot(t, phase: touches[t].phase, receiverView: receiverView)
        trace.snapshot(s)
        return .init(.touch, trace.touches(from: start))
    }

    /// A recognizer (runtime index) as an argument.
    func recognizerArg(_ g: Int, as name: TraceArgName = .gestureRecognizer) -> TraceRecorder.Argument {
        .init(name, .object(object(recognizer: g)))
    }

    /// A list of recognizers as an argument value.
    mutating func recognizersValue(_ gs: [Int]) -> TraceRecorder.Value {
        let start = trace.objectListEnd
        for g in gs { trace.listObject(object(recognizer: g)) }
        return trace.objects(from: start)
    }
}

extension TouchState {
    /// When the finger lifted (for T10); recorded by the view pass bookkeeping.
    var liftTime: Double? { phase == .ended ? endTime : nil }
}
