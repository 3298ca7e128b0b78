import TestSupport
import Foundation
import Testing

/// 8 clients storing dispatches at once for a few seconds lose no run and get no error.
@Suite struct ConcurrencyTests {
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var runIDs: [String] = []
        private(set) var failures: [String] = []
        func record(run: String) { lock.lock(); runIDs.append(run); lock.unlock() }
        func record(failure: String) { lock.lock(); failures.append(failure); lock.unlock() }
    }

    @Test func eightClientsStoringDispatchesLoseNothing() throws {
        try withServer(extraArguments: ["--threads", "4"]) { server in
            let setup = try server.client()
            let sceneA = try setup.createScene(try Fixtures.checkoutScene())
            let sceneB = try setup.createScene(try Fixtures.checkoutV2Scene())
            let body = Array(try JSONSerialization.data(withJSONObject: try Fixtures.storedDispatchBody()))
            let tally = Tally()
            let port = server.port
            let deadline = Date().addingTimeInterval(3)
            let threads = (0..<8).map { n in
                TestThread {
                    do {
                        // Keep-alive connection per client; scene alternates so both cache
                        // entries and the single SQLite writer are shared.
                        let client = try RawHTTPClient(port: port)
                        let scene = n % 2 == 0 ? sceneA : sceneB
                        while Date() < deadline {
                            let response = try client.call("POST", "/v1/scenes/\(scene)/dispatch", body: body)
                            guard response.status == 201,
                                  let run = try response.object().string("id") else {
                                tally.record(failure: "\(response.status) \(response.bodyText.prefix(200))")
                                continue
                            }
                            tally.record(run: run)
                        }
                    } catch {
                        tally.record(failure: "\(error)")
                    }
                }
            }
            for thread in threads { #expect(thread.join(timeoutSeconds: 120)) }
            #expect(tally.failures.isEmpty, "\(tally.failures.prefix(5))")
            #expect(tally.runIDs.count >= 8)
            #expect(Set(tally.runIDs).count == tally.runIDs.count)

            let listed = try setup.allItems("/v1/scenes/\(sceneA)/runs", limit: 1000)
                + (try setup.allItems("/v1/scenes/\(sceneB)/runs", limit: 1000))
            #expect(Set(listed.map { $0.string("id")! }) == Set(tally.runIDs))
            #expect(listed.count == tally.runIDs.count)
        }
    }
}
