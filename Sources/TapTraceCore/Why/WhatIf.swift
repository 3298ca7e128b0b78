/// Single changes to a scene that give an expected outcome, each verified by dispatching again.
enum WhatIf {
    static func changes(_ question: WhyQuestion, expect: WhyQuestion.Expectation, index: SceneIndex, records: [TouchRecord],
                        until: Double?, knobs: KnobOverrides, baseline: DispatchResult) -> [WhyAnswer.Change] {
        []
    }
}
