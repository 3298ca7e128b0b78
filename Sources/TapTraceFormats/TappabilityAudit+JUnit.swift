import TapTraceCore

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
