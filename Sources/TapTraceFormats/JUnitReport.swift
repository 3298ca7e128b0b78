/// JUnit XML, as CI systems read it (Jenkins, GitLab, GitHub Actions' reporters): one
/// `<testsuite>` of `<testcase>`s, a `<failure>` for each that failed. `taptrace check` and
/// `taptrace audit` both write it. Deterministic: no times, no host names.
public struct JUnitReport: Sendable {
    public struct TestCase: Sendable {
        public var className: String
        public var name: String
        /// A failure's message and its body; nil when the case passed.
        public var failure: (message: String, text: String)?
        /// Remarks on a passing case (warnings), as `<system-out>`.
        public var output: String?
        public init(className: String, name: String, failure: (message: String, text: String)? = nil, output: String? = nil) {
            self.className = className; self.name = name; self.failure = failure; self.output = output
        }
    }

    public var name: String
    /// The `type` of every `<failure>` (`expectation` for test files, `failure` for the audit).
    public var failureType: String
    public var cases: [TestCase]
    public init(name: String, failureType: String = "failure", cases: [TestCase]) {
        self.name = name; self.failureType = failureType; self.cases = cases
    }

    public var xml: String {
        let failures = cases.filter { $0.failure != nil }.count
        let counts = "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\""
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"\(Self.attribute(name))\" \(counts)>\n"
        out += "  <testsuite name=\"\(Self.attribute(name))\" \(counts) skipped=\"0\">\n"
        for c in cases {
            out += "    <testcase classname=\"\(Self.attribute(c.className))\" name=\"\(Self.attribute(c.name))\""
            if c.failure == nil && c.output == nil { out += "/>\n"; continue }
            out += ">\n"
            if let f = c.failure {
                out += "      <failure type=\"\(Self.attribute(failureType))\" message=\"\(Self.attribute(f.message))\">\(Self.text(f.text))</failure>\n"
            }
            if let o = c.output { out += "      <system-out>\(Self.text(o))</system-out>\n" }
            out += "    </testcase>\n"
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    /// XML 1.0 text: `&`, `<`, `>` escaped; characters XML 1.0 cannot carry at all (C0 controls
    /// other than tab, line feed and carriage return; U+FFFE, U+FFFF) become U+FFFD.
    public static func text(_ s: String) -> String { escape(s, attribute: false) }
    /// An attribute value: quotes escaped too, and line breaks and tabs kept as references (a
    /// parser would otherwise normalise them to spaces).
    public static func attribute(_ s: String) -> String { escape(s, attribute: true) }

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
