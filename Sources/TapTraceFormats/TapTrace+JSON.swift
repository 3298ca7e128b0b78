import TapTraceCore

extension TapTrace {
    /// `taptrace dispatch`: a request document (`{"scene", "touches", "knobs"}`) as JSON bytes.
    public static func dispatch(json: [UInt8]) throws(InputError) -> DispatchResult {
        let request = try InputDecoder.request(json)
        do throws(ValidationFailure) {
            return try dispatch(SceneIndex(validated: request.scene), touches: request.touches, records: request.records,
                                knobs: request.knobs)
        } catch { throw .invalid(error) }
    }
}
