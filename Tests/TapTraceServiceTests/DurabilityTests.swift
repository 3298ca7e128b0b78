#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TapTraceStore
import TestSupport
import Testing

/// What a client was told is stored survives the server being killed at any moment (issue 34,
/// item 10: the probe as a test). Writers store runs and scenes as fast as they can; the server
/// is killed with SIGKILL in the middle, three times, and started again on the same file each
/// time. Every run and scene acknowledged (201) must be there afterwards, and SQLite's integrity
/// check must pass.
@Suite struct DurabilityTests {
    @Test func acknowledgedWritesSurviveSIGKILL() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let sceneDocument = try Fixtures.checkoutScene()
        let dispatch = try JSONSerialization.data(withJSONObject: try Fixtures.storedDispatchBody())
        let runs = Locked([String]())
        let scenes = Locked([String]())

        for round in 0..<3 {
            let server = try ServerProcess(database: directory.databasePath)
            let sceneID = try server.client().createScene(sceneDocument)
            scenes.withLock { $0.append(sceneID) }
            let port = server.port
            let stop = Locked(false)
            let group = DispatchGroup()
            for writer in 0..<8 {
                DispatchQueue.global().async(group: group) {
                    var client: RawHTTPClient?
                    var iteration = 0
                    while !stop.withLock({ $0 }) {
                        iteration += 1
                        do {
                            if client == nil { client = try RawHTTPClient(port: port, timeoutSeconds: 10) }
                            // One writer in four also stores new scenes; the rest store runs.
                            if writer % 4 == 0, iteration % 3 == 0 {
                                let response = try client!.request("POST", "/v1/scenes", headers: [("Content-Type", "application/json")],
                                                                   body: sceneDocument)
                                if response.status == 201, let id = try response.object()["id"] as? String {
                                    scenes.withLock { $0.append(id) }
                                }
                            } else {
                                let response = try client!.request("POST", "/v1/scenes/\(sceneID)/dispatch",
                                                                   headers: [("Content-Type", "application/json")], body: Array(dispatch))
                                if response.status == 201, let id = try response.object()["id"] as? String {
                                    runs.withLock { $0.append(id) }
                                }
                            }
                        } catch {
                            // The server was killed under this request: nothing was acknowledged.
                            client?.close()
                            client = nil
                            usleep(10_000)
                        }
                    }
                    client?.close()
                }
            }
            // Killed at a different moment of the writing each round.
            usleep(UInt32(700_000 + round * 250_000))
            kill(server.process.processIdentifier, SIGKILL)
            server.process.waitUntilExit()
            stop.withLock { $0 = true }
            group.wait()
        }

        let acknowledgedRuns = runs.withLock { $0 }
        let acknowledgedScenes = scenes.withLock { $0 }
        #expect(acknowledgedRuns.count > 50, "too few runs were written to test anything: \(acknowledgedRuns.count)")
        let server = try ServerProcess(database: directory.databasePath)
        let client = try server.client()
        var lostRuns: [String] = [], lostScenes: [String] = []
        for id in acknowledgedRuns where try client.call("GET", "/v1/runs/\(id)").status != 200 { lostRuns.append(id) }
        for id in acknowledgedScenes where try client.call("GET", "/v1/scenes/\(id)").status != 200 { lostScenes.append(id) }
        print("durability: \(acknowledgedRuns.count) runs and \(acknowledgedScenes.count) scenes acknowledged across three SIGKILLs, "
              + "\(lostRuns.count + lostScenes.count) lost")
        #expect(lostRuns.isEmpty, "\(lostRuns.count) of \(acknowledgedRuns.count) acknowledged runs lost: \(lostRuns.prefix(5))")
        #expect(lostScenes.isEmpty, "\(lostScenes.count) of \(acknowledgedScenes.count) acknowledged scenes lost")
        server.stop()

        let store = try SQLiteTraceStore(location: .file(directory.databasePath))
        #expect(try store.integrityCheck() == ["ok"])
        try store.close()
    }
}
