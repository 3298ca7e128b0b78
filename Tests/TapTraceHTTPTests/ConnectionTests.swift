import TestSupport
import Foundation
import Testing
@testable import TapTraceHTTP

@Suite struct ConnectionTests {
    @Test func keepAliveServesTwoRequestsOnOneConnection() throws {
        try withServer { server in
            let client = try RawHTTPClient(port: server.port)
            let first = try client.request("GET", "/hello")
            #expect(first.status == 200)
            #expect(first.header("Connection")?.lowercased() != "close")
            let second = try client.request("GET", "/scenes/2")
            #expect(second.status == 200)
            #expect(second.bodyText == "{\"id\":\"2\"}")
            // Pipelined: both requests sent before either response is read.
            try client.sendRequest("GET", "/scenes/3")
            try client.sendRequest("GET", "/scenes/4")
            #expect(try client.readResponse().bodyText == "{\"id\":\"3\"}")
            #expect(try client.readResponse().bodyText == "{\"id\":\"4\"}")
        }
    }

    @Test func concurrentClientsAllSucceed() throws {
        try withServer { server in
            let port = server.port
            let failures = Shared<[String]>([])
            let successes = Shared(0)
            let clients = (0..<8).map { clientIndex in
                TestThread {
                    do {
                        // Even clients reuse one keep-alive connection, odd ones reconnect.
                        var connection = try RawHTTPClient(port: port)
                        for requestIndex in 0..<50 {
                            if clientIndex % 2 == 1 { connection = try RawHTTPClient(port: port) }
                            let id = "c\(clientIndex)-r\(requestIndex)"
                            let response = try connection.request("GET", "/scenes/\(id)")
                            if response.status == 200 && response.bodyText == "{\"id\":\"\(id)\"}" {
                                successes.update { $0 += 1 }
                            } else {
                                failures.update { $0.append("\(id): \(response.status) \(response.bodyText)") }
                            }
                        }
                    } catch {
                        failures.update { $0.append("client \(clientIndex): \(error)") }
                    }
                }
            }
            for client in clients { #expect(client.join(timeoutSeconds: 120)) }
            #expect(failures.current == [])
            #expect(successes.current == 400)
            #expect(eventually { server.inFlightRequests == 0 })
        }
    }

    @Test func gracefulStopLetsInFlightRequestFinish() throws {
        let started = DispatchSemaphore(value: 0)
        let handlerFinished = Shared(false)
        let router = Router()
        router.get("/slow") { _, _ in
            started.signal()
            usleep(400_000)
            handlerFinished.update { $0 = true }
            return .text("slow done")
        }
        let server = HTTPServer(configuration: testConfiguration(), router: router)
        try server.start()
        let port = server.port
        let outcome = Shared<Result<RawHTTPClient.Response, any Error>?>(nil)
        let client = TestThread {
            let result = Result { () throws -> RawHTTPClient.Response in
                try RawHTTPClient(port: port).request("GET", "/slow")
            }
            outcome.update { $0 = result }
        }
        #expect(started.wait(timeout: .now() + 20) == .success)
        #expect(server.inFlightRequests == 1)

        let drained = server.stop(timeout: 20)

        #expect(drained)
        #expect(handlerFinished.current)
        #expect(!server.isRunning)
        #expect(server.port == 0)
        #expect(client.join())
        let response = try #require(outcome.current).get()
        #expect(response.status == 200)
        #expect(response.bodyText == "slow done")
        #expect(response.header("Connection")?.lowercased() == "close")
        #expect(throws: RawHTTPClient.ClientError.self) { _ = try RawHTTPClient(port: port) }
    }

    @Test func stopTimesOutOnAHandlerThatTakesTooLong() throws {
        let started = DispatchSemaphore(value: 0)
        let router = Router()
        router.get("/slower") { _, _ in
            started.signal()
            usleep(1_500_000)
            return .text("late")
        }
        let server = HTTPServer(configuration: testConfiguration(), router: router)
        try server.start()
        let port = server.port
        let client = TestThread { _ = try? RawHTTPClient(port: port).request("GET", "/slower") }
        #expect(started.wait(timeout: .now() + 20) == .success)
        #expect(server.stop(timeout: 0.05) == false)
        #expect(!server.isRunning)
        #expect(client.join())
    }

    @Test func portInUseIsAThrownError() throws {
        try withServer { first in
            let port = first.port
            let second = HTTPServer(configuration: testConfiguration { $0.port = port }, router: Router())
            #expect(throws: HTTPServerError.self) { try second.start() }
            do {
                try second.start()
                second.stop()
            } catch let error as HTTPServerError {
                guard case .startFailed(let address, let reason) = error else {
                    Issue.record("unexpected error \(error)")
                    return
                }
                #expect(address == "127.0.0.1:\(port)")
                #expect(reason.contains("in use"), "reason: \(reason)")
                #expect(error.description.hasPrefix("could not start the HTTP server on 127.0.0.1:\(port): "))
            }
            #expect(!second.isRunning)
            // The first server is unaffected.
            #expect(try RawHTTPClient(port: port).request("GET", "/hello").status == 200)
        }
    }

    @Test func invalidHostAndDoubleStartAreErrors() throws {
        let bad = HTTPServer(configuration: testConfiguration { $0.host = "not-an-address" }, router: Router())
        #expect(throws: HTTPServerError.invalidHost("not-an-address")) { try bad.start() }
        try withServer { server in
            #expect(throws: HTTPServerError.alreadyRunning) { try server.start() }
        }
    }

    @Test func requestLoggerSeesEveryResponse() throws {
        let entries = Shared<[String]>([])
        let durations = Shared<[Double]>([])
        let configuration = testConfiguration {
            $0.requestLogger = { method, path, status, seconds in
                entries.update { $0.append("\(method) \(path) \(status)") }
                durations.update { $0.append(seconds) }
            }
        }
        try withServer(configuration) { server in
            // A response is logged once it has gone out, on its connection's thread: the next
            // request, on another connection, could be logged first. Each is waited for.
            let client = try RawHTTPClient(port: server.port)
            _ = try client.request("GET", "/scenes/a%20b?x=1")
            #expect(eventually { entries.current.count == 1 })
            _ = try client.request("POST", "/echo", body: [1, 2, 3])
            #expect(eventually { entries.current.count == 2 })
            _ = try client.request("GET", "/missing")
            #expect(eventually { entries.current.count == 3 })
            _ = try RawHTTPClient(port: server.port).request("GET", "/hello", headers: [("X-Big", String(repeating: "b", count: 10_000))])
            #expect(eventually { entries.current.count == 4 })
            // The path logged is the one routed: without a fragment, "/" when empty.
            let fragment = try RawHTTPClient(port: server.port)
            #expect(try fragment.request("GET", "/hello#top").status == 200)
            #expect(eventually { entries.current.count == 5 })
            #expect(try fragment.request("GET", "#top").status == 404)
            #expect(eventually { entries.current.count == 6 })
        }
        #expect(entries.current == ["GET /scenes/a b 200", "POST /echo 200", "GET /missing 404", "GET /hello 431",
                                    "GET /hello 200", "GET / 404"])
        #expect(durations.current.allSatisfy { $0 >= 0 && $0 < 60 })
    }

    @Test func serversCanRestartAndBindIPv6Loopback() throws {
        let server = HTTPServer(configuration: testConfiguration { $0.host = "::1" }, router: sampleRouter())
        do {
            try server.start()
        } catch {
            // No IPv6 on this machine: nothing to test.
            return
        }
        #expect(server.port != 0)
        server.stop()
        try server.start()
        #expect(server.isRunning)
        server.stop()
        #expect(!server.isRunning)
    }
}
