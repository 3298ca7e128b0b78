/// The reasons of a `WhyAnswer`, read from a run's result and trace: each reason names the rule
/// of dispatch-rules.md that decided and the indices of the trace entries that show it. Built
/// only from what the run recorded (states with their reasons, markers, calls with their
/// answers and notes) and the scene the run used; nothing is dispatched again here.
///
/// One file per kind of question: `+Recognizer` (each transition and its cause), `+Action` and
/// `+Control` (why an action was or was not sent), `+View` (each phase a view received, or why
/// not), `+FirstResponder` (the hit-test and the chain, link by link), and `+HitTest` (why a
/// touch went elsewhere, through `Explainer`).
enum RunReasons {
    typealias Reason = WhyAnswer.Reason

    /// What one part of an answer found: a short cause for the answer's sentence and its reasons.
    struct Finding {
        var short: String
        var reasons: [Reason]
    }

    static func answer(_ question: WhyQuestion, index: SceneIndex, result: DispatchResult) -> WhyAnswer {
        let run = RunFacts(index: index, result: result)
        let found: Finding
        switch question.subject {
        case .recognizer(let id): found = recognizer(id, run)
        case .action(let selector): found = action(selector, run)
        case .view(let id): found = view(id, run)
        case .firstResponder: found = firstResponder(run)
        case .press(let id): found = press(id, responder: question.responder, run)
        case .keyCommand(let id): found = keyCommand(id, run)
        case .shake: found = deliveries(run.result.nonTouch?.motions ?? [], what: "shake", responder: question.responder, run)
        case .remoteControl:
            found = deliveries(run.result.nonTouch?.remoteControls ?? [], what: "remote-control event", responder: question.responder, run)
        }
        // Each reason's entries once, in trace order (the order the viewer and the text list them).
        var reasons: [Reason] = []
        for r in found.reasons {
            let reason = Reason(rule: r.rule, text: r.text, trace: Array(Set(r.trace)).sorted())
            if !reasons.contains(reason) { reasons.append(reason) }
        }
        return WhyAnswer(question: question.text, answer: found.short, reasons: reasons)
    }
}
