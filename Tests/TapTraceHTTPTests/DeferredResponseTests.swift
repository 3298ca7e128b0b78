import Foundation
import TestSupport
import Testing
@testable import TapTraceHTTP

/// `HTTPResponse.deferred`: the connection is suspended while another thread produces the
/// response, the worker threads go on serving, and what arrives is decorated and logged like
/// any response.
@Suite struct DeferredResponseTests {
    /// A worker that completes deferred requests when told to, from its own thread.
    final class Gate: @unchecked Sendable {
        private let lock = NSLock()
        private var waiting: [(String, @Sendable (HTTPResponse) -> Void)] = []
        var count: Int { lock.withLock { waiting.count } }
        func add(_ tag: String, _ complete: @escaping @Sendable (HTTPResponse) -> Void) {
            lock.withLock { waiting.append((tag, complete)) }
        }
        /// Completes everything waiting, from a new thread.
        func open() {
            let all = lock.withLock { () -> [(String, @Sendable (HTTPResponse) -> Void)] in
                defer { waiting = [] }
                return waiting
            }
            TestThread {
                for (tag, complete) in all {
                    complete(.text("done \(tag)", status: 201))
                    complete(.text("a second completion is ignored", status: 500))
                }
            }.join()
        }
    }

    static func router(_ gate: Gate) -> Router {
        let router = sampleRouter()
        router.post("/later/{tag}") { _, parameters in
            let tag = parameters["tag"] ?? "?"
            return .deferred { complete in gate.add(tag, complete) }
        }
        router.get("/now") { _, _ in .deferred { complete in complete(.text("at once")) } }
        return router
    }

    @Test func theResponseArrivesWhenCompletedAndOthersAreServedMeanwhile() throws {
        let gate = Gate()
        let logged = Shared<[String]>([])
        let configuration = testConfiguration { $0.threads = 1; $0.requestLogger = { method, path, status, _ in
            logged.update { $0.append("\(method) \(path) \(status)") } } }
        try withServer(configuration, router: Self.router(gate)) { server in
            // Eight suspended requests on a server with one worker thread...
            let clients = try (0..<8).map { _ in try RawHTTPClient(port: server.port) }
            for (k, client) in clients.enumerated() { try client.sendRequest("POST", "/later/\(k)", headers: [("Origin", "https://allowed.example")]) }
            #expect(eventually { gate.count == 8 })
            // ...and the thread still answers others.
            let other = try RawHTTPClient(port: server.port)
            #expect(try other.request("GET", "/hello").body == Array("hello".utf8))
            gate.open()
            for (k, client) in clients.enumerated() {
                let response = try client.readResponse()
                #expect(response.status == 201)
                #expect(response.body == Array("done \(k)".utf8))
                #expect(response.header("Access-Control-Allow-Origin") == "https://allowed.example")
                // The connection stays usable (keep-alive).
                #expect(try client.request("GET", "/hello").status == 200)
            }
        }
        #expect(logged.current.filter { $0 == "POST /later/3 201" }.count == 1)
    }

    @Test func completingAtOnceWorks() throws {
        try withServer(router: Self.router(Gate())) { server in
            let client = try RawHTTPClient(port: server.port)
            for _ in 0..<20 { #expect(try client.request("GET", "/now").body == Array("at once".utf8)) }
        }
    }

    /// `HTTPResponse.building`: a deferred response completed on a busy thread (the run
    /// writer) leaves its body to be built on the connection's own thread.
    @Test func aBodyLeftToBuildIsBuiltOnTheConnectionsThread() throws {
        let completer = Shared<pthread_t?>(nil)
        let builders = Shared<[pthread_t]>([])
        let router = sampleRouter()
        router.get("/built") { _, _ in
            .deferred { complete in
                TestThread {
                    completer.update { $0 = pthread_self() }
                    complete(.building(status: 203, headers: ["Content-Type": "text/plain"]) {
                        builders.update { $0.append(pthread_self()) }
                        return Array("built".utf8)
                    })
                }.join()
            }
        }
        try withServer(router: router) { server in
            let response = try RawHTTPClient(port: server.port).request("GET", "/built")
            #expect(response.status == 203)
            #expect(response.body == Array("built".utf8))
            #expect(response.header("Content-Type") == "text/plain")
        }
        let completing = try #require(completer.current)
        #expect(builders.current.count == 1)
        #expect(builders.current.allSatisfy { pthread_equal($0, completing) == 0 })
    }

    @Test func stopWaitsForDeferredResponses() throws {
        let gate = Gate()
        let server = HTTPServer(configuration: testConfiguration(), router: Self.router(gate))
        try server.start()
        let client = try RawHTTPClient(port: server.port)
        try client.sendRequest("POST", "/later/x")
        #expect(eventually { gate.count == 1 })
        let stopped = Shared(false)
        let stopping = TestThread { server.stop(timeout: 0.05); stopped.update { $0 = true } }
        usleep(200_000)
        #expect(!stopped.current)   // past its timeout, still waiting for the deferred response
        gate.open()
        #expect(stopping.join(timeoutSeconds: 10))
        #expect(stopped.current)
        let response = try client.readResponse()
        #expect(response.status == 201)
        #expect(response.header("Connection")?.lowercased() == "close")
    }

    /// A client that goes away while its response is deferred: once the response is ready and
    /// the connection resumed, libmicrohttpd closes it without asking for the response; the
    /// server must not keep waiting for it when it stops.
    @Test func aClientGoneWhileDeferredDoesNotHoldTheStop() throws {
        let gate = Gate()
        let server = HTTPServer(configuration: testConfiguration(), router: Self.router(gate))
        try server.start()
        let clients = try (0..<4).map { _ in try RawHTTPClient(port: server.port) }
        for (k, client) in clients.enumerated() { try client.sendRequest("POST", "/later/\(k)") }
        #expect(eventually { gate.count == 4 })
        for client in clients { client.close() }
        usleep(50_000)
        gate.open()
        #expect(eventually { server.inFlightRequests == 0 })
        let stopped = Shared(false)
        let stopping = TestThread { server.stop(timeout: 1); stopped.update { $0 = true } }
        #expect(stopping.join(timeoutSeconds: 10))
        #expect(stopped.current)
    }
}
