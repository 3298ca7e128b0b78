/// "Why didn't my tap do what I expected?" for a whole run (issue 31): the reasons come from
/// what the run recorded (`RunReasons`), never from guessing; the changes that would give an
/// expected outcome are each verified by dispatching again (`WhatIf`).
public enum Why {
    /// Answers `question` about the dispatch of `records` on `index` (with `knobs` over the
    /// scene's). `result` is that dispatch when the caller has it, traced; otherwise it is run
    /// here. A question about an object the scene does not have, or an expectation that does not
    /// fit the question, is an issue at the request's member (`/recognizer`, `/view`, `/expect`).
    ///
    /// `budget` bounds every dispatch of the answer (`TapTrace.dispatch`); once it stops, the
    /// answer is partial and `budget.finish()` throws why.
    public static func answer(_ question: WhyQuestion, index: SceneIndex, records: [TouchRecord], until: Double? = nil,
                              knobs: KnobOverrides = KnobOverrides(), result: DispatchResult? = nil,
                              budget: WorkBudget? = nil) throws(ValidationIssue) -> WhyAnswer {
        try check(question, index)
        let run = result ?? TapTrace.dispatch(index, records: records, until: until, knobs: knobs, budget: budget)
        // A run the budget stopped is partial: reasons read from it would be wrong.
        if let budget, budget.stop != nil { return WhyAnswer(question: "", answer: "", reasons: []) }
        var answer = RunReasons.answer(question, index: index, result: run)
        if let expect = question.expect {
            answer.changes = WhatIf.changes(question, expect: expect, index: index, records: records, until: until,
                                            knobs: knobs, baseline: run, budget: budget)
        }
        return answer
    }

    static func check(_ question: WhyQuestion, _ index: SceneIndex) throws(ValidationIssue) {
        switch question.subject {
        case .recognizer(let id):
            guard index.recognizer(withId: id) != nil else {
                throw ValidationIssue("/recognizer", "\"\(id)\" is not a recognizer id of this scene")
            }
            if question.expect == .hit {
                throw ValidationIssue("/expect", "a recognizer is expected to be \"fired\" or \"not-fired\"; \"hit\" is for a view")
            }
        case .action(let action):
            guard !action.isEmpty else { throw ValidationIssue("/action", "an action is a selector such as \"buyTapped:\"") }
            if question.expect == .hit {
                throw ValidationIssue("/expect", "an action is expected to be \"fired\" or \"not-fired\"; \"hit\" is for a view")
            }
        case .view(let id):
            guard index.view(withId: id) != nil else {
                throw ValidationIssue("/view", "\"\(id)\" is not a view id of this scene")
            }
        case .firstResponder:
            if question.expect != nil {
                throw ValidationIssue("/expect", "the first responder is asked about without an expectation; ask about the view you expected (\"view\" with \"expect\": \"hit\")")
            }
        case .press, .keyCommand, .shake, .remoteControl:
            if question.expect != nil {
                throw ValidationIssue("/expect", "presses, key commands, shakes and remote-control events are asked about without an expectation; name the responder you expected with \"responder\"")
            }
        }
        if let responder = question.responder {
            switch question.subject {
            case .press, .shake, .remoteControl:
                guard index.responder(withId: responder) != nil else {
                    throw ValidationIssue("/responder", "\"\(responder)\" is not a responder of this scene (a view, a view controller, the application or its delegate)")
                }
            default:
                throw ValidationIssue("/responder", "\"responder\" goes with a press, a shake or a remote-control question")
            }
        }
    }
}
