import TapTraceCore
import TapTraceFormats
import TapTraceJSON
import TapTraceRuns

/// `taptrace check` and `POST /v1/check`: a test file (`*.case.json`, docs/test-files.md) read
/// (`CaseDocument`), dispatched and checked against its `expect` (`CaseChecker`), and the report
/// written as JSON, text and JUnit XML. Under the request target's limits.
public enum CaseHarness {
    public static func run(_ bytes: [UInt8]) -> Int32 {
        let document: CaseDocument
        do throws(InputError) {
            document = try CaseDocument.decode(bytes, limits: RequestHarness.limits)
        } catch {
            Problems.check(error, input: bytes)
            return FuzzVerdict.ran
        }
        let outcome = CaseChecker.run(document, name: nil, file: "fuzz.case.json",
                                      budget: WorkBudget(limits: RequestHarness.limits))
        let report = CheckReport([outcome])
        Check.isJSON(report.json(), "the check report")
        _ = report.junit()
        return FuzzVerdict.ran
    }
}
