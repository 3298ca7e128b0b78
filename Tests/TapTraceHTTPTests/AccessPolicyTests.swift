import Foundation
import TestSupport
import Testing
@testable import TapTraceHTTP

/// Bearer tokens, Host names (DNS rebinding) and cross-site origins, checked before routing
/// (`AccessPolicy`), and HTTPS through libmicrohttpd's TLS (`TLSCredentials`).
@Suite struct AccessPolicyTests {
    /// `/scenes` and `/echo` need the token, `/hello` is open (like `/health`).
    func policy(tokens: [String] = ["secret-one", "secret-two"], allowedHosts: [String] = []) -> AccessPolicy {
        AccessPolicy(tokens: tokens, allowedHosts: allowedHosts, protectedPrefixes: ["/scenes", "/echo"],
                     openPaths: ["/hello"])
    }

    /// The sample routes, with `/echo/count` counting the requests that reached it.
    func countingRouter(_ count: Shared<Int>) -> Router {
        let router = sampleRouter()
        router.post("/echo/count") { request, _ in
            count.update { $0 += 1 }
            return .text("echo \(request.body.count)")
        }
        return router
    }

    /// One request written as is (the test client always adds `Host: 127.0.0.1`).
    func raw(_ port: UInt16, _ head: String, body: String = "") throws -> RawHTTPClient.Response {
        let client = try RawHTTPClient(port: port)
        defer { client.close() }
        try client.send(head.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n" + body)
        return try client.readResponse()
    }

    @Test func requestsWithoutOrWithAWrongTokenGet401() throws {
        try withServer(testConfiguration { $0.accessPolicy = policy(); $0.errorResponder = { status, detail in
            HTTPResponse(status: status, headers: ["Content-Type": "application/problem+json"],
                         body: Array("{\"status\":\(status),\"detail\":\(HTTPResponse.jsonString(detail))}".utf8))
        } }) { server in
            let client = try RawHTTPClient(port: server.port)
            let missing = try client.request("GET", "/scenes/1")
            #expect(missing.status == 401)
            #expect(missing.header("WWW-Authenticate") == "Bearer realm=\"taptrace\"")
            #expect(missing.header("Content-Type") == "application/problem+json")
            #expect(missing.bodyText.contains("\"status\":401"))
            for wrong in ["Bearer secret-on", "Bearer secret-one2", "Bearer ", "Basic c2VjcmV0LW9uZQ==", "secret-one",
                          "Bearer SECRET-ONE"] {
                let refused = try RawHTTPClient(port: server.port).request("GET", "/scenes/1", headers: [("Authorization", wrong)])
                #expect(refused.status == 401, "\(wrong)")
                #expect(!refused.bodyText.contains("secret"), "the answer repeats no token: \(refused.bodyText)")
            }
            for right in ["Bearer secret-one", "bearer secret-two", "BEARER   secret-two  "] {
                let accepted = try RawHTTPClient(port: server.port).request("GET", "/scenes/1", headers: [("Authorization", right)])
                #expect(accepted.status == 200, "\(right)")
            }
        }
    }

    @Test func aRefusedRequestNeverReachesItsHandler() throws {
        let count = Shared(0)
        try withServer(testConfiguration { $0.accessPolicy = policy() }, router: countingRouter(count)) { server in
            let refused = try RawHTTPClient(port: server.port).request("POST", "/echo/count", body: Array("data".utf8))
            #expect(refused.status == 401)
            #expect(count.current == 0)
            let accepted = try RawHTTPClient(port: server.port).request("POST", "/echo/count", headers: [("Authorization", "Bearer secret-one")],
                                                                        body: Array("data".utf8))
            #expect(accepted.bodyText == "echo 4")
            #expect(count.current == 1)
        }
    }

    @Test func openPathsAndPreflightsNeedNoToken() throws {
        try withServer(testConfiguration { $0.accessPolicy = policy() }) { server in
            #expect(try RawHTTPClient(port: server.port).request("GET", "/hello").status == 200)
            // A browser sends no credentials with a preflight; refusing it would block the real request.
            let preflight = try RawHTTPClient(port: server.port).request("OPTIONS", "/scenes/7", headers: [
                ("Origin", "https://allowed.example"), ("Access-Control-Request-Method", "PUT")])
            #expect(preflight.status == 204)
            #expect(preflight.header("Access-Control-Allow-Origin") == "https://allowed.example")
            // A 401 to an allowed origin carries the CORS fields, so its page can read it and ask for a token.
            let denied = try RawHTTPClient(port: server.port).request("GET", "/scenes/7", headers: [("Origin", "https://allowed.example")])
            #expect(denied.status == 401)
            #expect(denied.header("Access-Control-Allow-Origin") == "https://allowed.example")
        }
    }

    @Test func theComparisonIsConstantTimeAndExact() {
        let token = Array("0123456789abcdef".utf8)
        #expect(AccessPolicy.constantTimeEqual(token, token))
        #expect(!AccessPolicy.constantTimeEqual(token, Array(token.dropLast())))
        #expect(!AccessPolicy.constantTimeEqual(Array(token.dropLast()), token))
        #expect(!AccessPolicy.constantTimeEqual(token, token + [0]))
        #expect(!AccessPolicy.constantTimeEqual([], token))
        #expect(AccessPolicy.constantTimeEqual([], []))
        // Lengths differing by a multiple of 256 (the XOR of the counts has a zero low byte).
        #expect(!AccessPolicy.constantTimeEqual([UInt8](repeating: 0, count: 256), []))
        var last = token
        last[last.count - 1] ^= 1
        #expect(!AccessPolicy.constantTimeEqual(token, last))
        // Every token is compared: a match in the first one is not an early return.
        let policy = policy(tokens: ["a", "b", "c"])
        #expect(policy.matches(Array("a".utf8)) && policy.matches(Array("c".utf8)))
        #expect(!policy.matches(Array("d".utf8)))
    }

    @Test func withoutATokenOnlyLoopbackAndAllowedHostNamesAreAnswered() throws {
        try withServer(testConfiguration { $0.accessPolicy = policy(tokens: [], allowedHosts: ["Tap.Example"]) }) { server in
            for host in ["evil.example", "evil.example:\(server.port)", "127.0.0.1.evil.example", "10.0.0.1",
                         "1.127.0.0.1", "localhost.evil.example", "[::2]"] {
                let refused = try raw(server.port, "GET /scenes/1 HTTP/1.1\nHost: \(host)\n")
                #expect(refused.status == 403, "\(host)")
                #expect(refused.bodyText.contains("--allowed-host"), "\(host): \(refused.bodyText)")
            }
            for host in ["127.0.0.1", "127.0.0.1:\(server.port)", "127.1.2.3", "localhost", "LOCALHOST:80", "app.localhost",
                         "[::1]", "[::1]:\(server.port)", "tap.example", "tap.example.:8080"] {
                #expect(try raw(server.port, "GET /scenes/1 HTTP/1.1\nHost: \(host)\n").status == 200, "\(host)")
            }
        }
    }

    @Test func withATokenAnyHostNameIsAnswered() throws {
        try withServer(testConfiguration { $0.accessPolicy = policy() }) { server in
            let response = try raw(server.port, "GET /scenes/1 HTTP/1.1\nHost: tap.example\nAuthorization: Bearer secret-two\n")
            #expect(response.status == 200)
        }
    }

    @Test func aCrossSiteSimpleRequestIsRefusedBeforeItsHandler() throws {
        let count = Shared(0)
        try withServer(testConfiguration { $0.accessPolicy = policy(tokens: []) }, router: countingRouter(count)) { server in
            // text/plain needs no preflight: the browser sends it and only hides the answer.
            let crossSite = try RawHTTPClient(port: server.port).request("POST", "/echo/count", headers: [
                ("Origin", "https://evil.example"), ("Content-Type", "text/plain")], body: Array("x".utf8))
            #expect(crossSite.status == 403)
            #expect(crossSite.bodyText.contains("evil.example"))
            #expect(try RawHTTPClient(port: server.port).request("POST", "/echo/count", headers: [("Origin", "null")],
                                                                 body: Array("x".utf8)).status == 403)
            #expect(count.current == 0)
            // The server's own pages (same host and port) and CORS-allowed origins pass.
            let sameOrigin = try raw(server.port, "POST /echo/count HTTP/1.1\nHost: 127.0.0.1:\(server.port)\n"
                                     + "Origin: http://127.0.0.1:\(server.port)\nContent-Length: 1\n", body: "x")
            #expect(sameOrigin.status == 200)
            let allowed = try RawHTTPClient(port: server.port).request("POST", "/echo/count", headers: [("Origin", "https://allowed.example")],
                                                                      body: Array("x".utf8))
            #expect(allowed.status == 200)
            #expect(count.current == 2)
        }
    }

    @Test func withoutAPolicyEveryRequestIsAnswered() throws {
        try withServer { server in
            let response = try raw(server.port, "GET /scenes/1 HTTP/1.1\nHost: evil.example\n")
            #expect(response.status == 200)
        }
    }

    @Test func servesHTTPSWithTheGivenCertificate() throws {
        try #require(TLSCredentials.isSupported, "this libmicrohttpd has no TLS")
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        let credentials = try TLSCredentials(certificateFile: certificate.certificatePath, keyFile: certificate.keyPath)
        try withServer(testConfiguration { $0.tls = credentials }) { server in
            let secure = try certificate.curl("https://127.0.0.1:\(server.port)/hello")
            #expect(secure.status == 200, "curl exit \(secure.exitStatus)")
            #expect(secure.body == "hello")
            let put = try certificate.curl("https://localhost:\(server.port)/scenes/9")
            #expect(put.body == "{\"id\":\"9\"}")
            // Plain HTTP on the same port gets no HTTP answer.
            let client = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
            #expect(throws: (any Error).self) { try client.request("GET", "/hello") }
        }
    }

    @Test func credentialsThatAreNotPEMAreRefusedWithTheReason() throws {
        #expect(throws: TLSCredentialsError.self) { try TLSCredentials(certificatePEM: "not a certificate", keyPEM: "x") }
        do {
            _ = try TLSCredentials(certificateFile: "/nonexistent/cert.pem", keyFile: "/nonexistent/key.pem")
            Issue.record("a missing file was accepted")
        } catch {
            #expect("\(error)".contains("/nonexistent/cert.pem"))
        }
    }
}
