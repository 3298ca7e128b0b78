import TestSupport
import Foundation
import Testing
@testable import TapTraceHTTP

@Suite struct CORSTests {
    @Test func allowedOriginIsEchoed() throws {
        try withServer { server in
            let client = try RawHTTPClient(port: server.port)
            let response = try client.request("GET", "/hello", headers: [("Origin", "https://allowed.example")])
            #expect(response.status == 200)
            #expect(response.header("Access-Control-Allow-Origin") == "https://allowed.example")
            #expect(response.header("Vary") == "Origin")
            // Error responses carry it too, so browsers can read them.
            let missing = try client.request("GET", "/nope", headers: [("Origin", "https://allowed.example")])
            #expect(missing.status == 404)
            #expect(missing.header("Access-Control-Allow-Origin") == "https://allowed.example")
        }
    }

    @Test func otherOriginsGetNoCORSHeaders() throws {
        try withServer { server in
            let client = try RawHTTPClient(port: server.port)
            let foreign = try client.request("GET", "/hello", headers: [("Origin", "https://evil.example")])
            #expect(foreign.status == 200)
            #expect(foreign.header("Access-Control-Allow-Origin") == nil)
            #expect(foreign.header("Vary") == "Origin")
            let noOrigin = try client.request("GET", "/hello")
            #expect(noOrigin.header("Access-Control-Allow-Origin") == nil)
        }
    }

    @Test func preflightForAllowedOrigin() throws {
        try withServer { server in
            let client = try RawHTTPClient(port: server.port)
            let response = try client.request("OPTIONS", "/scenes/7", headers: [
                ("Origin", "https://allowed.example"),
                ("Access-Control-Request-Method", "PUT"),
                ("Access-Control-Request-Headers", "content-type"),
            ])
            #expect(response.status == 204)
            #expect(response.header("Access-Control-Allow-Origin") == "https://allowed.example")
            #expect(response.header("Access-Control-Allow-Methods") == "GET, HEAD, OPTIONS, PUT")
            #expect(response.header("Access-Control-Allow-Headers") == "Content-Type, X-Trace")
            #expect(response.header("Access-Control-Max-Age") == "600")
            #expect(response.header("Vary") == "Origin")
            #expect(response.header("Allow") == "GET, HEAD, OPTIONS, PUT")
        }
    }

    @Test func preflightForOtherOriginAndUnknownPath() throws {
        try withServer { server in
            let client = try RawHTTPClient(port: server.port)
            let foreign = try client.request("OPTIONS", "/scenes/7", headers: [
                ("Origin", "https://evil.example"), ("Access-Control-Request-Method", "PUT"),
            ])
            #expect(foreign.status == 204)
            #expect(foreign.header("Access-Control-Allow-Origin") == nil)
            #expect(foreign.header("Access-Control-Allow-Methods") == nil)
            #expect(foreign.header("Allow") == "GET, HEAD, OPTIONS, PUT")
            let unknown = try client.request("OPTIONS", "/nope", headers: [
                ("Origin", "https://allowed.example"), ("Access-Control-Request-Method", "GET"),
            ])
            #expect(unknown.status == 404)
        }
    }

    @Test func disabledCORSAddsNothing() throws {
        try withServer(testConfiguration { $0.corsAllowedOrigins = [] }) { server in
            let client = try RawHTTPClient(port: server.port)
            let response = try client.request("GET", "/hello", headers: [("Origin", "https://allowed.example")])
            #expect(response.header("Access-Control-Allow-Origin") == nil)
            #expect(response.header("Vary") == nil)
            let options = try client.request("OPTIONS", "/hello", headers: [
                ("Origin", "https://allowed.example"), ("Access-Control-Request-Method", "GET"),
            ])
            #expect(options.status == 204)
            #expect(options.header("Allow") == "GET, HEAD, OPTIONS")
            #expect(options.header("Access-Control-Allow-Origin") == nil)
        }
    }
}
