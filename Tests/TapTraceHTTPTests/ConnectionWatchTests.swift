import Foundation
import TestSupport
import Testing
@testable import TapTraceHTTP

/// `ConnectionWatch` (issue 34, item 2): whole-request deadlines that trickled bytes do not
/// reset, idle connections closed first at the connection limit, and work told when its client
/// hangs up.
@Suite struct ConnectionWatchTests {
    /// `/hello`, and `/wait`, a deferred response that is held until `release` is signalled,
    /// and `/until-cancelled`, which works until its client hangs up (at most 20 s) and
    /// reports to `cancelled` whether it was told.
    final class Routes: @unchecked Sendable {
        let release = DispatchSemaphore(value: 0)
        let cancelled = DispatchSemaphore(value: 0)
        let router = Router()

        init() {
            router.get("/hello") { _, _ in .text("hello") }
            router.get("/wait") { [release] _, _ in
                .deferred { complete in
                    DispatchQueue.global().async {
                        release.wait()
                        complete(.text("released"))
                    }
                }
            }
            router.get("/until-cancelled") { [cancelled] request, _ in
                .deferred { complete in
                    DispatchQueue.global().async {
                        let deadline = Date().addingTimeInterval(20)
                        while !request.cancellation.isCancelled, Date() < deadline { usleep(5_000) }
                        if request.cancellation.isCancelled { cancelled.signal() }
                        complete(.text("done"))
                    }
                }
            }
        }
    }

    /// Sends `bytes` one at a time, `interval` apart, until the server closes the connection;
    /// the seconds that took, or nil when every byte was sent and the connection stayed open.
    static func trickle(_ bytes: [UInt8], on client: RawHTTPClient, interval: Double) -> Double? {
        let start = Date()
        for byte in bytes {
            if (try? client.send([byte])) == nil { return Date().timeIntervalSince(start) }
            usleep(UInt32(interval * 1_000_000))
            if !client.hasDataWaiting(), Self.closed(client) { return Date().timeIntervalSince(start) }
        }
        return nil
    }

    /// Whether the peer has closed, without waiting.
    static func closed(_ client: RawHTTPClient) -> Bool {
        var entry = pollfd(fd: client.descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 0) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(client.descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) <= 0
    }

    @Test func aHeadTrickledByteByByteIsCutOffAtItsDeadline() throws {
        try withServer(testConfiguration { $0.requestHeadTimeoutSeconds = 1 }) { server in
            let slow = try RawHTTPClient(port: server.port)
            // A byte every 50 ms resets libmicrohttpd's own idle timeout each time; 120 bytes
            // would take 6 s.
            let head = Array("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: \(String(repeating: "a", count: 80))".utf8)
            let closedAfter = try #require(Self.trickle(head, on: slow, interval: 0.05), "the slow head was never cut off")
            #expect(closedAfter >= 0.9 && closedAfter < 3, "closed after \(closedAfter) s")
            // A head sent at once is answered as always.
            #expect(try RawHTTPClient(port: server.port).request("GET", "/hello").status == 200)
        }
    }

    @Test func aBodyTrickledByteByByteIsCutOffAtItsDeadline() throws {
        try withServer(testConfiguration { $0.requestBodyTimeoutSeconds = 1 }) { server in
            let slow = try RawHTTPClient(port: server.port)
            try slow.send("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 200\r\n\r\n")
            let closedAfter = try #require(Self.trickle(Array(repeating: 0x61, count: 120), on: slow, interval: 0.05),
                                           "the slow body was never cut off")
            #expect(closedAfter >= 0.9 && closedAfter < 3, "closed after \(closedAfter) s")
        }
    }

    @Test func anIdleKeepAliveConnectionIsClosedAfterTheHeadTimeout() throws {
        try withServer(testConfiguration { $0.requestHeadTimeoutSeconds = 1 }) { server in
            let client = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
            #expect(try client.request("GET", "/hello").status == 200)
            let idle = Date()
            #expect(client.peerClosed())
            let after = Date().timeIntervalSince(idle)
            #expect(after >= 0.9 && after < 3, "closed after \(after) s")
        }
    }

    @Test func atTheLimitTheLongestIdleConnectionMakesRoom() throws {
        let routes = Routes()
        try withServer(testConfiguration { $0.connectionLimit = 2 }, router: routes.router) { server in
            let first = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
            let second = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
            #expect(try first.request("GET", "/hello").status == 200)
            #expect(try second.request("GET", "/hello").status == 200)
            // Both idle; the third is served at once, and the first (idle longest) is closed.
            #expect(try RawHTTPClient(port: server.port, timeoutSeconds: 5).request("GET", "/hello").status == 200)
            #expect(first.peerClosed())
            #expect(try second.request("GET", "/hello").status == 200)
            #expect(server.watch.closedCounts.shed == 1)
        }
    }

    @Test func atTheLimitANewConnectionWaitsWhileEveryOneIsBusy() throws {
        let routes = Routes()
        try withServer(testConfiguration { $0.connectionLimit = 2 }, router: routes.router) { server in
            // Whatever fails below, the held responses end, or stopping the server waits for them.
            defer { routes.release.signal(); routes.release.signal() }
            let first = try RawHTTPClient(port: server.port)
            let second = try RawHTTPClient(port: server.port)
            try first.sendRequest("GET", "/wait")
            try second.sendRequest("GET", "/wait")
            #expect(eventually { server.watch.phases[.handling] == 2 })
            // Both connections are busy: the third is taken by the listen backlog, not served.
            let third = try RawHTTPClient(port: server.port, timeoutSeconds: 1)
            try third.sendRequest("GET", "/hello")
            #expect(throws: (any Error).self) { try third.readResponse() }   // timed out: no answer
            #expect(server.openConnectionsPerWorker.reduce(0, +) == 2)
            // One of them is answered and idle: it makes room for the third.
            routes.release.signal()
            #expect(eventually { first.hasDataWaiting() || second.hasDataWaiting() })
            let (answered, other) = first.hasDataWaiting() ? (first, second) : (second, first)
            #expect(try answered.readResponse().status == 200)
            #expect(try third.readResponse().status == 200)
            routes.release.signal()
            #expect(try other.readResponse().status == 200)
        }
    }

    @Test func workIsToldWhenItsClientHangsUp() throws {
        let routes = Routes()
        try withServer(router: routes.router) { server in
            let client = try RawHTTPClient(port: server.port)
            try client.sendRequest("GET", "/until-cancelled")
            #expect(eventually { server.watch.phases[.handling] == 1 })
            let hungUp = Date()
            client.close()
            #expect(routes.cancelled.wait(timeout: .now() + 5) == .success, "the work was never told")
            #expect(Date().timeIntervalSince(hungUp) < 2)
        }
    }

    @Test func workWhoseClientWaitsIsNotCancelled() throws {
        let routes = Routes()
        try withServer(router: routes.router) { server in
            defer { routes.release.signal() }
            let client = try RawHTTPClient(port: server.port)
            try client.sendRequest("GET", "/wait")
            #expect(eventually { server.watch.phases[.handling] == 1 })
            // Several sweeps pass while the client waits: nothing is cancelled or closed.
            usleep(500_000)
            routes.release.signal()
            #expect(try client.readResponse().bodyText == "released")
            #expect(server.watch.closedCounts.deadline == 0)
        }
    }
}
