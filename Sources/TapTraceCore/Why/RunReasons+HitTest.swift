/// Why a touch of the run was not hit-tested to a view: where it went (H1, W1, W5), then the
/// hit-test explanation of that view at the touch's point, as `Explainer` gives it (the same
/// reasons `taptrace explain` prints, not a second copy of them), each citing the hit-test
/// calls of the run on the views it names.
extension RunReasons {
    static func notHit(_ v: Int, _ t: RunFacts.Touch, _ run: RunFacts) -> Finding {
        let roots = run.hitTestCalls(t)
        let name = run.name(v)
        if t.summary?.refused == .ignoringInteractionEvents {
            let gate = run.markers(.gate, touch: t.id)
            return Finding(short: "\(t.id) was dropped: the application ignores interaction events (Z2)",
                           reasons: [Reason(rule: "Z2", text: "the application ignores interaction events: \(t.id) was dropped before any hit-test, so no view received it", trace: gate)])
        }
        var reasons: [Reason] = []
        let short: String
        if let hit = run.hitView(t) {
            let window = t.summary?.window ?? "its window"
            let deciding = roots.filter { run.trace[$0].result != .null && run.trace[$0].result != nil }
            reasons.append(Reason(rule: "H1", text: "\(t.id) began at \(RunFacts.point(t.at)) at \(RunFacts.time(t.began)); the hit-test in \(window) returned \(run.name(hit)), which is not \(name) or a view inside it",
                                  trace: deciding.isEmpty ? roots : deciding))
            short = "\(t.id) was hit-tested to \(run.name(hit)), not to \(name)"
        } else {
            reasons.append(Reason(rule: "W5", text: "\(t.id) began at \(RunFacts.point(t.at)) and no window's hit-test returned a view: the touch was dropped",
                                  trace: roots))
            short = "no window took \(t.id) (W5)"
        }
        guard let explanation = try? Explainer.explain(run.index, point: t.at, target: name, knobs: run.knobOverrides) else {
            return Finding(short: short + " (H1)", reasons: reasons)
        }
        for r in explanation.reasons where r.kind != "hit" {
            var shown: [Int] = []
            for ref in r.views { shown += run.hitTestCalls(on: ref.id, t) }
            shown = Array(Set(shown)).sorted()
            reasons.append(Reason(rule: r.rule, text: r.text, trace: shown.isEmpty ? roots : shown))
        }
        guard run.hitView(t) != nil else { return Finding(short: short, reasons: reasons) }
        let deciding = reasons.count > 1 ? reasons[1].rule : reasons[0].rule
        return Finding(short: short + " (\(deciding))", reasons: reasons)
    }
}
