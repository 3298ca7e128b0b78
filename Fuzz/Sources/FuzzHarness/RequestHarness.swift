import TapTraceCore
import TapTraceFormats
import TapTraceJSON

/// `taptrace dispatch` and stateless `POST /v1/dispatch`: a request document decoded and
/// validated (`InputDecoder.request`), dispatched (element targets resolved), and the result
/// written as JSON and as text. A refused request is written as its problem document.
public enum RequestHarness {
    public static func run(_ bytes: [UInt8]) -> Int32 {
        if ExpansionBound.exceeded(bytes) { return FuzzVerdict.rejected }
        let request: DecodedRequest
        do throws(InputError) {
            request = try InputDecoder.request(bytes)
        } catch {
            Problems.check(error, input: bytes)
            return FuzzVerdict.ran
        }
        guard request.records.count <= ExpansionBound.maximumRecords else { return FuzzVerdict.rejected }

        let index = SceneIndex(validated: request.scene)
        let result: DispatchResult
        do throws(ValidationFailure) {
            result = try TapTrace.dispatch(index, touches: request.touches, records: request.records,
                                           knobs: request.knobs)
        } catch {
            // Element targets that resolve to no hittable point: a 422 like any other.
            Check.isJSON(Problem(error).json(status: 422), "the problem document of an element target")
            return FuzzVerdict.ran
        }
        let json = ResultEncoder.encode(result)
        Check.isJSON(json, "the result document")
        Check.isJSON(ResultEncoder.encode(result, indent: 2), "the indented result document")
        _ = TextRenderer.render(result, names: .both, rules: true)

        // The same request gives the same bytes (the brief: deterministic output).
        if let again = try? TapTrace.dispatch(index, touches: request.touches, records: request.records,
                                              knobs: request.knobs) {
            Check.that(ResultEncoder.encode(again) == json, "dispatching the same request twice gave different results")
        }
        return FuzzVerdict.ran
    }
}

/// Refusals: the problem document the service would answer is JSON, and a syntax error names a
/// place inside the input.
enum Problems {
    static func check(_ error: InputError, input: [UInt8]) {
        if case .syntax(let e) = error {
            Check.that(e.offset >= 0 && e.offset <= input.count, "a syntax error at byte \(e.offset) of \(input.count)")
            Check.isPosition(line: e.line, column: e.column, in: input, "a syntax error")
        }
        Check.isJSON(Problem(error).json(status: 400), "the problem document of \(error)")
    }
}
