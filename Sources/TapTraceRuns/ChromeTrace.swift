import TapTraceCore
import TapTraceFormats
import TapTraceJSON

/// A run as Chrome trace-event JSON (`?format=chrome`), the format Perfetto UI and
/// chrome://tracing open: `{"traceEvents": [...], "displayTimeUnit": "ms"}`.
///
/// Tracks (one "thread" each, in this order):
/// - `main thread`: every call as a complete (`X`) slice, nested exactly as the trace nests
///   them (`parent`), and every marker (collect, withhold, flush, gate, …) as an instant;
/// - one track per touch (`touch T1`) and per press (`press P1`): the contact from began to
///   its final phase, with a slice per phase interval (began, moved, …) and an instant for
///   the final phase;
/// - a `motion (shake)` track with a slice per shake, and a `remote control` track with an
///   instant per remote-control event, when the run has them;
/// - one track per collected recognizer (`tapC (UITapGestureRecognizer)`): a slice per state
///   it was in, and an instant for each state change with its reason.
///
/// Time: the trace's clock is virtual and many entries share one instant (a whole UIEvent is
/// handled "at" t=0.100), which a timeline cannot nest. Each entry therefore gets a synthetic
/// timestamp in microseconds: its virtual time, but at least 1 µs after the previous entry.
/// The virtual time is kept in every event's `args.t`.
public enum ChromeTrace {
    static let pid = 1
    static let mainTid = 1
    static let firstTouchTid = 100
    static let firstRecognizerTid = 1000
    /// Touches and presses are numbered together, touches from 100 and presses from 500: the
    /// tracks stay apart for runs of up to 400 contacts.
    static let firstPressTid = 500
    static let motionTid = 900
    static let remoteControlTid = 901

    public static func encode(_ r: DispatchResult, title: String) -> [UInt8] {
        var w = JSONWriter(reserving: 512 + r.recorder.count * 260)
        w.beginObject()
        w.key("displayTimeUnit"); w.string("ms")
        w.key("otherData")
        w.beginObject()
        w.key("format"); w.string("taptrace/chrome-trace@1")
        w.key("title"); w.string(title)
        w.endObject()
        w.key("traceEvents")
        w.beginArray()
        writeEvents(r, title: title, to: &w)
        w.endArray()
        w.endObject()
        return w.bytes
    }

    /// A virtual time in whole microseconds. A request may give any finite time, and past
    /// 2^63 µs (about 292,000 years) `Int(_:)` would trap: times beyond ±2^52 µs (about 142
    /// years) are written as ±2^52, which leaves the 1 µs steps after it below 2^53, where
    /// JSON readers (doubles) still tell integers apart. The entry's own time stays exact in
    /// its `args.t`.
    static func microseconds(_ t: Double) -> Int {
        let limit = 4_503_599_627_370_496.0
        return Int(min(max((t * 1_000_000).rounded(), -limit), limit))
    }

