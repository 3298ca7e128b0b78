import Foundation
import TestSupport
import Testing

@_spi(Fuzzing) @testable import TapTraceHTTP

/// What libmicrohttpd used to answer by itself, in HTML, now reaches the client as the server's
/// own error, from the relay's stand-in (issue 34, item 6; decision 145): each refused in its
/// turn, the handler never run, the connection closed after the answer.
@Suite struct RelayTests {
    /// Requests libmicrohttpd 0.9.75 answered itself (or dropped), with the status now given.
    static let malformed: [(name: String, request: String, status: Int)] = [
        ("HTTP/2.0", "GET /count HTTP/2.0\r\nHost: a\r\n\r\n", 505),
        ("HTTP/0.9 request line", "GET /count\r\n\r\n", 400),
        ("no request line at all", "GARBAGE\r\n\r\n", 400),
        ("two spaces in the request line", "GET  /count HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        ("control character in the target", "GET /co\u{01}unt HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        ("field line without a colon", "GET /count HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n", 400),
        ("space before the colon", "GET /count HTTP/1.1\r\nHost : a\r\n\r\n", 400),
        ("obsolete line folding", "GET /count HTTP/1.1\r\nHost: a\r\nX: b\r\n c\r\n\r\n", 400),
        ("NUL in a value", "GET /count HTTP/1.1\r\nHost: a\r\nX: a\u{00}b\r\n\r\n", 400),
        ("bare CR", "GET /count HTTP/1.1\r\nHost: a\rX: b\r\n\r\n", 400),
        ("Content-Length past 2^64", "POST /count HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n", 413),
        ("Content-Length not a number", "POST /count HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n", 400),
        ("chunk size not hexadecimal",
         "POST /count HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n", 400),
        ("chunk longer than its size",
         "POST /count HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n", 400),
        ("chunk size past 2^64",
         "POST /count HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffffff\r\nabc\r\n0\r\n\r\n", 413),
        ("trailer line without a colon",
         "POST /count HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nNoColon\r\n\r\n", 400),
        ("head past the connection's memory pool",
         "GET /count HTTP/1.1\r\nHost: a\r\nX: \(String(repeating: "a", count: 40_000))\r\n\r\n", 431),
        ("target past the connection's memory pool",
         "GET /count?\(String(repeating: "a", count: 40_000)) HTTP/1.1\r\nHost: a\r\n\r\n", 414),
    ]

    @Test(arguments: malformed.indices)
    func answeredInTheServersFormat(_ index: Int) throws {
        let (name, request, status) = Self.malformed[index]
        let reached = Shared(0)
        let router = sampleRouter()
        router.get("/count") { _, _ in reached.update { $0 += 1 }; return .text("reached") }
        router.post("/count") { _, _ in reached.update { $0 += 1 }; return .text("reached") }
        try withServer(router: router) { server in
            let client = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
            try client.send(request)
            let response = try client.readResponse()
            #expect(response.status == status, "\(name)")
            #expect(response.header("Content-Type") == "application/json", "\(name): \(response.bodyText)")
            #expect(response.header("Connection")?.lowercased() == "close", "\(name)")
            #expect(try client.readsEOF(), "\(name): more was sent after the answer, or the connection stays open")
            #expect(reached.current == 0, "\(name): the handler ran")
        }
    }

    @Test func theAnswerNamesTheProblem() throws {
        try withServer { server in
            let client = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
            try client.send("GET /hello HTTP/1.1\r\nHost: a\r\nX-Good: 1\r\nBroken\r\n\r\n")
            #expect(try client.readResponse().bodyText.contains("header field line 3 has no ':'"))
            let version = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
            try version.send("GET /hello HTTP/3.0\r\nHost: a\r\n\r\n")
            #expect(try version.readResponse().bodyText.contains("HTTP/3.0 is not supported; send HTTP/1.1"))
        }
    }

    @Test func theErrorResponderShapesTheAnswer() throws {
        let configuration = testConfiguration {
            $0.errorResponder = { status, detail in
                HTTPResponse(status: status, headers: ["Content-Type": "application/problem+json"],
                             body: Array("{\"status\":\(status),\"detail\":\(HTTPResponse.jsonString(detail))}".utf8))
            }
        }
        try withServer(configuration) { server in
            let client = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
            try client.send("GET /hello HTTP/2.0\r\nHost: a\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 505)
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(response.bodyText == "{\"status\":505,\"detail\":\"HTTP/2.0 is not supported; send HTTP/1.1\"}")
        }
    }

    /// Pipelined: the requests before the malformed one are answered first, in order, and
    /// nothing after it is read.
    @Test func earlierPipelinedRequestsAreAnsweredFirst() throws {
        let reached = Shared(0)
        let router = sampleRouter()
        router.get("/count") { _, _ in reached.update { $0 += 1 }; return .text("reached") }
        try withServer(router: router) { server in
            let client = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
            try client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n"
                + "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nfirst"
                + "GET /hello HTTP/1.1\r\nHost: a\r\nBroken\r\n\r\n"
                + "GET /count HTTP/1.1\r\nHost: a\r\n\r\n")
            let first = try client.readResponse()
            #expect(first.status == 200 && first.bodyText == "hello")
            let second = try client.readResponse()
            #expect(second.status == 200 && second.bodyText == "first")
            let third = try client.readResponse()
            #expect(third.status == 400)
            #expect(try client.readsEOF())
            #expect(reached.current == 0, "a request after the malformed one was served")
        }
    }

    /// A chunked body that goes wrong part-way: the handler never sees the part before.
    @Test func aChunkedBodyRefusedPartWayNeverReachesTheHandler() throws {
        let bodies = Shared<[Int]>([])
        let router = sampleRouter()
        router.post("/count") { request, _ in bodies.update { $0.append(request.body.count) }; return .text("reached") }
        try withServer(router: router) { server in
            let client = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
            try client.send("POST /count HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n")
            // libmicrohttpd has read the first chunk by now; the next size line is wrong.
            usleep(100_000)
            try client.send("5;ext\r\nworld\r\nnot-a-size\r\n0\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 400)
            #expect(response.bodyText.contains("chunk-size line"))
            #expect(try client.readsEOF())
            #expect(bodies.current.isEmpty)
        }
    }

    /// Well-formed streams pass through unchanged, however the bytes are split: bodies of
    /// known length and chunked ones (extensions, trailers), pipelined on one connection.
    @Test func wellFormedRequestsPassUnchanged() throws {
        try withServer { server in
            let client = try RawHTTPClient(port: server.port, timeoutSeconds: 10)
            let large = (0..<60_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            var stream = Array("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: \(large.count)\r\n\r\n".utf8) + large
            stream += Array(("POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "4;name=value\r\nabcd\r\n1A\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nX-Checksum: 1\r\n\r\n").utf8)
            stream += Array("\r\nGET /hello HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
            // In pieces of 1, 7 and 1,000 bytes, each after the server has had a moment.
            var offset = 0
            for size in [1, 7, 1000, 1, 7] where offset < stream.count {
                let end = min(stream.count, offset + size)
                try client.send(Array(stream[offset..<end]))
                offset = end
                usleep(5_000)
            }
            try client.send(Array(stream[offset...]))
            let echoed = try client.readResponse()
            #expect(echoed.status == 200)
            #expect(echoed.body == large)
            let chunked = try client.readResponse()
            #expect(chunked.bodyText == "abcdabcdefghijklmnopqrstuvwxyz")
            #expect(try client.readResponse().bodyText == "hello")
            // Still open: keep-alive.
            #expect(try client.request("GET", "/hello").bodyText == "hello")
        }
    }

    /// A client's own field of the mark's name is an ordinary field: it cannot make the server
    /// answer an error of its choosing.
    @Test func aForgedMarkIsAnOrdinaryField() throws {
        try withServer { server in
            let client = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
            let forged = RelayRefusal(status: 418, detail: "forged").fieldLine(nonce: String(repeating: "0", count: 32))
            try client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\(forged)\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.bodyText == "hello")
        }
    }

    @Test func closingClientsLeaveNoRelayBehind() throws {
        try withServer { server in
            for _ in 0..<20 {
                let client = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
                #expect(try client.request("GET", "/hello").status == 200)
                client.close()
            }
            #expect(eventually { server.openRelayLinks == 0 && server.openConnectionsPerWorker.reduce(0, +) == 0 })
        }
    }
}

/// Without the relay (`relaysRequests` off, or TLS) libmicrohttpd reads the client's socket
/// itself, and answers what it refuses in its own HTML.
@Suite struct WithoutRelayTests {
    @Test func libmicrohttpdAnswersMalformedRequestsItself() throws {
        try withServer(testConfiguration { $0.relaysRequests = false }) { server in
            let client = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
            #expect(try client.request("GET", "/hello").bodyText == "hello")
            #expect(server.openRelayLinks == 0)
            try client.send("GET /hello HTTP/2.0\r\nHost: a\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 505)
            #expect(response.bodyText.hasPrefix("<html>"))
        }
    }
}
