import TapTraceCore
import TapTraceService
import Testing

/// The answers the HTTP layer gives by itself (framing, access, connection limits) read as the
/// service's own problems: a kind of their own and a title a person understands, not "HTTP 401".
@Suite struct ServerProblemTests {
    @Test(arguments: [
        (400, "bad-request", "Bad request"),
        (401, "unauthorized", "Unauthorized"),
        (403, "forbidden", "Forbidden"),
        (404, "not-found", "Not found"),
        (405, "method-not-allowed", "Method not allowed"),
        (413, "payload-too-large", "Payload too large"),
        (414, "uri-too-long", "URI too long"),
        (431, "header-too-large", "Request header fields too large"),
        (501, "not-implemented", "Not implemented"),
        (503, "unavailable", "Service unavailable"),
        (505, "http-version-not-supported", "HTTP version not supported"),
    ])
    func aServerAnswerHasANamedKind(status: Int, kind: String, title: String) {
        let problem = Problem.fromServer(status: status, detail: "the detail")
        #expect(problem.kind.rawValue == kind)
        #expect(problem.title == title)
        // The kind maps back to the status the HTTP layer chose.
        #expect(problem.httpStatus == status)
    }

    @Test func aDetailReadsAsASentence() {
        let problem = Problem.fromServer(status: 401, detail: "send Authorization: Bearer <token>")
        #expect(problem.detail == "Send Authorization: Bearer <token>.")
    }

    @Test func aStatusWithoutANameKeepsItsNumber() {
        let problem = Problem.fromServer(status: 507, detail: "no room")
        #expect(problem.kind.rawValue == "http-507")
        #expect(problem.httpStatus == 507)
    }
}
