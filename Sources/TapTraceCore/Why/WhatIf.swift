/// Single changes to a scene that give an expected outcome, each verified by dispatching again
/// (issue 31, item 3).
///
/// 1. If the run already gives the outcome (`WhyQuestion.isMet`), there is nothing to change.
/// 2. Candidates (`WhatIfCandidates`): small edits of the objects involved — the question's
///    object, the first touch's hit-test view and the views on both paths, the recognizers of
///    the touch — most likely to matter first, each with the rule that would make it work.
/// 3. Each of the first `maximumRuns` (fewer when the touch reaches a large part of the
///    scene, `runs(forViews:)`) is applied to a copy of the scene, validated
///    (`SceneValidator`; an invalid edit is dropped), indexed and dispatched with the same
///    touches, `until` and knobs; only those whose run gives the outcome are kept, with what
///    the run does in words. The copy is the part of the scene the touches can reach
///    (`WhatIfScene`), so that a candidate costs about a dispatch even on a large screen.
/// 4. For "make V the hit-test view" that no single change gives, the smallest combination on
///    V itself (unpruned, moved to the point, brought to the front) is tried as one change.
/// 5. The verified ones are ranked by size (a flag < an answer < a relation < geometry <
///    a combination), then the object's document order, then the property; at most five.
///
/// Deterministic: candidates come in a fixed order from the scene and the baseline run.
enum WhatIf {
    static let maximumChanges = 5
    /// Re-dispatches per answer, the combined fallback included.
    static let maximumRuns = 24

    /// Re-dispatches for a verification scene of `views` views. A run validates and indexes
    /// the scene (about 1,500 instructions a view) and dispatches (about 120,000 on the
    /// benchmarks' screen): up to 160 views, 24 runs stay within 30 dispatches of that screen
    /// with the answer's other work; above, fewer runs (at least 4), the candidates most likely
    /// to matter first, so that a touch that reaches a large part of a large scene stays bounded.
    static func runs(forViews views: Int) -> Int {
        views <= 160 ? maximumRuns : max(4, maximumRuns * 160 / views)
    }

    static func changes(_ question: WhyQuestion, expect: WhyQuestion.Expectation, index: SceneIndex, records: [TouchRecord],
                        until: Double?, knobs: KnobOverrides, baseline: DispatchResult,
                        budget: WorkBudget? = nil) -> [WhyAnswer.Change] {
        changes(question, expect: expect, index: index, records: records, until: until, knobs: knobs, baseline: baseline,
                wholeSceneLimit: WhatIfScene.wholeSceneLimit, budget: budget)
    }

    /// `wholeSceneLimit`: scenes with more views are verified on the reachable part only.
    static func changes(_ question: WhyQuestion, expect: WhyQuestion.Expectation, index: SceneIndex, records: [TouchRecord],
                        until: Double?, knobs: KnobOverrides, baseline: DispatchResult,
                        wholeSceneLimit: Int, budget: WorkBudget? = nil) -> [WhyAnswer.Change] {
        var verified = trials(question, expect: expect, index: index, records: records, until: until, knobs: knobs,
                              baseline: baseline, wholeSceneLimit: wholeSceneLimit, budget: budget).filter { $0.outcome != nil }
        verified.sort { WhatIfCandidate.ranks($0.candidate, before: $1.candidate) }
        return verified.prefix(maximumChanges).map {
            WhyAnswer.Change(edit: $0.candidate.edit, rule: $0.candidate.rule, verified: true, outcome: $0.outcome!)
        }
    }

    /// A candidate and its run: nil when the edit did not apply or the edited scene was
    /// invalid; `outcome` when the run gives the expected outcome.
    struct Trial {
        let candidate: WhatIfCandidate
        let run: DispatchResult?
        let outcome: String?
    }

    /// Every candidate tried, in the order tried (empty when the baseline already gives the
    /// outcome).
    static func trials(_ question: WhyQuestion, expect: WhyQuestion.Expectation, index: SceneIndex, records: [TouchRecord],
                       until: Double?, knobs: KnobOverrides, baseline given: DispatchResult,
                       wholeSceneLimit: Int, budget: WorkBudget? = nil) -> [Trial] {
        var question = question
        question.expect = expect
        let traced = question.needsTracedRun
        let baseline = traced && !given.recorder.enabled
            ? TapTrace.dispatch(index, records: records, until: until, knobs: knobs, budget: budget) : given
        guard question.isMet(by: baseline, expect: expect, index: index) == false else { return [] }

        var generator = WhatIfCandidates(question: question, expect: expect, index: index, records: records, baseline: baseline)
        generator.generate()
        var combined: WhatIfCandidate?
        if expect == .hit, case .view(let id) = question.subject, let v = index.view(withId: id) {
            combined = generator.combinedHit(v)
        }
        let scene = WhatIfScene(index: index, records: records, candidates: generator.list + (combined.map { [$0] } ?? []),
                                wholeSceneLimit: wholeSceneLimit)
        let singles = Array(generator.list.prefix(runs(forViews: scene.scene.views.count) - (combined == nil ? 0 : 1)))

        func trial(_ c: WhatIfCandidate) -> Trial {
            // A budget that stopped (time, trace) stops the trials: what they found is dropped.
            if let budget, !budget.mayContinue() { return Trial(candidate: c, run: nil, outcome: nil) }
            guard let edited = scene.applying(c.edits) else { return Trial(candidate: c, run: nil, outcome: nil) }
            let (issues, directory) = SceneValidator.validateKeepingDirectory(edited)
            guard issues.isEmpty else { return Trial(candidate: c, run: nil, outcome: nil) }
            let editedIndex = SceneIndex(validated: edited, directory: directory)
            let run = TapTrace.dispatch(editedIndex, records: records, until: until, knobs: knobs, trace: traced, budget: budget)
            guard question.isMet(by: run, expect: expect, index: editedIndex) == true else {
                return Trial(candidate: c, run: run, outcome: nil)
            }
            return Trial(candidate: c, run: run,
                         outcome: WhatIfOutcome.sentence(question, result: run, index: editedIndex, baseline: baseline))
        }

        var out = singles.map(trial)
        if let combined, !out.contains(where: { $0.outcome != nil }) { out.append(trial(combined)) }
        return out
    }
}
