import TapTraceCore

/// Dispatching touches whose gestures may name elements (`{"tap": {"view": "buyButton"}}`):
/// the elements are resolved against the scene the run uses (`ElementTargets`), so a name that
/// matches no view, or several, is a 422 at its pointer in `touches`.
extension TapTraceService {
    static func dispatch(_ index: SceneIndex, touches: TouchSequence, records: [TouchRecord],
                         knobs: KnobOverrides) throws(Problem) -> DispatchResult {
        do throws(ValidationFailure) {
            return try TapTrace.dispatch(index, touches: touches, records: records, knobs: knobs)
        } catch { throw Problem(error) }
    }

    static func records(_ index: SceneIndex, touches: TouchSequence, records: [TouchRecord],
                        knobs: KnobOverrides) throws(Problem) -> [TouchRecord] {
        do throws(ValidationFailure) {
            return try TapTrace.records(index, touches: touches, records: records, knobs: knobs)
        } catch { throw Problem(error) }
    }
}
