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
    /// `<failure>` whose `message` and text are the diff.
    public func junit() -> String {
        var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let counts = "tests=\"\(outcomes.count)\" failures=\"\(failed)\" errors=\"0\""
        s += "<testsuites name=\"taptrace check\" \(counts)>\n"
        s += "  <testsuite name=\"taptrace check\" \(counts) skipped=\"0\">\n"
        for o in outcomes {
            let attributes = "classname=\"\(XML.attribute(o.file ?? "taptrace.check"))\" name=\"\(XML.attribute(o.name))\""
            if o.passed {
                s += "    <testcase \(attributes)/>\n"
            } else {
                let n = o.failures.count
                let message = "\(n) \(n == 1 ? "expectation" : "expectations") failed:\n" + o.diff
                s += "    <testcase \(attributes)>\n"
                s += "      <failure type=\"expectation\" message=\"\(XML.attribute(message))\">\(XML.text(o.diff))</failure>\n"
                s += "    </testcase>\n"
            }
        }
        s += "  </testsuite>\n</testsuites>\n"
        return s
    }
}

/// XML 1.0 escaping. Characters XML 1.0 cannot carry at all (C0 controls other than tab, line
/// feed and carriage return; U+FFFE, U+FFFF) become U+FFFD.
enum XML {
    static func text(_ s: String) -> String { escape(s, attribute: false) }
    static func attribute(_ s: String) -> String { escape(s, attribute: true) }

    private static func escape(_ s: String, attribute: Bool) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where attribute: out += "&quot;"
            case "'" where attribute: out += "&apos;"
            // Attribute values normalise raw white space to spaces: keep it as references.
            case "\n" where attribute: out += "&#10;"
            case "\r": out += "&#13;"
            case "\t" where attribute: out += "&#9;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
