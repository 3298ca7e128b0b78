import Foundation
import TapTraceStore
import TestSupport
import Testing

/// A full disk over HTTP (issue 34, item 5): writes answer 503 problem documents with
/// `Retry-After`, `/health` answers 503 so that orchestration sees it, reads go on, DELETE
/// still works, and nothing acknowledged is lost.
///
/// The disk is made full in two ways: without mount privileges by `--database-size-limit`
/// (SQLite's `max_page_count`, which fails a write with the same `SQLITE_FULL` as a full file
/// system), and, where a user namespace may mount one (`unshare -rm`), a real 8 MiB tmpfs.
@Suite struct StorageFailureEndpointTests {
    /// A grid scene of `rows` × 99 views (about 60 bytes a view of JSON), named `name`.
    static func gridScene(rows: Int, name: String) -> [UInt8] {
        var cells: [String] = []
        for r in 0..<rows {
            let row = (0..<99).map { #"{"id": "c\#(r)_\#($0)", "class": "UIView", "frame": [\#($0), 0, 1, 1]}"# }
            cells.append(#"{"id": "r\#(r)", "class": "UIView", "frame": [0, \#(r), 99, 1], "subviews": [\#(row.joined(separator: ","))]}"#)
        }
        return Array(#"{"format": "taptrace/scene@1", "name": "\#(name)", "windows": [{"id": "W", "class": "UIWindow", "frame": [0, 0, 99, \#(rows)], "subviews": [\#(cells.joined(separator: ","))]}]}"#.utf8)
    }

    /// Uploads scenes of 2,000 views until one is refused, then of 200 until one is refused
    /// (so that less room is left than `/health`'s probe needs); the ids of those stored and
    /// the last refusal.
    static func fill(_ port: UInt16, most: Int = 400) throws -> (stored: [String], refusal: RawHTTPClient.Response?) {
        let client = try RawHTTPClient(port: port, timeoutSeconds: 120)
        var stored: [String] = []
        var refusal: RawHTTPClient.Response?
        for rows in [20, 2] {
            refusal = nil
            for n in 0..<most where refusal == nil {
                let response = try client.call("POST", "/v1/scenes", body: gridScene(rows: rows, name: "fill \(rows) \(n)"),
                                               headers: [("Content-Type", "application/json")])
                if response.status == 201 {
                    stored.append(try #require(try response.object().string("id")))
                } else {
                    refusal = response
                }
            }
        }
        return (stored, refusal)
    }

    /// A 503 storage-full problem with a Retry-After of whole seconds.
    static func expectStorageFull(_ response: RawHTTPClient.Response?, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let response = try #require(response, "nothing was refused", sourceLocation: sourceLocation)
        let problem = try response.problem(503, sourceLocation: sourceLocation)
        #expect(problem.string("type") == "https://taptrace.dev/problems/storage-full", sourceLocation: sourceLocation)
        let retry = try #require(response.header("Retry-After"), "no Retry-After", sourceLocation: sourceLocation)
        #expect((Int(retry) ?? 0) > 0, "Retry-After: \(retry)", sourceLocation: sourceLocation)
    }

    @Test func aFullDatabaseAnswers503AndDeleteFreesIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var kept: [String] = []
        do {
            let server = try ServerProcess(database: directory.databasePath, extraArguments: ["--database-size-limit", "2M"])
            defer { server.stop() }
            let (stored, refusal) = try Self.fill(server.port)
            #expect(stored.count >= 5)
            try Self.expectStorageFull(refusal)

            let client = try server.client()
            let health = try client.call("GET", "/health")
            try Self.expectStorageFull(health)
            #expect(health.bodyText.contains("cannot store"))
            // Reads go on: every scene acknowledged is there.
            for id in stored { #expect(try client.call("GET", "/v1/scenes/\(id)").status == 200) }

            // Deleting needs no new page: it works, and its commit clears the failure.
            #expect(try client.call("DELETE", "/v1/scenes/\(stored[0])").status == 204)
            #expect(try client.call("GET", "/health").status == 200)
            let again = try client.call("POST", "/v1/scenes", body: Self.gridScene(rows: 5, name: "after"),
                                        headers: [("Content-Type", "application/json")])
            #expect(again.status == 201)
            kept = Array(stored.dropFirst()) + [try #require(try again.object().string("id"))]
            #expect(server.stderr.contains("storage is full"))
        }
        // Nothing acknowledged is lost, across a restart without the limit.
        let server = try ServerProcess(database: directory.databasePath)
        defer { server.stop() }
        let listed = try server.client().allItems("/v1/scenes", limit: 100).compactMap { $0.string("id") }
        #expect(Set(listed) == Set(kept))
    }

    /// A real full file system: an 8 MiB tmpfs mounted in a user namespace of the server's own.
    /// Writes answer 503 storage-full; DELETE still works, with the room the store kept for it
    /// (`StorageReserve`: on a full file system SQLite cannot even grow its log to mark a scene
    /// deleted). Once space is freed on the file system (a 4 MiB file beside the database is
    /// removed), `/health` finds out by its probe, writes succeed again, and nothing
    /// acknowledged is lost.
    ///
    /// The space freed is more than the database holds: when the disk filled before the
    /// Checkpointer's idle-class thread ran (as on a busy machine), everything is in the log,
    /// and SQLite needs that much room again in the database file before the log can start
    /// over.
    @Test(.enabled(if: NamespacedServer.canMountTmpfs, "user namespaces cannot mount a tmpfs here"))
    func aFullFileSystemAnswers503AndRecoversOnceSpaceIsFreed() throws {
        let server = try NamespacedServer(tmpfsBytes: 8 << 20, fillerBytes: 4 << 20)
        defer { server.stop() }
        let (stored, refusal) = try Self.fill(server.port)
        #expect(stored.count >= 5)
        try Self.expectStorageFull(refusal)
        let client = try RawHTTPClient(port: server.port, timeoutSeconds: 120)
        try Self.expectStorageFull(try client.call("GET", "/health"))
        let deleted = try client.call("DELETE", "/v1/scenes/\(stored[0])")
        #expect(deleted.status == 204, "\(deleted.bodyText.prefix(300))")

        try server.removeFiller()
        // The Checkpointer copies the log into the database file every 2 s (when its idle-class
        // thread gets a processor), and `/health` probes once a second: within seconds both
        // have room. Until the log is copied, writes may still find the disk full; a client
        // retries them, as `Retry-After` says (here sooner).
        #expect(eventually(timeoutSeconds: 60) { (try? client.call("GET", "/health").status) == 200 })
        func retried(_ method: String, _ target: String, body: [UInt8]? = nil) throws -> RawHTTPClient.Response {
            var response = try client.call(method, target, body: body)
            let deadline = Date(timeIntervalSinceNow: 60)
            while response.status == 503, Date() < deadline {
                try Self.expectStorageFull(response)
                usleep(500_000)
                response = try client.call(method, target, body: body)
            }
            return response
        }
        let again = try retried("POST", "/v1/scenes", body: Self.gridScene(rows: 5, name: "after"))
        #expect(again.status == 201)
        let listed = try client.allItems("/v1/scenes", limit: 100).compactMap { $0.string("id") }
        #expect(Set(listed) == Set(stored.dropFirst()).union([try #require(try again.object().string("id"))]))
    }
}

/// `taptrace serve` in a mount namespace of its own (`unshare -rm`) with its database on a
/// tmpfs of a given size, which holds a filler file the test can remove (through
/// `/proc/PID/root`) to free space as an operator would.
final class NamespacedServer: @unchecked Sendable {
    let process = Process()
    let port: UInt16
    let mountPoint: URL
    private let directory: TemporaryDirectory

    /// Whether `unshare -rm` may mount a tmpfs on this machine (root, or unprivileged user
    /// namespaces allowed).
    static let canMountTmpfs: Bool = {
        guard let directory = try? TemporaryDirectory() else { return false }
        defer { directory.remove() }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        probe.arguments = ["-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs \"$0\"", directory.url.path]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    init(tmpfsBytes: Int, fillerBytes: Int) throws {
        directory = try TemporaryDirectory()
        mountPoint = directory.url
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        let script = """
            mount -t tmpfs -o size=\(tmpfsBytes) tmpfs "$0" && \
            head -c \(fillerBytes) /dev/zero > "$0/filler" && \
            exec "$1" serve --port 0 --db "$0/taptrace.sqlite"
            """
        process.arguments = ["-rm", "sh", "-c", script, mountPoint.path, try ServerProcess.binary().path]
        var environment = ProcessInfo.processInfo.environment
        for key in environment.keys where key.hasPrefix("TAPTRACE_") { environment[key] = nil }
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let (text, port) = ServerProcess.listeningLine(output.fileHandleForReading)
        guard let port else {
            process.terminate()
            throw ServerProcess.Failure(description: "the namespaced server did not start: \(text.debugDescription)")
        }
        self.port = port
    }

    /// Frees the filler's space on the tmpfs, seen from the server's mount namespace.
    func removeFiller() throws {
        let path = "/proc/\(process.processIdentifier)/root" + mountPoint.path + "/filler"
        try FileManager.default.removeItem(atPath: path)
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        directory.remove()
    }
}
