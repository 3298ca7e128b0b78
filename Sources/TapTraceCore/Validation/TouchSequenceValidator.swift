/// Expands gesture shorthands and checks the phase and time rules of a touch sequence
/// (contract §2): strictly increasing times, each touch begins once, changes only while down,
/// and ends exactly once (`ended` or `cancelled`); presses, shakes and the other non-touch
/// records of §2.1 likewise (`TouchSequenceValidator+NonTouch.swift`).
///
/// A record whose `t` is not finite was refused where it was read (a missing or invalid `t`,
/// or a non-touch record that could not be read): it is reported there once and skipped here.
public enum TouchSequenceValidator {
    /// Durations used when a shorthand does not give one (docs/decisions.md).
    public static let tapDuration = 0.1
    public static let doubleTapGap = 0.1
    public static let longPressDuration = 0.8
    public static let dragDuration = 0.3
    public static let dragSteps = 10
    /// A gesture without `t` starts this long after the previous gesture ends (the first at 0):
    /// longer than any multi-tap interval, so two untimed taps never make a double tap.
    public static let defaultGap = 1.0

    private enum Source { case event(Int, Int), gesture(Int) }

    /// The records to dispatch: explicit events and expanded gestures merged by time (records
    /// at the same time become one record, i.e. one UIEvent delivery). `base` is the pointer of
    /// the touches document, for issues. `point` gives the screen point of an element target
    /// (`{"view": …}`); without it (decoding, before the scene is known) an element is touched at
    /// (0, 0), which checks phases and times only: such records are never dispatched, see
    /// `ElementTargets.resolve`.
    ///
    /// `maxRecords` is the most touch changes the sequence may expand to (`Limits.records`):
    /// the count comes from the gestures' `steps` before anything is expanded (a 300-byte drag
    /// of a million steps would be a gigabyte of records), and past it nothing is expanded: the
    /// limit is recorded in `issues` at `base` and no record is returned.
    public static func expand(_ seq: TouchSequence, at base: String = "", issues: inout IssueList,
                              maxRecords: Int = .max,
                              point: (TouchTarget) -> Point = { $0.point ?? Point(0, 0) }) -> [TouchRecord] {
        let count = recordCount(seq)
        if count > maxRecords {
            issues.exceed(LimitExceeded(.records, maximum: maxRecords, size: count, pointer: base))
            return []
        }
        // Generated ids count up from T1, skipping ids the explicit events use (only they can
        // collide: generated numbers only grow). Most requests have no events at all.
        var eventIds = Set<String>()
        for e in seq.events {
            for c in e.touches { eventIds.insert(c.id) }
            // Press ids are not touch ids, but a generated touch does not take one either.
            if case .presses(let presses)? = e.nonTouch { for p in presses { eventIds.insert(p.id) } }
        }
        var nextNumber = 1
        func freshId() -> String {
            var id = "T" + String(nextNumber)
            while !eventIds.isEmpty && eventIds.contains(id) {
                nextNumber += 1
                id = "T" + String(nextNumber)
            }
            nextNumber += 1
            return id
        }

        var timed: [(t: Double, change: TouchChange, source: Source, order: Int)] = []
        // Exact, but not trusted beyond a million up front when no limit applies.
        timed.reserveCapacity(min(count, 1 << 20))
        var order = 0
        func add(_ t: Double, _ c: TouchChange, _ s: Source) { timed.append((t, c, s, order)); order += 1 }

        var lastT = -Double.infinity
        // The press, motion, remote-control and responder records, merged with the touch
        // records by time below.
        var nonTouch: [NonTouchItem] = []
        for (i, e) in seq.events.enumerated() {
            if e.t.isFinite {
                if e.t <= lastT {
                    issues.add(base.pointer("events").pointer(i).pointer("t"),
                               "times must increase strictly: \(NumberText.format(e.t)) follows \(NumberText.format(lastT))")
                }
                lastT = max(lastT, e.t)
            }
            if let event = e.nonTouch {
                if !e.touches.isEmpty {
                    issues.add(base.pointer("events").pointer(i), "a record carries exactly one of touches, presses, motion, remoteControl, responder")
                }
                if e.t.isFinite { nonTouch.append(NonTouchItem(t: e.t, event: event, index: i)) }
                continue
            }
            if e.touches.isEmpty, e.t.isFinite {
                issues.add(base.pointer("events").pointer(i).pointer("touches"), "an event changes at least one touch")
            }
            var inRecord = Set<String>()
            for (j, c) in e.touches.enumerated() {
                if !inRecord.insert(c.id).inserted {
                    issues.add(base.pointer("events").pointer(i).pointer("touches").pointer(j),
                               "touch \"\(c.id)\" appears twice in one event")
                }
                add(e.t, c, .event(i, j))
            }
        }
        // Gestures in start order, so generated ids follow first contact.
        let starts = startTimes(seq.gestures)
        let gestureOrder = seq.gestures.indices.sorted { starts[$0] < starts[$1] }
        for k in gestureOrder {
            let t = starts[k]
            switch seq.gestures[k] {
            case let .tap(target, _, duration):
                let p = point(target)
                let id = freshId()
                add(t, TouchChange(id: id, phase: .began, at: p), .gesture(k))
                add(t + (duration ?? tapDuration), TouchChange(id: id, phase: .ended, at: p), .gesture(k))
            case let .doubleTap(target, _, gap):
                let p = point(target)
                let first = freshId(), second = freshId()
                let up1 = t + tapDuration
                let down2 = up1 + (gap ?? doubleTapGap)
                add(t, TouchChange(id: first, phase: .began, at: p), .gesture(k))
                add(up1, TouchChange(id: first, phase: .ended, at: p), .gesture(k))
                add(down2, TouchChange(id: second, phase: .began, at: p), .gesture(k))
                add(down2 + tapDuration, TouchChange(id: second, phase: .ended, at: p), .gesture(k))
            case let .longPress(target, _, duration):
                let p = point(target)
                let id = freshId()
                add(t, TouchChange(id: id, phase: .began, at: p), .gesture(k))
                add(t + (duration ?? longPressDuration), TouchChange(id: id, phase: .ended, at: p), .gesture(k))
            case let .drag(fromTarget, toTarget, _, duration, steps):
                let from = point(fromTarget), to = point(toTarget)
                let id = freshId()
                let d = duration ?? dragDuration
                let n = steps ?? dragSteps
                add(t, TouchChange(id: id, phase: .began, at: from), .gesture(k))
                // n moves spread over the drag, the last one reaching `to`; the lift follows at
                // t + duration without moving further.
                for s in 1...n {
                    let f = Double(s) / Double(n)
                    let p = Point(from.x + (to.x - from.x) * f, from.y + (to.y - from.y) * f)
                    add(t + d * Double(s) / Double(n + 1), TouchChange(id: id, phase: .moved, at: p), .gesture(k))
                }
                add(t + d, TouchChange(id: id, phase: .ended, at: to), .gesture(k))
            }
        }

        func pointer(_ s: Source) -> String {
            switch s {
            case let .event(i, j): return base.pointer("events").pointer(i).pointer("touches").pointer(j)
            case let .gesture(k): return base.pointer("gestures").pointer(k)
            }
        }

        // Sorted in place; filtered only when a time is not finite (already reported).
        if !timed.allSatisfy({ $0.t.isFinite }) { timed.removeAll { !$0.t.isFinite } }
        timed.sort { $0.t != $1.t ? $0.t < $1.t : $0.order < $1.order }
        let sorted = timed

        // Phase rules per touch.
        enum Life { case down(Source), ended(Source) }
        var life: [String: Life] = [:]
        var records: [TouchRecord] = []
        records.reserveCapacity(sorted.count)
        // With non-touch records: the first gesture that touches in each record, to report one
        // at the time of a non-touch record (a record carries one kind).
        var recordGesture: [Int?] = []
        let tracksGestures = !nonTouch.isEmpty
        func noteGesture(_ s: Source, newRecord: Bool) {
            guard tracksGestures else { return }
            var k: Int?
            if case .gesture(let g) = s { k = g }
            if newRecord {
                recordGesture.append(k)
            } else if recordGesture[recordGesture.count - 1] == nil {
                recordGesture[recordGesture.count - 1] = k
            }
        }
        for item in sorted {
            let c = item.change
            switch (c.phase, life[c.id]) {
            case (.began, nil):
                life[c.id] = .down(item.source)
            case (.began, .down(let s)?), (.began, .ended(let s)?):
                issues.add(pointer(item.source), "touch \"\(c.id)\" begins twice (it began at \(pointer(s))); a finger that lifts and touches again needs a new id")
            case (_, nil):
                issues.add(pointer(item.source), "touch \"\(c.id)\" is \(c.phase.rawValue) before it began")
            case (_, .ended(let s)?):
                issues.add(pointer(item.source), "touch \"\(c.id)\" is \(c.phase.rawValue) after it ended at \(pointer(s))")
            case (.ended, .down?), (.cancelled, .down?):
                life[c.id] = .ended(item.source)
            case (_, .down?):
                break
            }
            if let last = records.last, last.t == item.t {
                if records[records.count - 1].touches.contains(where: { $0.id == c.id }) {
                    issues.add(pointer(item.source), "touch \"\(c.id)\" changes twice at t = \(NumberText.format(item.t))")
                } else {
                    records[records.count - 1].touches.append(c)
                    noteGesture(item.source, newRecord: false)
                }
            } else {
                records.append(TouchRecord(t: item.t, touches: [c]))
                noteGesture(item.source, newRecord: true)
            }
        }
        let stillDown = life.contains { if case .down = $0.value { return true } else { return false } }
        for (id, state) in stillDown ? life.sorted(by: { $0.key < $1.key }) : [] {
            if case .down(let s) = state {
                issues.add(pointer(s), "touch \"\(id)\" never ends: add an \"ended\" or \"cancelled\" change")
            }
        }
        if !nonTouch.isEmpty {
            checkNonTouch(&nonTouch, at: base, issues: &issues)
            records = merge(records, nonTouch, gestures: recordGesture, at: base, issues: &issues)
        }
        if let until = seq.until {
            if !until.isFinite || until < (records.last?.t ?? 0) {
                issues.add(base.pointer("until"), "must be a time at or after the last event (\(NumberText.format(records.last?.t ?? 0)))")
            }
        }
        // Records refused where they were read (their time taken away) do not make it empty.
        if records.isEmpty, issues.isEmpty, seq.events.allSatisfy({ $0.t.isFinite }) {
            issues.add(base.pointer("events"), "a touch sequence needs at least one event or gesture")
        }
        return records
    }

