import TapTraceFormats
import TapTraceJSON

/// The outcomes of a `taptrace check` or `POST /v1/check`, as the service's JSON, as JUnit XML
/// for CI systems, and as the CLI's text. Every form is deterministic: the same outcomes give
/// the same bytes (no times, no host names).
public struct CheckReport: Sendable {
    public var outcomes: [CaseOutcome]
    public init(_ outcomes: [CaseOutcome]) { self.outcomes = outcomes }

    public var passed: Int { outcomes.filter(\.passed).count }
    public var failed: Int { outcomes.count - passed }

    /// `{"passed": n, "failed": n, "cases": [{"name", "file"?, "passed", "failures": [{"key",
    /// "expected", "actual", "text"}]}]}`.
    public func json(indent: Int = 0) -> [UInt8] {
        var w = JSONWriter(indent: indent)
        w.beginObject()
        w.key(static: "passed"); w.number(passed)
        w.key(static: "failed"); w.number(failed)
        w.key(static: "cases")
        w.beginArray()
        for o in outcomes {
            w.beginObject()
            w.key(static: "name"); w.string(o.name)
            if let file = o.file { w.key(static: "file"); w.string(file) }
            w.key(static: "passed"); w.bool(o.passed)
            w.key(static: "failures")
            w.beginArray()
            for f in o.failures {
                w.beginObject()
                w.key(static: "key"); w.string(f.key)
                w.key(static: "expected"); f.expected.write(to: &w)
                w.key(static: "actual"); f.actual.write(to: &w)
                w.key(static: "text"); w.string(f.text)
                w.endObject()
            }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.bytes
    }

    /// The summary line: `3 cases: 2 passed, 1 failed`.
    public var summary: String {
        "\(outcomes.count) \(outcomes.count == 1 ? "case" : "cases"): \(passed) passed, \(failed) failed"
    }

    /// One line per case (`PASS`/`FAIL`, file, name), each failure indented under its case,
    /// then the summary line.
    public var text: String {
        var s = ""
        for o in outcomes {
            s += (o.passed ? "PASS  " : "FAIL  ") + (o.file.map { "\($0)  " } ?? "") + o.name + "\n"
            for f in o.failures { s += "      " + f.text + "\n" }
        }
        return s + summary + "\n"
    }

    /// JUnit XML: one `<testsuite name="taptrace check">` with one `<testcase>` per case (its
    /// `classname` the file, or `taptrace.check` without one), and for a failed case one
    /// `<failure type="expectation">` whose `message` and text are the diff.
    public func junit() -> String {
        let cases = outcomes.map { o -> JUnitReport.TestCase in
            let n = o.failures.count
            return JUnitReport.TestCase(
                className: o.file ?? "taptrace.check", name: o.name,
                failure: o.passed ? nil : ("\(n) \(n == 1 ? "expectation" : "expectations") failed:\n" + o.diff, o.diff))
        }
        return JUnitReport(name: "taptrace check", failureType: "expectation", cases: cases).xml
    }
}
