import TestSupport
import Foundation
import Testing

/// What was stored before a restart is all there after it.
@Suite struct PersistenceTests {
    @Test func restartKeepsScenesVersionsAndRuns() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }

        var sceneIDs: [String] = []
        var snapshot: [String: [UInt8]] = [:]
        func capture(_ client: RawHTTPClient) throws -> [String: [UInt8]] {
            var bodies: [String: [UInt8]] = [:]
            bodies["/v1/scenes"] = try client.call("GET", "/v1/scenes?limit=1000").body
            for id in sceneIDs {
                for path in ["/v1/scenes/\(id)", "/v1/scenes/\(id)?version=1", "/v1/scenes/\(id)/versions",
                             "/v1/scenes/\(id)/runs?limit=1000"] {
                    bodies[path] = try client.call("GET", path).body
                }
                for run in try client.allItems("/v1/scenes/\(id)/runs", limit: 1000) {
                    let path = "/v1/runs/\(run.string("id")!)"
                    bodies[path] = try client.call("GET", path).body
                }
            }
            return bodies
        }

        do {
            let server = try ServerProcess(database: directory.databasePath)
            let client = try server.client()
            let a = try client.createScene(try Fixtures.checkoutScene())
            let b = try client.createScene(try Paths.example("tabbar.scene.json"))
            sceneIDs = [a, b]
            _ = try client.storeDispatch(a)
            _ = try client.call("PUT", "/v1/scenes/\(a)", body: try Fixtures.checkoutV2Scene())
            _ = try client.storeDispatch(a)
            #expect(try client.call("POST", "/v1/scenes/\(a)/replay", json: ["from": 1, "to": 2]).status == 200)
            snapshot = try capture(client)
            #expect(server.stop() == 0)
            #expect(server.stderr.contains("stopped"))
        }

        let restarted = try ServerProcess(database: directory.databasePath)
        defer { restarted.stop() }
        let after = try capture(try restarted.client())
        #expect(after.keys.sorted() == snapshot.keys.sorted())
        #expect(snapshot.count == 1 + 2 * 4 + 3)  // listing, 4 reads per scene, 3 runs of scene a
        for (path, body) in snapshot {
            #expect(after[path] == body, "\(path) differs after the restart")
        }
        // And the restarted server keeps working on the old data.
        #expect(try restarted.client().storeDispatch(sceneIDs[0]).int("sceneVersion") == 2)
    }

    @Test func memoryDatabaseStartsEmptyEachTime() throws {
        let first = try ServerProcess(database: ":memory:")
        _ = try first.client().createScene(try Fixtures.checkoutScene())
        let health = try first.client().call("GET", "/health").object()
        #expect(health.object("database")?.string("journalMode") == "memory")
        first.stop()
        let second = try ServerProcess(database: ":memory:")
        defer { second.stop() }
        #expect(try second.client().call("GET", "/v1/scenes").object().array("items").isEmpty)
    }
}
