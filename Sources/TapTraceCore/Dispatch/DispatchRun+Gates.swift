/// Step 3's gates: `exclusiveTouch` (E3–E6) and `multipleTouchEnabled` (E1, E2).
extension DispatchRun {
    /// Touches a view currently holds in `window`: delivered or about to be, not ended, not
    /// unbound by a recognizer (E3 "tracking").
    private func trackers(in window: Int, excluding t: Int) -> [Int] {
        var out: [Int] = []
        for o in touches.indices where o != t && touches[o].window == window && !touches[o].phase.isTerminal
            && touches[o].refused == nil && touches[o].unboundBy == nil && touches[o].view != nil {
            out.append(o)
        }
        return out
    }

    mutating func gate(_ t: Int) {
        guard touches[t].refused == nil, let v = touches[t].view, let w = touches[t].window else { return }
        let others = trackers(in: w, excluding: t)
        let id = touches[t].id
        // E3, checked per window (E6).
        if index.isExclusiveTouch(v) {
            if let o = others.first(where: { touches[$0].view != v }) {
                refuse(t, .exclusiveTouch, note: "\(id) refused: exclusive view \(index.view(v).id) may only track a touch while no other view does, and \(index.view(touches[o].view!).id) is tracking \(touches[o].id) (E3); not delivered to the view or its recognizers (E4)")
                return
            }
        } else if let o = others.first(where: { index.isExclusiveTouch(touches[$0].view!) }) {
            refuse(t, .exclusiveTouch, note: "\(id) refused: exclusive view \(index.view(touches[o].view!).id) is tracking \(touches[o].id) (E3); not delivered to \(index.view(v).id) or its recognizers (E4)")
            return
        }
        // E1: a view that is not multiple-touch enabled receives only its first touch; its
        // recognizers still receive the others.
        if !index.isMultipleTouchEnabled(v), let o = others.first(where: { touches[$0].view == v }) {
            refuse(t, .multipleTouchDisabled, note: "\(id) not delivered to \(index.view(v).id): it holds \(touches[o].id) and multipleTouchEnabled is NO (E1); its recognizers still get it")
        }
    }

    private mutating func refuse(_ t: Int, _ reason: TouchRefusal, note: NoteText) {
        touches[t].refused = reason
        let reasonArg = TraceRecorder.Argument(.reason, trace.text(reason.rawValue))
        trace.marker(.gate, touches[t].view.map { TraceObject(view: $0) } ?? .none, touchIDArg(t), reasonArg, note: note)
    }
}
