import TapTraceCore
import TapTraceFormats
import TapTraceJSON
import TapTraceRuns

/// What the service does with a stored run's result bytes (`TapTraceRuns`): read them back
/// (`ResultDecoder`), which must give a result that writes the same bytes; render it as text;
/// export it as a Chrome trace; take its outcome and digest; compare it with itself, which must
/// find it identical.
enum StoredRun {
    static func check(_ stored: [UInt8]) {
        let result: DispatchResult
        do throws(ResultDecoder.Failure) {
            result = try ResultDecoder.decode(stored)
        } catch {
            Check.that(false, "a result written by ResultEncoder was refused by ResultDecoder: \(error)")
            return
        }
        Check.that(ResultEncoder.encode(result) == stored, "a stored result read back writes other bytes")
        _ = TextRenderer.render(result, names: .objc, rules: false)
        Check.isJSON(ChromeTrace.encode(result, title: "fuzz"), "the Chrome trace export")
        _ = RunOutcome.digest(of: result)
        let comparison = RunComparison(result, result)
        var w = JSONWriter()
        w.beginObject()
        comparison.writeMembers(to: &w)
        w.endObject()
        Check.isJSON(w.bytes, "the comparison of a run with itself")
        Check.that(comparison.identical, "a run compared with itself is not identical")
    }
}
