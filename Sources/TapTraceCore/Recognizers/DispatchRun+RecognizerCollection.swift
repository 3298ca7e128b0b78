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
                // Fields read in place (`index.recognizers[r].…`): a `let` of the whole
                // RecognizerInfo copied its strings, spec, delegate and targets per recognizer.
                guard index.recognizers[r].enabled else { continue }          // G4
                let g = runtime(for: r)
                // GS6: a recognizer that failed (or finished) receives nothing until reset.
                guard recognizers[g].state == .possible || recognizers[g].state == .began
                        || recognizers[g].state == .changed else { continue }
                // G9: a recognizer requiring one touch type ignores touches of another.
                if index.recognizers[r].spec?.requiresExclusiveTouchType == true,
                   let first = recognizers[g].touches.first, touches[first].type != touches[t].type { continue }
                if let d = index.recognizers[r].delegate, !index.recognizers[r].isScrollViewPan {
                    let delegate = object(id: d.id)
                    let recognizer = TraceRecorder.Argument(.gestureRecognizer, .object(index.object(recognizer: r)))
                    if let answer = d.shouldReceiveEvent {                        // G7
                        trace.call(delegate, .shouldReceiveEvent, recognizer, eventArg(touches[t].event),
                                   result: .bool(answer))
                        if !answer { refusedBy.append(index.recognizers[r].id); continue }
                    }
                    if let answer = d.shouldReceiveTouch {                        // G6
                        let touch = touchArg(t, receiverView: index.recognizers[r].view)
                        trace.call(delegate, .shouldReceiveTouch, recognizer, touch, result: .bool(answer))
                        if !answer { refusedBy.append(index.recognizers[r].id); continue }
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
        let recognizersArg = TraceRecorder.Argument(.recognizers, recognizersValue(list))
        trace.marker(.collect, TraceObject(view: v), touchIDArg(t),
                     .init(.window, .object(TraceObject(view: touches[t].window!))), recognizersArg, note: note)
        askDynamicRequirements(list)
    }

    /// GM7: failure requirements from delegates, asked once per attempt for every pair of
    /// interacting recognizers when the touches begin. True is binding.
    private mutating func askDynamicRequirements(_ list: [Int]) {
        for a in list {
            guard let d = info(a).delegate, !info(a).isScrollViewPan else { continue }
            for b in list where b != a {
                if let ids = d.shouldRequireFailureOf {
                    let answer = ids.contains(info(b).id)
                    trace.call(object(id: d.id), .shouldRequireFailureOf, recognizerArg(a),
                               recognizerArg(b, as: .otherGestureRecognizer), result: .bool(answer))
                    if answer, !recognizers[a].dynamicRequirements.contains(b) { recognizers[a].dynamicRequirements.append(b) }
                }
                if let ids = d.shouldBeRequiredToFailBy {
                    let answer = ids.contains(info(b).id)
                    trace.call(object(id: d.id), .shouldBeRequiredToFailBy, recognizerArg(a),
                               recognizerArg(b, as: .otherGestureRecognizer), result: .bool(answer))
                    if answer, !recognizers[b].dynamicRequirements.contains(a) { recognizers[b].dynamicRequirements.append(a) }
                }
            }
        }
    }
}
