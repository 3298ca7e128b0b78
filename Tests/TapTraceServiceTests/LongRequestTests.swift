import Foundation
import TestSupport
import Testing
import TapTraceStore

/// A replay re-runs every stored run of a version, and deleting a scene removes all its runs:
/// with many runs both take a while, and neither may take a worker thread with it. Each worker
/// serves its connections in turn, so work done on one would hold up every request on that
/// worker's connections until it ends.
@Suite struct LongRequestTests {
    /// `count` copies of the scene's first run of version 1, written directly (another process
    /// on the same file).
    static func copyFirstRun(of id: String, count: Int, in server: ServerProcess) throws {
        let other = try SQLiteTraceStore(location: .file(server.databasePath))
        let original = try #require(try other.runs(sceneID: id, version: 1).first)
        let copy = NewRun(sceneID: id, sceneVersion: 1, request: original.request, result: original.result,
                          firstResponder: original.summary.firstResponder, actions: original.summary.actions,
                          outcome: original.summary.outcome, actionCount: original.summary.actionCount)
        _ = try other.insertRuns(Array(repeating: copy, count: count))
        try other.close()
    }

    @Test func aLongReplayDoesNotHoldUpOtherRequests() throws {
        // One worker thread: both connections below are served by it.
        // The time budget off: these test concurrency, and a debug build under load takes
        // longer than the default 30 s for the work they give.
        try withServer(extraArguments: ["--threads", "1", "--request-time-budget", "off"]) { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            _ = try client.storeDispatch(id)
            _ = try client.call("PUT", "/v1/scenes/\(id)", body: try Fixtures.checkoutV2Scene())

            // 1,500 more runs of version 1: their replay takes seconds in a debug build.
            try Self.copyFirstRun(of: id, count: 1_500, in: server)

            let replaying = try RawHTTPClient(port: server.port, timeoutSeconds: 300)
            try replaying.sendRequest("POST", "/v1/scenes/\(id)/replay", headers: [("Content-Type", "application/json")],
                                      body: Array(#"{"from":1,"to":2}"#.utf8))
            // Let the replay reach the server and start (for the order of events; nothing is timed).
            usleep(100_000)
            let health = try RawHTTPClient(port: server.port, timeoutSeconds: 300).call("GET", "/health")
            #expect(health.status == 200)
            // The health check was answered while the replay was still being computed: none of
            // the replay's answer has arrived yet.
            #expect(!replaying.hasDataWaiting(), "the health check waited for the replay")

            let report = try replaying.readResponse()
            #expect(report.status == 200)
            #expect(try report.object().int("count") == 1_501)
        }
    }

    @Test func deletingASceneWithManyRunsDoesNotHoldUpOtherRequests() throws {
        // The time budget off: these test concurrency, and a debug build under load takes
        // longer than the default 30 s for the work they give.
        try withServer(extraArguments: ["--threads", "1", "--request-time-budget", "off"]) { server in
            let id: String
            do {
                let client = try server.client()
                id = try client.createScene(try Fixtures.checkoutScene())
                _ = try client.storeDispatch(id)
            }
            // 200,000 runs: deleting them (chunk after chunk) takes a second or two. Writing them
            // takes longer than the server keeps an idle connection open (30 s), so every
            // connection below is opened afterwards.
            try Self.copyFirstRun(of: id, count: 200_000, in: server)
            let client = try server.client()

            let deleting = try RawHTTPClient(port: server.port, timeoutSeconds: 300)
            try deleting.sendRequest("DELETE", "/v1/scenes/\(id)")
            // Long enough for the request to reach the server, short against the deletion
            // (≈ 8 µs per run here; a machine five times faster still needs 0.3 s).
            usleep(100_000)
            let health = try RawHTTPClient(port: server.port, timeoutSeconds: 300).call("GET", "/health")
            #expect(health.status == 200)
            #expect(!deleting.hasDataWaiting(), "the health check waited for the deletion")
            #expect(try deleting.readResponse().status == 204)
            try client.call("GET", "/v1/scenes/\(id)").problem(404)
        }
    }

    /// A version with more runs than the limit would have all its new runs held in memory: it
    /// is refused before any run is read, with a 422 that says how many there are, and nothing is stored.
    /// The limit comes from `--replay-limit` (or TAPTRACE_REPLAY_LIMIT).
    @Test func aReplayOfMoreRunsThanTheLimitIsRefused() throws {
        try withServer(extraArguments: ["--replay-limit", "3"]) { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            for _ in 0..<3 { _ = try client.storeDispatch(id) }
            #expect(try client.call("POST", "/v1/scenes/\(id)/replay", json: ["from": 1, "to": 1]).status == 200)
            // Now version 1 has 3 runs and 3 replayed ones: 6.
            let before = try client.allItems("/v1/scenes/\(id)/runs", limit: 100).count
            #expect(before == 6)
            let refused = try client.call("POST", "/v1/scenes/\(id)/replay", json: ["from": 1, "to": 1])
            try refused.problem(422)
            #expect(try refused.pointers() == ["/from"])
            #expect(refused.bodyText.contains("has 6 stored runs"))
            #expect(refused.bodyText.contains("at most 3"))
            #expect(try client.allItems("/v1/scenes/\(id)/runs", limit: 100).count == before)
        }
        let environment = try withServer(environment: ["TAPTRACE_REPLAY_LIMIT": "1"]) { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            for _ in 0..<2 { _ = try client.storeDispatch(id) }
            return try client.call("POST", "/v1/scenes/\(id)/replay", json: ["from": 1, "to": 1]).status
        }
        #expect(environment == 422)
    }
}