    /// The touch changes `expand` makes of `seq`, each counted once (`Limits.records`): every
    /// change of the explicit events, 2 per tap and long press, 4 per double tap, `steps` + 2
    /// per drag; each press of a presses record, and 1 per motion, remote-control or responder
    /// record. Saturates at `Int.max` instead of overflowing (a sequence built in
    /// code may give any step count).
    public static func recordCount(_ seq: TouchSequence) -> Int {
        var n = 0
        func add(_ k: Int) {
            let (sum, overflow) = n.addingReportingOverflow(k)
            n = overflow ? .max : sum
        }
        for e in seq.events {
            switch e.nonTouch {
            case nil: add(e.touches.count)
            case .presses(let presses)?: add(max(1, presses.count))
            case .motion?, .remoteControl?, .responder?: add(1)
            }
        }
        for g in seq.gestures {
            switch g {
            case .tap, .longPress: add(2)
            case .doubleTap: add(4)
            case let .drag(_, _, _, _, steps):
                let s = steps ?? dragSteps
                add(s > Int.max - 2 ? .max : s + 2)
            }
        }
        return n
    }

    /// Each gesture's start: its `t`, or `defaultGap` after the end of the gesture before it in
    /// document order (its last expanded record: the lift), the first at 0.
    public static func startTimes(_ gestures: [GestureShorthand]) -> [Double] {
        var out: [Double] = []
        out.reserveCapacity(gestures.count)
        var previousEnd: Double?
        for g in gestures {
            let start = g.t ?? previousEnd.map { $0 + defaultGap } ?? 0
            out.append(start)
            previousEnd = start + length(g)
        }
        return out
    }

    /// From the first contact to the last lift, as `expand` lays the records out.
    public static func length(_ g: GestureShorthand) -> Double {
        switch g {
        case let .tap(_, _, duration): return duration ?? tapDuration
        case let .doubleTap(_, _, gap): return tapDuration + (gap ?? doubleTapGap) + tapDuration
        case let .longPress(_, _, duration): return duration ?? longPressDuration
        case let .drag(_, _, _, duration, _): return duration ?? dragDuration
        }
    }
}
