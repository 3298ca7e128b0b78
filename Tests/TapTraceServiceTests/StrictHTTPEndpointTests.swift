import Foundation
import TestSupport
import Testing

/// The service's answers to ambiguous framing, repeated query parameters and invalid UTF-8:
/// problem documents, never HTML (issue 34, item 6).
@Suite struct StrictHTTPEndpointTests {
    @Test func ambiguousFramingIsAProblemAndCloses() throws {
        let heads = [
            "GET /health HTTP/1.1\r\n\r\n",
            "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: example.com\r\n\r\n",
            "POST /v1/scenes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}x",
            "POST /v1/scenes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
        ]
        try withServer { server in
            for head in heads {
                let client = try server.client()
                try client.send(head)
                let response = try client.readResponse()
                try response.problem(400)
                #expect(response.header("Connection")?.lowercased() == "close", "\(head)")
                #expect(try client.readsEOF(), "\(head)")
            }
            #expect(try server.client().call("GET", "/v1/scenes").object().array("items").isEmpty)
        }
    }

    /// What libmicrohttpd would answer itself in HTML is a problem too (decision 145); with
    /// `--no-request-relay` (behind a proxy that refuses these first) it is libmicrohttpd's.
    @Test func malformedRequestsAreProblems() throws {
        let malformed: [(request: String, status: Int, kind: String)] = [
            ("GET /health HTTP/2.0\r\nHost: 127.0.0.1\r\n\r\n", 505, "http-version-not-supported"),
            ("GET /health\r\n\r\n", 400, "bad-request"),
            ("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nNoColon\r\n\r\n", 400, "bad-request"),
            ("POST /v1/scenes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n", 400, "bad-request"),
            ("POST /v1/scenes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 99999999999999999999999\r\n\r\n",
             413, "payload-too-large"),
            ("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX: \(String(repeating: "a", count: 40_000))\r\n\r\n",
             431, "header-too-large"),
        ]
        try withServer { server in
            for (request, status, kind) in malformed {
                let client = try server.client()
                try client.send(request)
                let response = try client.readResponse()
                let problem = try response.problem(status)
                #expect(problem["type"] as? String == "https://taptrace.dev/problems/\(kind)", "\(request.prefix(60))")
                #expect(try client.readsEOF(), "\(request.prefix(60))")
            }
            #expect(try server.client().call("GET", "/v1/scenes").object().array("items").isEmpty)
        }
        try withServer(extraArguments: ["--no-request-relay"]) { server in
            let client = try server.client()
            try client.send(malformed[0].request)
            let response = try client.readResponse()
            #expect(response.status == 505)
            #expect(response.header("Content-Type") != "application/problem+json")
        }
        try withServer(environment: ["TAPTRACE_REQUEST_RELAY": "0"]) { server in
            let client = try server.client()
            try client.send(malformed[0].request)
            #expect(try client.readResponse().header("Content-Type") != "application/problem+json")
        }
    }

    @Test func aRequestRelaySettingMustBeABoolean() throws {
        let (status, errors) = try refusedServe(environment: ["TAPTRACE_REQUEST_RELAY": "sometimes"])
        #expect(status != 0)
        #expect(errors.contains("TAPTRACE_REQUEST_RELAY must be 1 or 0"))
    }

    @Test func repeatedQueryParameterIsAProblem() throws {
        try withServer { server in
            let client = try server.client()
            let problem = try client.call("GET", "/v1/scenes?limit=1&limit=2").problem(400)
            #expect((problem["detail"] as? String)?.contains("'limit'") == true)
            #expect(try client.call("GET", "/v1/scenes?limit=1").status == 200)
        }
    }

    @Test func invalidUTF8IsRefusedWithItsOffset() throws {
        try withServer { server in
            let client = try server.client()
            var scene = try Fixtures.checkoutScene()
            // An encoded surrogate inside the first string of the document.
            let quote = scene.firstIndex(of: UInt8(ascii: "\""))!
            let end = scene[(quote + 1)...].firstIndex(of: UInt8(ascii: "\""))!
            scene.insert(contentsOf: [0xED, 0xA0, 0x80], at: end)
            let problem = try client.call("POST", "/v1/scenes", body: scene).problem(400)
            #expect((problem["detail"] as? String)?.contains("invalid UTF-8 at byte offset \(end)") == true,
                    "\(problem)")
            var escaped = try Fixtures.checkoutScene()
            escaped.insert(contentsOf: Array(#"\ud800"#.utf8), at: end)
            let lone = try client.call("POST", "/v1/scenes", body: escaped).problem(400)
            #expect((lone["detail"] as? String)?.contains("byte offset \(end)") == true, "\(lone)")
            #expect(try client.call("GET", "/v1/scenes").object().array("items").isEmpty)
        }
    }
}
