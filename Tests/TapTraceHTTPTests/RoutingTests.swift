import TestSupport
import Foundation
import Testing
@testable import TapTraceHTTP

@Suite struct RoutingTests {
    @Test func routesWithPathParameters() throws {
        try withServer { server in
            let client = try RawHTTPClient(port: server.port)
            let hello = try client.request("GET", "/hello")
            #expect(hello.status == 200)
            #expect(hello.bodyText == "hello")
            #expect(hello.header("Content-Type") == "text/plain; charset=utf-8")

            let scene = try client.request("GET", "/scenes/42")
            #expect(scene.status == 200)
            #expect(scene.bodyText == "{\"id\":\"42\"}")
            #expect(scene.header("content-type") == "application/json")

            // Each segment is decoded on its own, so an encoded slash stays inside the parameter.
            let touch = try client.request("GET", "/scenes/a%20b%2Fc/touches/7")
            #expect(touch.status == 200)
            #expect(touch.bodyText == "a b/c|7")

            let put = try client.request("PUT", "/scenes/9", body: Array(repeating: 1, count: 3))
            #expect(put.bodyText == "put 9 3")
        }
    }

    @Test func literalSegmentBeatsParameter() throws {
        try withServer { server in
            let client = try RawHTTPClient(port: server.port)
            #expect(try client.request("GET", "/scenes/new").bodyText == "new-scene form")
            #expect(try client.request("GET", "/scenes/newer").bodyText == "{\"id\":\"newer\"}")
        }
    }

    @Test func decodesQueryParameters() throws {
        try withServer { server in
            let client = try RawHTTPClient(port: server.port)
            // A repeated name is refused before the handler (StrictHTTPTests).
            let response = try client.request("GET", "/query?name=J%C3%BCrgen+Smith&empty=&flag&x=1&y=2&sym=%26%3D%2B")
            #expect(response.status == 200)
            #expect(response.bodyText.split(separator: "\n", omittingEmptySubsequences: false)
                == ["name=Jürgen Smith", "empty=", "flag=", "x=1", "y=2", "sym=&=+"])
        }
        let request = HTTPRequest(method: "GET", target: "/p%61th/x?x=1&x=2&a=%zz#frag")
        #expect(request.path == "/path/x")
        #expect(request.rawPath == "/p%61th/x")
        #expect(request.query == ["x": "2", "a": "%zz"])
    }

    @Test func unknownPathIs404() throws {
        try withServer { server in
            let client = try RawHTTPClient(port: server.port)
            let missing = try client.request("GET", "/nope")
            #expect(missing.status == 404)
            #expect(missing.bodyText == "{\"error\":\"no route for /nope\",\"status\":404}")
            #expect(try client.request("GET", "/scenes/1/touches").status == 404)
            #expect(try client.request("GET", "/").status == 404)
        }
    }

    @Test func knownPathWithWrongMethodIs405WithAllow() throws {
        try withServer { server in
            let client = try RawHTTPClient(port: server.port)
            let patch = try client.request("PATCH", "/scenes/1")
            #expect(patch.status == 405)
            #expect(patch.header("Allow") == "GET, HEAD, OPTIONS, PUT")
            let delete = try client.request("DELETE", "/hello")
            #expect(delete.status == 405)
            #expect(delete.header("Allow") == "GET, HEAD, OPTIONS")
            let getEcho = try client.request("GET", "/echo")
            #expect(getEcho.status == 405)
            #expect(getEcho.header("Allow") == "OPTIONS, POST")
        }
    }

    @Test func headIsServedByGetRouteWithoutBody() throws {
        try withServer { server in
            let client = try RawHTTPClient(port: server.port)
            let head = try client.request("HEAD", "/scenes/12345")
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == "\(#"{"id":"12345"}"#.utf8.count)")
            #expect(head.body.isEmpty)
            // Had the server sent body bytes after the HEAD response, this response would not
            // parse: the next bytes on the connection must be a new status line.
            let get = try client.request("GET", "/hello")
            #expect(get.status == 200)
            #expect(get.bodyText == "hello")
            #expect(try client.request("HEAD", "/nope").status == 404)
            #expect(try client.request("HEAD", "/echo").status == 405)
        }
    }

    @Test func postBodiesArriveWhole() throws {
        try withServer { server in
            let client = try RawHTTPClient(port: server.port)
            let payload = (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let echoed = try client.request("POST", "/echo", body: payload)
            #expect(echoed.status == 200)
            #expect(echoed.body == payload)
            #expect(echoed.header("X-Request-Method") == "POST")

            try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n")
            let chunked = try client.readResponse()
            #expect(chunked.status == 200)
            #expect(chunked.bodyText == "hello world")

            // Exactly at the limit is still fine.
            let atLimit = [UInt8](repeating: 7, count: testConfiguration().maxBodyBytes)
            let big = try client.request("POST", "/echo", body: atLimit)
            #expect(big.status == 200)
            #expect(big.body.count == atLimit.count)
        }
    }

    @Test func routerResolvesWithoutServer() {
        let router = Router()
        router.get("/a/{x}") { _, _ in .text("get") }
        router.post("/a/{x}") { _, _ in .text("post") }
        router.get("/a/b") { _, _ in .text("literal") }
        guard case .found(let handler, let parameters) = router.resolve(method: "POST", rawPath: "/a/b%20c/") else {
            Issue.record("POST /a/b%20c/ should resolve")
            return
        }
        #expect(parameters == ["x": "b c"])
        #expect(handler(HTTPRequest(method: "POST", target: "/a/b%20c"), parameters).bodyText == "post")
        guard case .found(let literal, let none) = router.resolve(method: "HEAD", rawPath: "/a/b") else {
            Issue.record("HEAD /a/b should use the GET route")
            return
        }
        #expect(none.isEmpty)
        #expect(literal(HTTPRequest(method: "HEAD", target: "/a/b"), none).bodyText == "literal")
        guard case .methodNotAllowed(let allowed) = router.resolve(method: "DELETE", rawPath: "/a/z") else {
            Issue.record("DELETE /a/z should be 405")
            return
        }
        #expect(allowed == ["GET", "HEAD", "OPTIONS", "POST"])
        guard case .notFound = router.resolve(method: "GET", rawPath: "/a") else {
            Issue.record("GET /a should be 404")
            return
        }
    }

    @Test func headersCompareNamesCaseInsensitively() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain", "X-Multi": "1"]
        headers.add("x-multi", "2")
        #expect(headers["content-type"] == "text/plain")
        #expect(headers["CONTENT-TYPE"] == "text/plain")
        #expect(headers.values(for: "X-MULTI") == ["1", "2"])
        headers["X-Multi"] = "3"
        #expect(headers.values(for: "x-multi") == ["3"])
        headers["content-type"] = nil
        #expect(!headers.contains("Content-Type"))
        #expect(headers.count == 1)
    }
}

private extension HTTPResponse {
    var bodyText: String { String(decoding: body, as: UTF8.self) }
}
