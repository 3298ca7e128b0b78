import TapTraceCore

extension TapTrace {
    /// `taptrace dispatch`: a request document (`{"scene", "touches", "knobs"}`) as JSON bytes.
    public static func dispatch(json: [UInt8]) throws(InputError) -> DispatchResult {
        let request = try InputDecoder.request(json)
        return dispatch(SceneIndex(validated: request.scene), records: request.records,
                        until: request.touches.until, knobs: request.knobs)
    }
}