    /// Synthetic timestamps (µs) of the trace entries: `max(virtual time, previous + 1)`.
    static func timestamps(_ trace: [TraceEntry]) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(trace.count)
        var previous = -1
        for e in trace {
            let ts = max(microseconds(e.t), previous + 1)
            out.append(ts)
            previous = ts
        }
        return out
    }

    private static func writeEvents(_ r: DispatchResult, title: String, to w: inout JSONWriter) {
        let trace = r.trace  // built from the compact recorder on each access: once
        let ts = timestamps(trace)
        // End of each entry's slice: after its last descendant (children follow their parent).
        var end = ts.map { $0 + 1 }
        var indexOfSeq: [Int: Int] = [:]
        for (i, e) in trace.enumerated() { indexOfSeq[e.seq] = i }
        for i in trace.indices.reversed() {
            if let p = trace[i].parent, let pi = indexOfSeq[p] { end[pi] = max(end[pi], end[i]) }
        }
        let traceEnd = (end.max() ?? 0) + 1

        /// Synthetic time of a virtual instant: the first entry at or after it, else past the end.
        func time(_ virtual: Double) -> Int {
            var lo = 0, hi = trace.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if trace[mid].t < virtual { lo = mid + 1 } else { hi = mid }
            }
            if lo < trace.count { return ts[lo] }
            return max(traceEnd, microseconds(virtual))
        }

        metadata("process_name", tid: nil, name: title, to: &w)
        metadata("thread_name", tid: mainTid, name: "main thread", to: &w)
        metadata("thread_sort_index", tid: mainTid, sortIndex: 0, to: &w)

        // Main thread: calls and markers.
        for (i, e) in trace.enumerated() {
            switch e.kind {
            case .call:
                w.beginObject()
                w.key("name"); w.string("\(e.receiver?.id ?? "?") -> \(e.selector ?? "")")
                w.key("cat"); w.string("call")
                w.key("ph"); w.string("X")
                w.key("ts"); w.number(ts[i])
                w.key("dur"); w.number(end[i] - ts[i])
                w.key("pid"); w.number(pid)
                w.key("tid"); w.number(mainTid)
                w.key("args")
                w.beginObject()
                writeCommonArgs(e, to: &w)
                w.key("class"); w.string(e.receiver?.className)
                w.key("swift"); w.string(SelectorNames.swift(e.selector ?? ""))
                for a in e.args { w.key(a.name); w.string(TextRenderer.value(a.value)) }
                if let result = e.result { w.key("result"); w.string(TextRenderer.value(result, nilWord: true)) }
                w.endObject()
                w.endObject()
            case .marker:
                instant(name: "[\(e.marker?.rawValue ?? "marker")]" + (e.receiver.map { " \($0.id)" } ?? ""),
                        category: "marker", ts: ts[i], tid: mainTid, to: &w) { w in
                    writeCommonArgs(e, to: &w)
                    for a in e.args { w.key(a.name); w.string(TextRenderer.value(a.value)) }
                }
            case .state:
                continue  // on the recognizer's track
            }
        }

        // Touches and presses: from the input records, a track each.
        var contacts: [(label: String, id: String, phases: [(t: Double, phase: String, terminal: Bool)])] = []
        var contactIndex: [String: Int] = [:]
        func add(_ label: String, _ id: String, _ t: Double, _ phase: String, _ terminal: Bool) {
            let key = label + " " + id
            if contactIndex[key] == nil { contactIndex[key] = contacts.count; contacts.append((label, id, [])) }
            contacts[contactIndex[key]!].phases.append((t, phase, terminal))
        }
        var shakes: [(t: Double, phase: MotionPhase)] = []
        var remotes: [(t: Double, subtype: RemoteControlSubtype)] = []
        for record in r.input {
            for c in record.touches { add("touch", c.id, record.t, c.phase.rawValue, c.phase.isTerminal) }
            switch record.nonTouch {
            case .presses(let ps)?: for p in ps { add("press", p.id, record.t, p.phase.rawValue, p.phase.isTerminal) }
            case .motion(let m)?: shakes.append((record.t, m.phase))
            case .remoteControl(let subtype)?: remotes.append((record.t, subtype))
            case .responder?, nil: break
            }
        }
        var sortIndex = 1
        for (n, contact) in contacts.enumerated() {
            let tid = (contact.label == "touch" ? firstTouchTid : firstPressTid) + n
            let id = contact.id
            metadata("thread_name", tid: tid, name: "\(contact.label) \(id)", to: &w)
            metadata("thread_sort_index", tid: tid, sortIndex: sortIndex, to: &w)
            sortIndex += 1
            let list = contact.phases
            guard let first = list.first else { continue }
            let start = time(first.t)
            let last = list[list.count - 1]
            let stop = max(time(last.t), start + 1)
            slice(name: "\(contact.label) \(id)", category: contact.label, ts: start, dur: stop - start, tid: tid, to: &w) { w in
                w.key("t"); w.number(first.t)
                w.key("finalPhase"); w.string(last.phase)
            }
            for k in list.indices where !list[k].terminal {
                let from = time(list[k].t)
                let to = k + 1 < list.count ? time(list[k + 1].t) : stop
                guard to > from else { continue }
                slice(name: list[k].phase, category: contact.label, ts: from, dur: to - from, tid: tid, to: &w) { w in
                    w.key("t"); w.number(list[k].t)
                }
            }
            if last.terminal {
                instant(name: "\(id) \(last.phase)", category: contact.label, ts: stop, tid: tid, to: &w) { w in
                    w.key("t"); w.number(last.t)
                }
            }
        }
        // Shakes: one track, a slice from each began to its end (M1).
        if !shakes.isEmpty {
            metadata("thread_name", tid: motionTid, name: "motion (shake)", to: &w)
            metadata("thread_sort_index", tid: motionTid, sortIndex: sortIndex, to: &w)
            sortIndex += 1
            var began: Double?
            for shake in shakes {
                if shake.phase == .began {
                    began = shake.t
                } else if let b = began {
                    let start = time(b)
                    slice(name: "shake", category: "motion", ts: start, dur: max(time(shake.t), start + 1) - start, tid: motionTid,
                          to: &w) { w in
                        w.key("t"); w.number(b)
                        w.key("finalPhase"); w.string(shake.phase.rawValue)
                    }
                    began = nil
                }
                instant(name: "shake \(shake.phase.rawValue)", category: "motion", ts: time(shake.t), tid: motionTid, to: &w) { w in
                    w.key("t"); w.number(shake.t)
                }
            }
        }
        // Remote control: one track, an instant per record (RC1).
        if !remotes.isEmpty {
            metadata("thread_name", tid: remoteControlTid, name: "remote control", to: &w)
            metadata("thread_sort_index", tid: remoteControlTid, sortIndex: sortIndex, to: &w)
            sortIndex += 1
            for remote in remotes {
                instant(name: remote.subtype.rawValue, category: "remoteControl", ts: time(remote.t), tid: remoteControlTid,
                        to: &w) { w in
                    w.key("t"); w.number(remote.t)
                }
            }
        }

        // Recognizers: state intervals from the state entries and `reset` calls.
        for (n, g) in r.recognizers.enumerated() {
            let tid = firstRecognizerTid + n
            metadata("thread_name", tid: tid, name: "\(g.id) (\(g.className))", to: &w)
            metadata("thread_sort_index", tid: tid, sortIndex: sortIndex + n, to: &w)
            var current = "possible"
            var since: Int?
            var sinceT = 0.0
            for (i, e) in trace.enumerated() where e.receiver?.id == g.id {
                if since == nil { since = ts[i]; sinceT = e.t }
                let next: String
                if e.kind == .state, let to = e.to {
                    next = to.rawValue
                } else if e.kind == .call, e.selector == "reset" {
                    next = "possible"
                } else {
                    continue
                }
                if let start = since, ts[i] > start {
                    slice(name: current, category: "recognizer", ts: start, dur: ts[i] - start, tid: tid, to: &w) { w in
                        w.key("t"); w.number(sinceT)
                    }
                }
                if e.kind == .state {
                    instant(name: "\(e.from?.rawValue ?? "?") → \(next)", category: "state", ts: ts[i], tid: tid, to: &w) { w in
                        writeCommonArgs(e, to: &w)
                        w.key("reason"); w.string(e.reason)
                        if e.discrete { w.key("discrete"); w.bool(true) }
                    }
                }
                current = next
                since = ts[i]
                sinceT = e.t
            }
            if let start = since, traceEnd > start {
                slice(name: current, category: "recognizer", ts: start, dur: traceEnd - start, tid: tid, to: &w) { w in
                    w.key("t"); w.number(sinceT)
                }
            }
        }
    }

    private static func writeCommonArgs(_ e: TraceEntry, to w: inout JSONWriter) {
        w.key("seq"); w.number(e.seq)
        w.key("t"); w.number(e.t)
        w.key("cause"); w.string(e.cause.text)
        if let note = e.note { w.key("note"); w.string(note) }
    }

    private static func metadata(_ name: String, tid: Int?, name value: String? = nil, sortIndex: Int? = nil,
                                 to w: inout JSONWriter) {
        w.beginObject()
        w.key("name"); w.string(name)
        w.key("ph"); w.string("M")
        w.key("pid"); w.number(pid)
        if let tid { w.key("tid"); w.number(tid) }
        w.key("args")
        w.beginObject()
        if let value { w.key("name"); w.string(value) }
        if let sortIndex { w.key("sort_index"); w.number(sortIndex) }
        w.endObject()
        w.endObject()
    }

    private static func slice(name: String, category: String, ts: Int, dur: Int, tid: Int, to w: inout JSONWriter,
                              args: (inout JSONWriter) -> Void) {
        event(name: name, category: category, phase: "X", ts: ts, dur: dur, tid: tid, to: &w, args: args)
    }

    private static func instant(name: String, category: String, ts: Int, tid: Int, to w: inout JSONWriter,
                                args: (inout JSONWriter) -> Void) {
        event(name: name, category: category, phase: "i", ts: ts, dur: nil, tid: tid, to: &w, args: args)
    }

    /// One trace event: a complete slice ("X", with a duration) or a thread-scoped instant ("i").
    private static func event(name: String, category: String, phase: String, ts: Int, dur: Int?, tid: Int,
                              to w: inout JSONWriter, args: (inout JSONWriter) -> Void) {
        w.beginObject()
        w.key("name"); w.string(name)
        w.key("cat"); w.string(category)
        w.key("ph"); w.string(phase)
        if dur == nil { w.key("s"); w.string("t") }
        w.key("ts"); w.number(ts)
        if let dur { w.key("dur"); w.number(dur) }
        w.key("pid"); w.number(pid)
        w.key("tid"); w.number(tid)
        w.key("args")
        w.beginObject()
        args(&w)
        w.endObject()
        w.endObject()
    }
}
