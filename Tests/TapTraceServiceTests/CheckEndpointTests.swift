import Foundation
import TestSupport
import Testing

/// `POST /v1/check` against the real `taptrace serve` (issue 32, item 5): test files over HTTP,
/// one case or `{"cases": […]}`, JSON or JUnit XML, invalid cases 422 with pointers.
@Suite struct CheckEndpointTests {
    /// examples/checkout.case.json, with `expect` replaced when given.
    static func checkoutCase(expect: [String: Any]? = nil, name: String? = nil) throws -> [String: Any] {
        var c = try JSONSerialization.jsonObject(with: Data(Paths.example("checkout.case.json"))) as! [String: Any]
        if let expect { c["expect"] = expect }
        if let name { c["name"] = name }
        return c
    }

    /// Keys sorted: `expect`'s order is the order of the failures.
    static func sorted(_ object: Any) throws -> [UInt8] {
        Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    @Test func oneCaseAndBatches() throws {
        try withServer { server in
            let client = try server.client()
            let one = try client.call("POST", "/v1/check", json: try Self.checkoutCase())
            #expect(one.status == 200, "\(one.bodyText.prefix(300))")
            #expect(one.header("Content-Type") == "application/json")
            let report = try one.object()
            #expect(report["passed"] as? Int == 1 && report["failed"] as? Int == 0)
            let cases = report.array("cases")
            #expect(cases.count == 1 && (cases.first?["name"] as? String)?.hasPrefix("Buy button") == true)
            #expect(cases.first?["passed"] as? Bool == true && (cases.first?["failures"] as? [Any])?.isEmpty == true)

            let failing = try Self.checkoutCase(expect: ["recognizers": ["cardTap": ["ended"]], "firstResponder": "card"], name: "wrong")
            var unnamed = try Self.checkoutCase()
            unnamed["name"] = nil
            let batchBody = try Self.sorted(["cases": [try Self.checkoutCase(), failing, unnamed]])
            let batch = try client.call("POST", "/v1/check", body: batchBody)
            #expect(batch.status == 200)   // the cases ran; failing ones are in the answer, not the status
            let b = try batch.object()
            #expect(b["passed"] as? Int == 2 && b["failed"] as? Int == 1)
            let wrong = b.array("cases")[1]
            #expect(wrong["name"] as? String == "wrong" && wrong["passed"] as? Bool == false)
            let failures = wrong.array("failures")
            #expect(failures.map { $0["key"] as? String } == ["firstResponder", "recognizers.cardTap"])
            #expect(failures.last?["expected"] as? [String] == ["ended"])
            #expect(failures.last?["actual"] as? [String] == ["possible", "failed", "possible"])
            #expect(failures.last?["text"] as? String == "recognizers.cardTap: expected [.ended] in order, got [.possible, .failed, .possible]")
            #expect(failures.first?["expected"] as? String == "card" && failures.first?["actual"] as? String == "buyButton")
            #expect(b.array("cases")[2]["name"] as? String == "case 3")
            // Deterministic.
            #expect(try client.call("POST", "/v1/check", body: batchBody).bodyText == batch.bodyText)
        }
    }

    @Test func junitByQueryOrAccept() throws {
        try withServer { server in
            let client = try server.client()
            let failing = try Self.checkoutCase(expect: ["actions": []], name: "no <actions> & none")
            let body = ["cases": [try Self.checkoutCase(), failing]]
            let xml = try client.call("POST", "/v1/check?format=junit", json: body)
            #expect(xml.status == 200)
            #expect(xml.header("Content-Type") == "application/xml; charset=utf-8")
            #expect(xml.bodyText.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"taptrace check\" tests=\"2\" failures=\"1\" errors=\"0\">"))
            #expect(xml.bodyText.contains("<testcase classname=\"taptrace.check\" name=\"no &lt;actions&gt; &amp; none\">"))
            #expect(xml.bodyText.contains("actions: expected 0 entries, got 1 [buyTapped:]"))
            let accepted = try client.call("POST", "/v1/check", json: body,
                                           headers: RawHTTPClient.json + [("Accept", "application/xml")])
            #expect(accepted.bodyText == xml.bodyText)
            let prefersJSON = try client.call("POST", "/v1/check", json: body,
                                              headers: RawHTTPClient.json + [("Accept", "application/json, application/xml")])
            #expect(prefersJSON.header("Content-Type") == "application/json")
            try client.call("POST", "/v1/check?format=yaml", json: body).problem(400)
        }
    }

    @Test func invalidCasesAre422WithPointers() throws {
        try withServer { server in
            let client = try server.client()
            var bad = try Self.checkoutCase(expect: ["recognizers": ["cardTap": ["fail"]], "bogus": 1])
            bad["rules"] = "H1"
            let one = try client.call("POST", "/v1/check", json: bad)
            try one.problem(422)
            #expect(Set(try one.pointers()) == ["/expect/recognizers/cardTap/0", "/expect/bogus", "/rules"])
            let batch = try client.call("POST", "/v1/check", json: ["cases": [try Self.checkoutCase(), bad]])
            try batch.problem(422)
            #expect(Set(try batch.pointers()) == ["/cases/1/expect/recognizers/cardTap/0", "/cases/1/expect/bogus", "/cases/1/rules"])
            var noExpect = try Self.checkoutCase()
            noExpect["expect"] = nil
            #expect(try client.call("POST", "/v1/check", json: noExpect).pointers() == ["/expect"])
            #expect(try client.call("POST", "/v1/check", json: ["cases": []]).pointers() == ["/cases"])
            try client.call("POST", "/v1/check", body: Array("{".utf8), headers: RawHTTPClient.json).problem(400)
            try client.call("POST", "/v1/check", body: Array("{}".utf8), headers: [("Content-Type", "text/plain")]).problem(415)
        }
    }
}
