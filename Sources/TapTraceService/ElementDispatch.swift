import TapTraceCore

/// Dispatching touches whose gestures may name elements (`{"tap": {"view": "buyButton"}}`):
/// the elements are resolved against the scene the run uses (`ElementTargets`), so a name that
/// matches no view, or several, is a 422 at its pointer in `touches`.
///
/// With a `budget`, a run it stops (trace entries, time) is refused whole with its problem.
extension TapTraceService {
    static func dispatch(_ index: SceneIndex, touches: TouchSequence, records: [TouchRecord],
                         knobs: KnobOverrides, budget: WorkBudget? = nil) throws(Problem) -> DispatchResult {
        let result: DispatchResult
        do throws(ValidationFailure) {
            result = try TapTrace.dispatch(index, touches: touches, records: records, knobs: knobs, budget: budget)
        } catch { throw Problem(error) }
        if let budget { try finish(budget) }
        return result
    }

    static func records(_ index: SceneIndex, touches: TouchSequence, records: [TouchRecord],
                        knobs: KnobOverrides) throws(Problem) -> [TouchRecord] {
        do throws(ValidationFailure) {
            return try TapTrace.records(index, touches: touches, records: records, knobs: knobs)
        } catch { throw Problem(error) }
    }
}
