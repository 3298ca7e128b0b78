/// Step 3: the recognizers of a new touch (G1–G9). Fixed when the touch begins (G2): those of
/// the hit-test view and each ancestor up to the window, deepest view first, each view's in
/// array order (G3), minus disabled ones (G4) and those whose delegate refuses the touch (G6, G7).
extension DispatchRun {
    mutating func collectRecognizers(_ t: Int) {
        guard let v = touches[t].view, touches[t].refused?.reachesRecognizers ?? true else { return }
        var list: [Int] = []
        var refusedBy: [String] = []
        // The hit-test view, then each superview (walked in place: no ancestry array).
        var next: Int? = v
        while let a = next {
            next = index.superview(a)
            for r in index.recognizers(ofView: a) {
                let info = index.recognizers[r]
                guard info.enabled else { continue }                          // G4
                let g = runtime(for: r)
                // GS6: a recognizer that failed (or finished) receives nothing until reset.
                guard recognizers[g].state == .possible || recognizers[g].state == .began
                        || recognizers[g].state == .changed else { continue }
                // G9: a recognizer requiring one touch type ignores touches of another.
                if info.spec?.requiresExclusiveTouchType == true,
                   let first = recognizers[g].touches.first, touches[first].type != touches[t].type { continue }
                if let d = info.delegate, !info.isScrollViewPan {
                    let delegate = objectRef(d.id)
                    if let answer = d.shouldReceiveEvent {                        // G7
                        trace.call(delegate, "gestureRecognizer:shouldReceiveEvent:",
                                   args: TraceArg("gestureRecognizer", .object(info.ref)),
                                         TraceArg("event", .string(touches[t].event)), result: .bool(answer))
                        if !answer { refusedBy.append(info.id); continue }
                    }
                    if let answer = d.shouldReceiveTouch {                        // G6
                        trace.call(delegate, "gestureRecognizer:shouldReceiveTouch:",
                                   args: TraceArg("gestureRecognizer", .object(info.ref)),
                                         touchArg(t, receiverView: info.view), result: .bool(answer))
                        if !answer { refusedBy.append(info.id); continue }
                    }
                }
                recognizers[g].touches.append(t)
                list.append(g)
            }
        }
        touches[t].recognizers = list
        var note: NoteText = "\(touches[t].id): window \(index.ref(view: touches[t].window!).id), view \(index.ref(view: v).id), GRs ["
        for (k, g) in list.enumerated() {
            if k > 0 { note.append(", ") }
            note.append(info(g).id)
            note.append("@")
            note.append(index.ref(view: info(g).view).id)
        }
        note.append("]")
        if !refusedBy.isEmpty {
            note.append("; refused by their delegates: ")
            note.append(refusedBy, joinedBy: ", ")
        }
        trace.marker(.collect, index.ref(view: v),
                     args: TraceArg("touch", .string(touches[t].id)),
                           TraceArg("window", .object(index.ref(view: touches[t].window!))),
                           TraceArg("recognizers", .objects(list.map { ref(recognizer: $0) })), note: note.text)
        askDynamicRequirements(list)
    }

    /// The touch as the single-touch argument of a delegate question.
    func touchArg(_ t: Int, receiverView: Int?) -> TraceArg {
        TraceArg("touch", .touches([snapshot(t, phase: touches[t].phase, receiverView: receiverView)]))
    }

    /// GM7: failure requirements from delegates, asked once per attempt for every pair of
    /// interacting recognizers when the touches begin. True is binding.
    private mutating func askDynamicRequirements(_ list: [Int]) {
        for a in list {
            guard let d = info(a).delegate, !info(a).isScrollViewPan else { continue }
            for b in list where b != a {
                if let ids = d.shouldRequireFailureOf {
                    let answer = ids.contains(info(b).id)
                    trace.call(objectRef(d.id), "gestureRecognizer:shouldRequireFailureOfGestureRecognizer:",
                               args: TraceArg("gestureRecognizer", .object(info(a).ref)),
                                     TraceArg("otherGestureRecognizer", .object(info(b).ref)), result: .bool(answer))
                    if answer, !recognizers[a].dynamicRequirements.contains(b) { recognizers[a].dynamicRequirements.append(b) }
                }
                if let ids = d.shouldBeRequiredToFailBy {
                    let answer = ids.contains(info(b).id)
                    trace.call(objectRef(d.id), "gestureRecognizer:shouldBeRequiredToFailByGestureRecognizer:",
                               args: TraceArg("gestureRecognizer", .object(info(a).ref)),
                                     TraceArg("otherGestureRecognizer", .object(info(b).ref)), result: .bool(answer))
                    if answer, !recognizers[b].dynamicRequirements.contains(a) { recognizers[b].dynamicRequirements.append(a) }
                }
            }
        }
    }
}
