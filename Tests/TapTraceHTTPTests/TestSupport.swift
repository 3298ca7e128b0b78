import Foundation
@testable import TapTraceHTTP

/// Limits small enough for tests to exceed cheaply.
func testConfiguration(_ adjust: (inout HTTPServerConfiguration) -> Void = { _ in }) -> HTTPServerConfiguration {
    var configuration = HTTPServerConfiguration(
        host: "127.0.0.1", port: 0, threads: 2, connectionTimeoutSeconds: 30,
        maxBodyBytes: 64 << 10, maxHeaderBytes: 8 << 10, maxURILength: 2 << 10,
        corsAllowedOrigins: ["https://allowed.example"], corsAllowedHeaders: ["Content-Type", "X-Trace"])
    adjust(&configuration)
    return configuration
}

/// The routes most tests use.
func sampleRouter() -> Router {
    let router = Router()
    router.get("/hello") { _, _ in .text("hello") }
    router.get("/scenes/{id}") { _, parameters in .json("{\"id\":\(HTTPResponse.jsonString(parameters["id"] ?? ""))}") }
    router.get("/scenes/new") { _, _ in .text("new-scene form") }
    router.put("/scenes/{id}") { request, parameters in .text("put \(parameters["id"] ?? "") \(request.body.count)") }
    router.get("/scenes/{id}/touches/{touch}") { _, parameters in
        .text("\(parameters["id"] ?? "?")|\(parameters["touch"] ?? "?")")
    }
    router.post("/echo") { request, _ in
        var response = HTTPResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: request.body)
        response.headers["X-Request-Method"] = request.method
        return response
    }
    router.get("/query") { request, _ in
        .text(request.queryItems.map { "\($0.name)=\($0.value)" }.joined(separator: "\n"))
    }
    router.get("/header") { request, _ in .text(request.header("x-trace") ?? "none") }
    return router
}

/// Starts a server on an ephemeral port, runs `body`, and stops the server.
@discardableResult
func withServer<Result>(_ configuration: HTTPServerConfiguration = testConfiguration(),
                        router: Router = sampleRouter(),
                        _ body: (HTTPServer) throws -> Result) throws -> Result {
    let server = HTTPServer(configuration: configuration, router: router)
    try server.start()
    defer { server.stop(timeout: 5) }
    return try body(server)
}
