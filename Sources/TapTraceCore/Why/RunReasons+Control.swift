/// Why a control did not send an action it has a target–action entry for: its touches never
/// reached it (hit-tested elsewhere, refused, held back and dropped), it is disabled (K11), it
/// did not track (K2, K4), a recognizer cancelled its touch (GV2, GV10), the touch lifted
/// outside the tracking slop (K3, K5), or the events it fired are not the entry's (K9).
extension RunReasons {
    static func controlNotSending(_ v: Int, _ a: String, _ run: RunFacts) -> Finding {
        let name = run.name(v)
        var registered: [ControlEvent] = []
        for entry in run.index.view(v).targets ?? [] where entry.action == a {
            for e in entry.events where !registered.contains(e) { registered.append(e) }
        }
        let mask = registered.reduce(UInt32(0)) { $0 | $1.bit }
        let registeredText = "{" + registered.map { "." + $0.rawValue }.joined(separator: ", ") + "}"
        let calls = run.trace.entries(of: name).filter { run.trace[$0].touchPhase != nil }
        guard !calls.isEmpty else { return neverReached(v, run) }

        if run.index.bases[v].isControl, !run.index.isEnabled(v) {
            var shown: [Int] = []
            for c in calls {
                shown.append(c)
                if let next = run.trace.children(c).first(where: { run.trace[$0].selector == run.trace[c].selector }) { shown.append(next) }
            }
            return Finding(short: "\(name) is disabled (K11)",
                           reasons: [Reason(rule: "K11", text: "\(name) is disabled (enabled = NO): it is still hit-tested and gets its touches (H13), but does not track them, highlight or send control events; it passes them up the responder chain like a plain view", trace: shown)])
        }

        var reasons: [Reason] = []
        var short: String?
        func found(_ f: Finding) {
            reasons += f.reasons
            if short == nil { short = f.short }
        }
        var touchIDs: [String] = []
        for c in calls { for t in run.trace[c].touchIDs where !touchIDs.contains(t) { touchIDs.append(t) } }
        for tid in touchIDs {
            let mine = calls.filter { run.trace[$0].touchIDs.contains(tid) }
            for c in mine where run.trace[c].touchPhase == .began {
                if let b = run.trace.children(c).first(where: { run.trace[$0].selector == "beginTrackingWithTouch:withEvent:" }),
                   run.trace[b].boolResult == false {
                    found(Finding(short: "\(name)'s beginTrackingWithTouch:withEvent: answered NO (K2)",
                                  reasons: [Reason(rule: "K2", text: "\(name)'s beginTrackingWithTouch:withEvent: answered NO for \(tid): it does not track that touch and fires no touch-up event for it", trace: [c, b])]))
                }
            }
            for c in mine where run.trace[c].touchPhase == .moved {
                if let k = run.trace.children(c).first(where: { run.trace[$0].selector == "continueTrackingWithTouch:withEvent:" }),
                   run.trace[k].boolResult == false {
                    let m = run.trace.children(c).first { run.trace[$0].marker == .control }
                    found(Finding(short: "\(name)'s continueTrackingWithTouch:withEvent: answered NO at \(RunFacts.time(run.trace[c].t)) (K4)",
                                  reasons: [Reason(rule: "K4", text: "at \(RunFacts.time(run.trace[c].t)) \(name)'s continueTrackingWithTouch:withEvent: answered NO: tracking ended there, and no touch-up event follows", trace: [c, k] + (m.map { [$0] } ?? []))]))
                }
            }
            if let c = mine.first(where: { run.trace[$0].touchPhase == .cancelled }), let f = arrival(c, run) {
                found(Finding(short: "\(name)'s touch was cancelled: " + f.short, reasons: f.reasons))
            }
            if let c = mine.first(where: { run.trace[$0].touchPhase == .ended }),
               let m = run.trace.children(c).first(where: { run.trace[$0].marker == .control }),
               run.trace[m].arg("inside") == .bool(false), mask & (ControlEvent.touchUpInside.bit | ControlEvent.primaryActionTriggered.bit) != 0 {
                let end = run.trace.children(c).first { run.trace[$0].selector == "endTrackingWithTouch:withEvent:" }
                let p = end.flatMap { run.trace[$0].snapshot(tid)?.inReceiver } ?? run.trace[c].snapshot(tid)?.inReceiver
                let bounds = run.index.geometry[v].bounds
                let slop = RunFacts.number(run.knobs.controlTrackingSlop)
                let fired = run.trace[m].strings("events").map { "." + $0 }.joined(separator: ", ")
                let outside = p.map { " at \(RunFacts.point($0)) in \(name)'s coordinates" } ?? ""
                found(Finding(short: "\(tid) lifted outside \(name)'s \(slop) pt tracking slop (K3)",
                              reasons: [Reason(rule: "K3", text: "\(tid) lifted\(outside), outside its bounds (\(RunFacts.number(bounds.minX)), \(RunFacts.number(bounds.minY)), \(RunFacts.number(bounds.size.width)), \(RunFacts.number(bounds.size.height))) grown by the \(slop) pt tracking slop: \(name) fired {\(fired)} instead of .touchUpInside (K3, K5)",
                                               trace: [c] + (end.map { [$0] } ?? []) + [m])]))
            }
            if !mine.contains(where: { run.trace[$0].touchPhase?.isTerminal ?? false }), let t = run.touch(tid) {
                if let h = run.hitView(t), let f = heldBack(t, h, run) {
                    found(f)
                } else if t.end == nil {
                    found(Finding(short: "\(tid) was still down when the run ended",
                                  reasons: [Reason(rule: "K5", text: "\(tid) had not lifted when the run ended: \(name) fires its touch-up events only when the touch ends", trace: mine)]))
                }
            }
        }
        if reasons.isEmpty {
            let markers = run.trace.markers(of: name, .control)
            var fired: [String] = []
            for m in markers { for e in run.trace[m].strings("events") where !fired.contains(e) { fired.append(e) } }
            let firedText = fired.isEmpty ? "no event" : "{" + fired.map { "." + $0 }.joined(separator: ", ") + "}"
            found(Finding(short: "\(name) fired \(firedText), none of \(a)'s events \(registeredText) (K9)",
                          reasons: [Reason(rule: "K9", text: "\(name) fired \(firedText) during the run; \(a) is registered for \(registeredText), none of which fired", trace: markers)]))
        }
        return Finding(short: short ?? "\(name) did not send it", reasons: reasons)
    }

    /// The control received no touch method at all.
    private static func neverReached(_ v: Int, _ run: RunFacts) -> Finding {
        let name = run.name(v)
        let inside = run.touches.filter { t in run.hitView(t).map { run.isInside($0, v) } ?? false }
        guard !inside.isEmpty else {
            guard let first = run.touches.first else {
                return Finding(short: "\(name) never tracked a touch: the run has no touch", reasons: [])
            }
            let f = notHit(v, first, run)
            return Finding(short: "\(name) never tracked a touch: \(f.short)", reasons: f.reasons)
        }
        for t in inside {
            guard let h = run.hitView(t) else { continue }
            if let f = heldBack(t, h, run) { return Finding(short: "\(name) never tracked a touch: \(f.short)", reasons: f.reasons) }
            if h != v, let f = forwardingStop(t, from: h, to: v, run) {
                return Finding(short: "\(name) never tracked a touch: \(f.short)", reasons: f.reasons)
            }
        }
        return Finding(short: "\(name) received no touch", reasons: [])
    }
}
