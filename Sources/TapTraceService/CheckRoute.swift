import Foundation
import TapTraceCore
import TapTraceFormats
import TapTraceHTTP
import TapTraceRuns

/// `POST /v1/check`: runs test files sent in the body, as `taptrace check` does (`CaseChecker`,
/// TapTraceRuns). The body is one case document, or `{"cases": [case, …]}`; an invalid case is
/// 422 with every issue's pointer (under `/cases/<i>` in the second form) and no case is run.
/// Cases that run are 200 whether they pass or fail: `{passed, failed, cases: [{name, passed,
/// failures: [{key, expected, actual, text}]}]}`, or JUnit XML with `?format=junit` or an
/// `Accept` that prefers `application/xml`. Stateless: nothing is stored. The work is that of
/// one dispatch per case, done on the worker: the touch records of all the cases together are
/// held to `--max-records`, each run's trace to `--max-trace-entries`, and the cases share the
/// request's time budget.
extension TapTraceService {
    func addCheckRoute(to router: Router) {
        router.post("/v1/check", handler: handler { [self] request, _ in
            let junit = try Self.wantsJUnit(request)
            let body = try JSONBody.bytes(of: request)
            let cases: [CaseDocument]
            do throws(InputError) { cases = try CaseDocument.decodeCases(body, limits: limits) } catch {
                throw Problem(error)
            }
            let budget = budget(for: request)
            var outcomes: [CaseOutcome] = []
            for (i, c) in cases.enumerated() {
                try Self.check(budget)
                outcomes.append(CaseChecker.run(c, name: c.name ?? (cases.count == 1 ? "case" : "case \(i + 1)"), budget: budget))
            }
            try Self.finish(budget)
            let report = CheckReport(outcomes)
            if junit {
                return HTTPResponse(status: 200, headers: ["Content-Type": "application/xml; charset=utf-8"],
                                    body: try bounded(Array(report.junit().utf8)))
            }
            return .jsonBytes(try bounded(report.json()))
        })
    }

    /// `?format=junit|json`, else the first of JSON or XML the `Accept` field lists.
    static func wantsJUnit(_ request: HTTPRequest) throws(Problem) -> Bool {
        if let format = request.query["format"] {
            switch format {
            case "junit": return true
            case "json": return false
            default: throw Problem.badRequest("format must be json or junit, not \"\(format)\".")
            }
        }
        guard let accept = request.header("Accept") else { return false }
        for item in accept.split(separator: ",") {
            let type = item.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            if type == "application/json" { return false }
            if type == "application/xml" || type == "text/xml" { return true }
        }
        return false
    }
}
