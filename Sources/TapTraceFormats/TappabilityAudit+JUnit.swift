import TapTraceCore

/// JUnit XML, as CI systems read it (Jenkins, GitLab, GitHub actions' reporters): one
/// `<testsuite>` of `<testcase>`s, a failure for each that failed. Small and dependency free.
public struct JUnitReport: Sendable {
    public struct TestCase: Sendable {
        public var className: String
        public var name: String
        /// A failure's message (one line) and its body; nil when the case passed.
        public var failure: (message: String, text: String)?
        /// Remarks on a passing case (warnings), as `<system-out>`.
        public var output: String?
        public init(className: String, name: String, failure: (message: String, text: String)? = nil, output: String? = nil) {
            self.className = className; self.name = name; self.failure = failure; self.output = output
        }
    }

    public var name: String
    public var cases: [TestCase]
    public init(name: String, cases: [TestCase]) { self.name = name; self.cases = cases }

    public var xml: String {
        let failures = cases.filter { $0.failure != nil }.count
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"\(Self.escape(name))\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\">\n"
        out += "  <testsuite name=\"\(Self.escape(name))\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\">\n"
        for c in cases {
            out += "    <testcase classname=\"\(Self.escape(c.className))\" name=\"\(Self.escape(c.name))\""
            if c.failure == nil && c.output == nil { out += "/>\n"; continue }
            out += ">\n"
            if let f = c.failure {
                out += "      <failure message=\"\(Self.escape(f.message))\" type=\"failure\">\(Self.escape(f.text, attribute: false))</failure>\n"
            }
            if let o = c.output { out += "      <system-out>\(Self.escape(o, attribute: false))</system-out>\n" }
            out += "    </testcase>\n"
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    /// XML text and attribute escaping; control characters XML 1.0 does not allow are dropped.
    /// In an attribute, line breaks and tabs are kept as character references (a parser would
    /// otherwise normalise them to spaces).
    static func escape(_ s: String, attribute: Bool = true) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(s.unicodeScalars.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n" where attribute: out += "&#10;"
            case "\t" where attribute: out += "&#9;"
            case "\r": out += "&#13;"
            case "\t", "\n": out.unicodeScalars.append(u)
            default:
                if u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF { continue }
                out.unicodeScalars.append(u)
            }
        }
        return out
    }
}

extension TappabilityAudit {
    /// One testcase per element (`classname` the scene's name, `name` "id (class)"); a failure
    /// for an unreachable element, with its reasons; partly reachable and offscreen elements
    /// and small targets pass with the remark as `<system-out>`.
    public func junit(suite: String) -> String {
        let cases = elements.map { e -> JUnitReport.TestCase in
            let name = "\(e.view.id) (\(e.view.className))"
            let reasons = e.reasons.enumerated().map { "\($0.offset + 1). [\($0.element.rule)] \($0.element.text)" }
            switch e.status {
            case .unreachable:
                return .init(className: suite, name: name,
                             failure: ("unreachable: the centre \(Self.point(e.point)) goes to \(e.hitTestView?.id ?? "no view")",
                                       ([Self.line(e)] + reasons).joined(separator: "\n")))
            case .partlyReachable, .offscreen:
                return .init(className: suite, name: name, output: ([Self.line(e)] + reasons).joined(separator: "\n"))
            case .hittable:
                return .init(className: suite, name: name, output: e.smallTarget ? Self.line(e) : nil)
            }
        }
        return JUnitReport(name: suite, cases: cases).xml
    }
}
