import TestSupport
import Foundation
import Testing
@testable import TapTraceHTTP

/// The errors the server produces itself go through `errorResponder` when one is configured.
@Suite struct ErrorResponderTests {
    static func configuration() -> HTTPServerConfiguration {
        testConfiguration { configuration in
            configuration.errorResponder = { status, detail in
                HTTPResponse(status: status, headers: ["Content-Type": "application/problem+json"],
                             body: Array("{\"status\":\(status),\"detail\":\(HTTPResponse.jsonString(detail))}".utf8))
            }
        }
    }

    @Test func routingErrorsUseTheResponder() throws {
        try withServer(Self.configuration()) { server in
            let client = try RawHTTPClient(port: server.port)
            let missing = try client.request("GET", "/nowhere")
            #expect(missing.status == 404)
            #expect(missing.header("Content-Type") == "application/problem+json")
            #expect(missing.bodyText == #"{"status":404,"detail":"no route for /nowhere"}"#)

            let wrongMethod = try client.request("DELETE", "/hello")
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.header("Content-Type") == "application/problem+json")
            #expect(wrongMethod.header("Allow") == "GET, HEAD, OPTIONS")
            // CORS fields are still added after the responder.
            let cors = try client.request("GET", "/nowhere", headers: [("Origin", "https://allowed.example")])
            #expect(cors.header("Access-Control-Allow-Origin") == "https://allowed.example")
        }
    }

    @Test func limitErrorsUseTheResponder() throws {
        try withServer(Self.configuration()) { server in
            let body = try RawHTTPClient(port: server.port)
            try body.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\n\r\n")
            let tooLarge = try body.readResponse()
            #expect(tooLarge.status == 413)
            #expect(tooLarge.header("Content-Type") == "application/problem+json")

            let uri = try RawHTTPClient(port: server.port)
            let longTarget = try uri.request("GET", "/" + String(repeating: "a", count: 3000))
            #expect(longTarget.status == 414)
            #expect(longTarget.header("Content-Type") == "application/problem+json")

            let head = try RawHTTPClient(port: server.port)
            let bigHeader = try head.request("GET", "/hello", headers: [("X-Big", String(repeating: "b", count: 9000))])
            #expect(bigHeader.status == 431)
            #expect(bigHeader.header("Content-Type") == "application/problem+json")
        }
    }
}
