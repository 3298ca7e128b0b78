import Foundation
import TestSupport
import Testing
@testable import TapTraceHTTP

/// `ConnectionAcceptor`: each connection goes to the worker thread with the fewest open
/// connections (the connection limit: `ConnectionWatchTests`).
@Suite struct ConnectionBalancingTests {
    /// A router whose one route names the thread that served the request.
    private func threadRouter() -> Router {
        let router = Router()
        router.get("/thread") { _, _ in .text("\(pthread_self())") }
        return router
    }

    private func servingThread(_ client: RawHTTPClient) throws -> String {
        let response = try client.request("GET", "/thread")
        #expect(response.status == 200)
        return String(decoding: response.body, as: UTF8.self)
    }

    @Test func connectionsAreSharedEvenlyBetweenWorkers() throws {
        try withServer(testConfiguration { $0.threads = 2 }, router: threadRouter()) { server in
            let clients = try (0..<4).map { _ in try RawHTTPClient(port: server.port) }
            // One after another, each answered before the next connects: the counts are exact.
            let threads = try clients.map { try servingThread($0) }
            #expect(server.openConnectionsPerWorker == [2, 2])
            #expect(threads[0] == threads[2] && threads[1] == threads[3])
            #expect(threads[0] != threads[1], "both connections of a pair on one thread: \(threads)")

            // Each connection stays with its worker (keep-alive).
            #expect(try servingThread(clients[1]) == threads[1])

            // Closing worker 0's two connections makes it the one new connections go to.
            clients[0].close()
            clients[2].close()
            #expect(eventually { server.openConnectionsPerWorker == [0, 2] }, "\(server.openConnectionsPerWorker)")
            let newcomers = try (0..<2).map { _ in try RawHTTPClient(port: server.port) }
            #expect(try newcomers.map { try servingThread($0) } == [threads[0], threads[0]])
            #expect(server.openConnectionsPerWorker == [2, 2])
        }
    }

    @Test func closedConnectionsAreCountedOut() throws {
        try withServer(testConfiguration { $0.connectionLimit = 8 }, router: threadRouter()) { server in
            // Many more connections than the limit, closed by the client, by the server
            // (Connection: close) or without a request at all: none may stay counted, or the
            // acceptor would stop accepting at the limit.
            for round in 0..<60 {
                let client = try RawHTTPClient(port: server.port)
                switch round % 3 {
                case 0: _ = try servingThread(client)
                case 1: #expect(try client.request("GET", "/thread", headers: [("Connection", "close")]).status == 200)
                default: break
                }
                client.close()
            }
            #expect(eventually { server.openConnectionsPerWorker == [0, 0] }, "\(server.openConnectionsPerWorker)")
        }
    }

    @Test func oneWorkerServesEveryConnection() throws {
        try withServer(testConfiguration { $0.threads = 1 }, router: threadRouter()) { server in
            let clients = try (0..<3).map { _ in try RawHTTPClient(port: server.port) }
            let threads = try clients.map { try servingThread($0) }
            #expect(Set(threads).count == 1)
            #expect(server.openConnectionsPerWorker == [3])
        }
    }

    @Test func stoppingRefusesNewConnections() throws {
        let server = HTTPServer(configuration: testConfiguration(), router: threadRouter())
        try server.start()
        let port = server.port
        _ = try servingThread(RawHTTPClient(port: port))
        #expect(server.stop())
        #expect(throws: (any Error).self) { try RawHTTPClient(port: port) }
        #expect(server.openConnectionsPerWorker.isEmpty)
    }
}
