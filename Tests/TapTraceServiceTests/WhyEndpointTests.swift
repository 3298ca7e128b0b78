import Foundation
import TestSupport
import Testing

/// `POST /v1/why` and `POST /v1/runs/{id}/why` against the real `taptrace serve` (issue 31,
/// item 4), on the checkout example: a tap on buyButton at (100, 332), where cardTap fails
/// because buyButton's gestureRecognizerShouldBegin: answers NO.
@Suite struct WhyEndpointTests {
    static func request(with question: [String: Any]) throws -> [String: Any] {
        var body = try JSONSerialization.jsonObject(with: Data(Paths.example("checkout.request.json"))) as! [String: Any]
        for (k, v) in question { body[k] = v }
        return body
    }

    @Test func statelessAndStoredAnswersAgree() throws {
        try withServer { server in
            let client = try server.client()
            let stateless = try client.call("POST", "/v1/why", json: try Self.request(with: ["recognizer": "cardTap"]))
            #expect(stateless.status == 200, "\(stateless.bodyText.prefix(300))")
            let answer = try stateless.object()
            #expect((answer["question"] as? String)?.contains("cardTap") == true)
            let reasons = answer.array("reasons")
            #expect(!reasons.isEmpty)
            for r in reasons {
                #expect((r["rule"] as? String)?.isEmpty == false)
                #expect(r["trace"] is [Int])
            }
            #expect(answer.array("changes").isEmpty)   // no expectation, no changes

            // The same question about the stored run of the same request: the same answer.
            let id = try client.createScene(try Fixtures.checkoutScene())
            let run = try client.storeDispatch(id)
            let runID = try #require(run["id"] as? String)
            let stored = try client.call("POST", "/v1/runs/\(runID)/why", json: ["recognizer": "cardTap"])
            #expect(stored.status == 200)
            #expect(stored.bodyText == stateless.bodyText)
            // Trace indices point into the run's trace.
            let trace = try client.call("GET", "/v1/runs/\(runID)").object().object("result")?["trace"] as? [Any] ?? []
            for r in reasons { for i in r["trace"] as? [Int] ?? [] { #expect(i < trace.count) } }
        }
    }

    @Test func expectationGivesVerifiedChanges() throws {
        try withServer { server in
            let client = try server.client()
            let r = try client.call("POST", "/v1/why", json: try Self.request(with: ["recognizer": "cardTap", "expect": "fired"]))
            #expect(r.status == 200)
            let changes = try r.object().array("changes")
            #expect(!changes.isEmpty && changes.count <= 5)
            for c in changes { #expect(c["verified"] as? Bool == true) }
        }
    }

    @Test func badQuestionsAreClientErrors() throws {
        try withServer { server in
            let client = try server.client()
            let unknown = try client.call("POST", "/v1/why", json: try Self.request(with: ["recognizer": "nope"])).problem(422)
            #expect(try client.call("POST", "/v1/why", json: try Self.request(with: ["recognizer": "nope"])).pointers() == ["/recognizer"])
            #expect((unknown["detail"] as? String) != nil)
            #expect(try client.call("POST", "/v1/why", json: try Self.request(with: [:])).pointers() == [""])
            // Two questions: the issue is at whichever the body lists second.
            let two = try client.call("POST", "/v1/why", json: try Self.request(with: ["view": "title", "action": "buyTapped:"])).pointers()
            #expect(two == ["/action"] || two == ["/view"])
            #expect(try client.call("POST", "/v1/why", json: try Self.request(with: ["view": "title", "expect": "maybe"])).pointers() == ["/expect"])
            #expect(try client.call("POST", "/v1/why", json: try Self.request(with: ["recognizer": "cardTap", "expect": "hit"])).pointers() == ["/expect"])
            #expect(try client.call("POST", "/v1/why", json: try Self.request(with: ["firstResponder": true, "expect": "hit"])).pointers() == ["/expect"])
            try client.call("POST", "/v1/why", body: Array("{".utf8), headers: RawHTTPClient.json).problem(400)
            try client.call("POST", "/v1/why", body: Array("{}".utf8), headers: [("Content-Type", "text/plain")]).problem(415)
            try client.call("POST", "/v1/runs/run_aaaaaaaaaaaa/why", json: ["firstResponder": true]).problem(404)
        }
    }
}
