/// The engine's entry points: a scene and a touch sequence in, the result document out.
public enum TapTrace {
    /// Dispatches `records` (already expanded and validated) against an indexed scene. Effective
    /// knobs: defaults, then the scene's, then `knobs`.
    ///
    /// With a `budget`, the run stops at the first safe point past its trace limit, its
    /// deadline or its cancellation; the result is then partial and `budget.finish()` throws
    /// why (callers that run several dispatches under one budget check it once at the end).
    public static func dispatch(_ index: SceneIndex, records: [TouchRecord], until: Double? = nil,
                                knobs overrides: KnobOverrides = KnobOverrides(), trace: Bool = true,
                                budget: WorkBudget? = nil) -> DispatchResult {
        let knobs = index.knobs.applying(overrides)
        var run = DispatchRun(index: index, knobs: knobs, traceEnabled: trace, budget: budget)
        run.run(records, until: until)
        return run.result(input: records, until: until)
    }

    /// Validates and dispatches a request built in code.
    public static func dispatch(_ request: DispatchRequest) throws(ValidationFailure) -> DispatchResult {
        var issues = SceneValidator.validate(request.scene, at: "/scene")
        let records = TouchSequenceValidator.expand(request.touches, at: "/touches", issues: &issues)
        guard issues.isEmpty else { throw ValidationFailure(issues) }
        return try dispatch(SceneIndex(validated: request.scene), touches: request.touches, records: records,
                            knobs: request.knobs)
    }
}
