#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing

/// `taptrace serve` stays available to everyone while some clients hold connections open by
/// sending slowly and others keep its workers busy with the heaviest requests the limits allow
/// (issue 34, items 2 and 10). Before `ConnectionWatch` and the work pool, 256 slow clients held
/// every connection (`/health` answered 0 of 29 probes in 58 s) and two heavy requests held
/// both worker threads.
@Suite(.serialized) struct AvailabilityTests {
    /// A stateless dispatch of one drag of `steps` moves. With 12,000 it is about as heavy as
    /// the default limits allow (60,000 trace entries of the 100,000 allowed, a 19 MB answer):
    /// most of a second of work in a debug build.
    static func heaviestDispatch(steps: Int = 12_000) throws -> [UInt8] {
        let scene = try JSONSerialization.jsonObject(with: Data(try Fixtures.checkoutScene()))
        let request: [String: Any] = [
            "scene": scene,
            "touches": ["gestures": [["drag": ["from": [100, 220], "to": [100, 420]], "duration": 30, "steps": steps]]],
        ]
        return Array(try JSONSerialization.data(withJSONObject: request))
    }

    /// Seconds one request takes on a connection of its own, from connecting to the last byte.
    static func timed(_ port: UInt16, _ method: String, _ target: String) throws -> (seconds: Double, status: Int) {
        let start = Date()
        let client = try RawHTTPClient(port: port, timeoutSeconds: 30)
        defer { client.close() }
        let response = try client.request(method, target)
        return (Date().timeIntervalSince(start), response.status)
    }

    /// The value below which `fraction` of `values` lie.
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
    }

    @Test func healthAndSmallRequestsAnswerUnderSlowClientsAndHeavyWork() throws {
        try withServer { server in
            _ = try server.client().createScene(try Fixtures.checkoutScene())

            // 1,000 slow clients from 1,000 addresses, each with a request head it never
            // finishes, a byte every half second.
            var slow: [SourceConnection] = []
            for index in 0..<1_000 {
                let connection = try SourceConnection(from: "127.0.\(1 + index / 200).\(1 + index % 200)", to: server.port)
                connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                slow.append(connection)
            }
            let stop = Locked(false)
            let descriptors = slow.map(\.fd)
            let trickling = Thread {
                while !stop.withLock({ $0 }) {
                    for descriptor in descriptors { _ = Glibc.send(descriptor, "a", 1, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
                    usleep(500_000)
                }
            }
            trickling.start()

            // Heavy requests, four at a time (twice the work threads of a 2-core machine),
            // each sent again when answered.
            let heavy = try Self.heaviestDispatch()
            let heavyAnswers = Locked([Int]())
            let group = DispatchGroup()
            let port = server.port
            for _ in 0..<4 {
                DispatchQueue.global().async(group: group) {
                    while !stop.withLock({ $0 }) {
                        guard let client = try? RawHTTPClient(port: port, timeoutSeconds: 120),
                              let response = try? client.request("POST", "/v1/dispatch", headers: [("Content-Type", "application/json")],
                                                                 body: heavy) else { continue }
                        heavyAnswers.withLock { $0.append(response.status) }
                        client.close()
                    }
                }
            }
            usleep(1_000_000)

            var health: [Double] = [], listings: [Double] = []
            for _ in 0..<25 {
                let probe = try Self.timed(server.port, "GET", "/health")
                #expect(probe.status == 200)
                health.append(probe.seconds)
                let listing = try Self.timed(server.port, "GET", "/v1/scenes")
                #expect(listing.status == 200)
                listings.append(listing.seconds)
                usleep(100_000)
            }
            stop.withLock { $0 = true }
            group.wait()
            slow.removeAll()

            let report = String(format: "/health p50 %.1f ms, p99 %.1f ms, max %.1f ms; GET /v1/scenes p50 %.1f ms, p99 %.1f ms, max %.1f ms",
                                Self.percentile(health, 0.5) * 1000, Self.percentile(health, 0.99) * 1000, health.max()! * 1000,
                                Self.percentile(listings, 0.5) * 1000, Self.percentile(listings, 0.99) * 1000, listings.max()! * 1000)
            print("availability under 1,000 slow clients and 4 heavy requests at a time: \(report)")
            #expect(health.allSatisfy { $0 < 1 }, "\(report)")
            #expect(listings.allSatisfy { $0 < 1 }, "\(report)")
            // The heavy requests were worked on meanwhile, and answered.
            let statuses = heavyAnswers.withLock { $0 }
            #expect(statuses.count >= 2)
            #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
        }
    }

    @Test func aHeavyRequestWhoseClientHangsUpStops() throws {
        // No limits: the work (seconds) would run to its end but for the hang-up.
        let unlimited = ["--request-time-budget", "--max-records", "--max-trace-entries", "--max-response-bytes"].flatMap { [$0, "off"] }
        try withServer(extraArguments: unlimited) { server in
            let heavy = try Self.heaviestDispatch(steps: 100_000)
            let client = try RawHTTPClient(port: server.port)
            try client.sendRequest("POST", "/v1/dispatch", headers: [("Content-Type", "application/json")], body: heavy)
            usleep(200_000)
            client.close()
            // Its log line: 503 (cancelled), well before the work's own length.
            let full = try Self.timed(server.port, "GET", "/health")
            #expect(full.status == 200)
            #expect(eventually(timeoutSeconds: 30) { server.stderr.contains("POST /v1/dispatch 503 ") }, "\(server.stderr)")
            let line = try #require(server.stderr.split(separator: "\n").first { $0.hasPrefix("POST /v1/dispatch 503 ") })
            let milliseconds = try #require(Double(line.split(separator: " ").last!.dropLast(2)))
            // Answered in full, the same request takes several times as long.
            let start = Date()
            let answered = try RawHTTPClient(port: server.port, timeoutSeconds: 120)
                .request("POST", "/v1/dispatch", headers: [("Content-Type", "application/json")], body: heavy)
            #expect(answered.status == 200)
            let wholeMilliseconds = Date().timeIntervalSince(start) * 1000
            #expect(milliseconds < wholeMilliseconds * 0.75, "cancelled after \(milliseconds) ms; the whole request takes \(wholeMilliseconds) ms")
        }
    }
}
