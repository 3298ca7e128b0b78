import TestSupport
import Foundation
import Testing
@testable import TapTraceHTTP

@Suite struct LimitTests {
    /// A router that counts how often its POST handler runs.
    private func countingRouter(_ calls: Shared<Int>) -> Router {
        let router = sampleRouter()
        router.post("/count") { request, _ in
            calls.update { $0 += 1 }
            return .text("\(request.body.count)")
        }
        return router
    }

    @Test func declaredContentLengthOverLimitIs413AndCloses() throws {
        let calls = Shared(0)
        try withServer(router: countingRouter(calls)) { server in
            let client = try RawHTTPClient(port: server.port)
            // Only the head is sent: the answer must not wait for the 10 MB body.
            try client.send("POST /count HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 413)
            #expect(response.header("Connection")?.lowercased() == "close")
            #expect(response.bodyText.contains("request body larger than 65536 bytes"))
            #expect(try client.readsEOF())
            #expect(calls.current == 0)
        }
    }

    @Test func chunkedBodyOverLimitIs413AndCloses() throws {
        let calls = Shared(0)
        try withServer(router: countingRouter(calls)) { server in
            let client = try RawHTTPClient(port: server.port)
            try client.send("POST /count HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = Array("4000\r\n".utf8) + [UInt8](repeating: 65, count: 0x4000) + Array("\r\n".utf8)
            for _ in 0..<6 { try client.send(chunk) }  // 96 KiB > 64 KiB
            try client.send("0\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 413)
            #expect(response.header("Connection")?.lowercased() == "close")
            #expect(try client.readsEOF())
            #expect(calls.current == 0)

            // A chunked body within the limit reaches the handler.
            let small = try RawHTTPClient(port: server.port)
            try small.send("POST /count HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            for _ in 0..<3 { try small.send(chunk) }
            try small.send("0\r\n\r\n")
            let accepted = try small.readResponse()
            #expect(accepted.status == 200)
            #expect(accepted.bodyText == "\(3 * 0x4000)")
            #expect(calls.current == 1)
        }
    }

    @Test func endlessChunkedBodyIsCutOff() throws {
        let calls = Shared(0)
        try withServer(router: countingRouter(calls)) { server in
            let client = try RawHTTPClient(port: server.port, timeoutSeconds: 10)
            try client.send("POST /count HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = Array("4000\r\n".utf8) + [UInt8](repeating: 66, count: 0x4000) + Array("\r\n".utf8)
            // 4 MiB, no final chunk: far past the limit and past what is read to answer 413.
            var sendFailed = false
            for _ in 0..<256 {
                do { try client.send(chunk) } catch { sendFailed = true; break }
            }
            #expect(sendFailed || client.peerClosed())
            #expect(calls.current == 0)
            #expect(try RawHTTPClient(port: server.port).request("GET", "/hello").status == 200)
        }
    }

    @Test func longTargetIs414() throws {
        try withServer { server in
            let client = try RawHTTPClient(port: server.port)
            let long = try client.request("GET", "/hello?q=" + String(repeating: "a", count: 3000))
            #expect(long.status == 414)
            #expect(long.bodyText.contains("request target longer than 2048 bytes"))
            #expect(try client.readsEOF())

            let fits = try RawHTTPClient(port: server.port).request("GET", "/hello?q=" + String(repeating: "a", count: 1500))
            #expect(fits.status == 200)

            // Far beyond the connection memory pool libmicrohttpd answers on its own, also 414.
            let huge = try RawHTTPClient(port: server.port).request("GET", "/hello?q=" + String(repeating: "a", count: 300_000))
            #expect(huge.status == 414)
        }
    }

    @Test func largeHeaderIs431() throws {
        try withServer { server in
            let client = try RawHTTPClient(port: server.port)
            let big = try client.request("GET", "/hello", headers: [("X-Big", String(repeating: "b", count: 10_000))])
            #expect(big.status == 431)
            #expect(big.bodyText.contains("request header larger than 8192 bytes"))
            #expect(try client.readsEOF())

            let fits = try RawHTTPClient(port: server.port)
                .request("GET", "/header", headers: [("X-Trace", String(repeating: "t", count: 6_000))])
            #expect(fits.status == 200)
            #expect(fits.body.count == 6_000)

            let huge = try RawHTTPClient(port: server.port)
                .request("GET", "/hello", headers: [("X-Big", String(repeating: "b", count: 300_000))])
            #expect(huge.status == 431)
        }
    }

    /// The pool is kept small (libmicrohttpd zeroes all of it for every request), yet large
    /// enough that the limits decide: with the default 16 KiB, a head just under the limit is
    /// answered, and one well over it still gets the server's own 431, not libmicrohttpd's.
    @Test func defaultPoolHoldsHeadsUpToTheLimitAndAnswersLargerOnes() throws {
        let configuration = testConfiguration {
            $0.maxHeaderBytes = HTTPServerConfiguration().maxHeaderBytes
            $0.maxURILength = HTTPServerConfiguration().maxURILength
        }
        #expect(configuration.effectiveConnectionMemoryLimit == HTTPServerConfiguration().effectiveConnectionMemoryLimit)
        try withServer(configuration) { server in
            let limit = configuration.maxHeaderBytes
            let fits = try RawHTTPClient(port: server.port)
                .request("GET", "/header", headers: [("X-Trace", String(repeating: "t", count: limit - 200))])
            #expect(fits.status == 200)
            #expect(fits.body.count == limit - 200)

            let longTarget = try RawHTTPClient(port: server.port)
                .request("GET", "/hello?q=" + String(repeating: "a", count: configuration.maxURILength - 100))
            #expect(longTarget.status == 200)

            let over = try RawHTTPClient(port: server.port)
                .request("GET", "/hello", headers: [("X-Big", String(repeating: "b", count: limit + limit / 2))])
            #expect(over.status == 431)
            #expect(over.bodyText.contains("request header larger than \(limit) bytes"))
        }
    }

    @Test func largerLimitsNeedAndGetALargerMemoryPool() throws {
        let configuration = testConfiguration { $0.maxHeaderBytes = 100_000 }
        #expect(configuration.effectiveConnectionMemoryLimit > 100_000)
        try withServer(configuration) { server in
            let response = try RawHTTPClient(port: server.port)
                .request("GET", "/header", headers: [("X-Trace", String(repeating: "t", count: 90_000))])
            #expect(response.status == 200)
            #expect(response.body.count == 90_000)
        }
    }
}

