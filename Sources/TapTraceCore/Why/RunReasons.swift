/// The reasons of a `WhyAnswer`, read from a run's result and trace.
enum RunReasons {
    static func answer(_ question: WhyQuestion, index: SceneIndex, result: DispatchResult) -> WhyAnswer {
        WhyAnswer(question: question.text, answer: "", reasons: [])
    }
}
