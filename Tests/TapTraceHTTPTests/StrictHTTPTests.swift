import Foundation
import TestSupport
import Testing

@testable import TapTraceHTTP

/// Ambiguous framing and `Host` are refused before any body is read, and the connection is
/// closed after the answer (RFC 9112 §3.2, §6.1–6.3; issue 34, item 6).
@Suite struct StrictHTTPTests {
    /// A request head that libmicrohttpd accepts and the server must refuse, with the status.
    static let refusedHeads: [(name: String, head: String, status: Int)] = [
        ("no Host", "GET /hello HTTP/1.1\r\n\r\n", 400),
        ("two Hosts", "GET /hello HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
        ("two equal Hosts", "GET /hello HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n", 400),
        ("HTTP/1.0 with two Hosts", "GET /hello HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n", 400),
        ("two Content-Lengths", "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nabc", 400),
        ("Transfer-Encoding and Content-Length",
         "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", 400),
        ("Content-Length then Transfer-Encoding",
         "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n3\r\nabc\r\n0\r\n\r\n", 400),
        ("Transfer-Encoding gzip", "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\nabc", 501),
        ("Transfer-Encoding gzip, chunked",
         "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", 501),
        ("Transfer-Encoding in HTTP/1.0",
         "POST /echo HTTP/1.0\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", 400),
    ]

    @Test(arguments: refusedHeads.indices)
    func refusedAndClosed(_ index: Int) throws {
        let (name, head, status) = Self.refusedHeads[index]
        let reached = Shared(0)
        let router = sampleRouter()
        router.post("/count") { _, _ in reached.update { $0 += 1 }; return .text("reached") }
        try withServer(router: router) { server in
            let client = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
            try client.send(head.replacingOccurrences(of: "/echo", with: "/count")
                .replacingOccurrences(of: "/hello", with: "/count"))
            let response = try client.readResponse()
            #expect(response.status == status, "\(name)")
            #expect(response.header("Connection")?.lowercased() == "close", "\(name)")
            #expect(response.header("Content-Type") == "application/json", "\(name)")
            #expect(try client.readsEOF(), "\(name): the connection stays open")
            #expect(reached.current == 0, "\(name): the handler ran")
        }
    }

    @Test func framingRulesByThemselves() {
        func check(_ fields: [(String, String)], _ version: String = "HTTP/1.1") -> Int? {
            HTTPServer.framingRejection(HTTPHeaders(fields), httpVersion: version)?.status
        }
        #expect(check([("Host", "a")]) == nil)
        #expect(check([("host", "")]) == nil, "an empty Host is what RFC 9112 asks for without an authority")
        #expect(check([], "HTTP/1.0") == nil, "HTTP/1.0 needs no Host")
        #expect(check([("Host", "a"), ("Content-Length", "5")]) == nil)
        #expect(check([("Host", "a"), ("Transfer-Encoding", "Chunked")]) == nil)
        #expect(check([("Host", "a"), ("content-length", "5"), ("Content-Length", "5")]) == 400)
        #expect(check([("Host", "a"), ("Content-Length", "5, 5")]) == 400)
        #expect(check([("Host", "a"), ("Content-Length", "-1")]) == 400)
        #expect(check([("Host", "a"), ("Transfer-Encoding", "chunked"), ("Transfer-Encoding", "chunked")]) == 501)
        let detail = HTTPServer.framingRejection(HTTPHeaders([("Host", "a"), ("Host", "b")]), httpVersion: "HTTP/1.1")?.detail
        #expect(detail == "the request has 2 Host header fields; exactly one is required")
    }

    @Test func repeatedQueryParameterIsRefused() throws {
        try withServer { server in
            let client = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
            let repeated = try client.request("GET", "/query?limit=1&limit=2")
            #expect(repeated.status == 400)
            #expect(repeated.bodyText.contains("query parameter 'limit' is given more than once"))
            // Decoded names compare: `l%69mit` is `limit`.
            #expect(try client.request("GET", "/query?limit=1&l%69mit=1").status == 400)
            let distinct = try client.request("GET", "/query?limit=1&offset=2")
            #expect(distinct.status == 200)
            #expect(distinct.bodyText == "limit=1\noffset=2")
        }
    }

    @Test func requestLogEscapesWhatItPrints() throws {
        let entries = Shared<[String]>([])
        let configuration = testConfiguration {
            $0.requestLogger = { method, path, status, _ in entries.update { $0.append("\(method) \(path) \(status)") } }
        }
        try withServer(configuration) { server in
            let client = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
            // A newline and a forged line, a terminal escape, a right-to-left override, a
            // backslash, invalid UTF-8 (a lone continuation byte, an encoded surrogate).
            _ = try client.request("GET", "/scenes/a%0AGET%20/admin%20200%0D%1B[2J%E2%80%AE%5C%80%ED%A0%80")
            #expect(eventually { entries.current.count == 1 })
            // A method that is not a token never reaches libmicrohttpd: the relay refuses it, and
            // its stand-in is logged without it.
            try client.send("G\u{1B}T /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            _ = try client.readResponse()
            #expect(eventually { entries.current.count == 2 })
        }
        #expect(entries.current.first == "GET /scenes/a\\u{000A}GET /admin 200\\u{000D}\\u{001B}[2J\\u{202E}\\\\\\x80\\xED\\xA0\\x80 404")
        #expect(entries.current.last == "- * 400")
        for line in entries.current {
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{202E}" })
        }
    }

    @Test func escapingKeepsPrintableText() {
        #expect(LogEscaping.escape("/scenes/héllo wörld/日本") == "/scenes/héllo wörld/日本")
        #expect(LogEscaping.escape([0x2F, 0xC0, 0xAF]) == "/\\xC0\\xAF", "an overlong '/' stays bytes")
        #expect(LogEscaping.escape([0x61, 0xE2, 0x80]) == "a\\xE2\\x80", "a truncated sequence")
        #expect(LogEscaping.escape("a\u{00A0}b\u{2028}c") == "a\\u{00A0}b\\u{2028}c")
        #expect(LogEscaping.escape("\\x41") == "\\\\x41", "an escape sent literally differs from the byte")
    }
}
