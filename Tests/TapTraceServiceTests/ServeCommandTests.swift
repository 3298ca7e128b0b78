import Foundation
import TestSupport
import Testing

/// `taptrace serve` itself: settings from flags and environment, the request log, CORS,
/// health, the served OpenAPI document, and a clean exit on SIGTERM.
@Suite struct ServeCommandTests {
    @Test func healthReportsVersionAndDatabase() throws {
        try withServer { server in
            let response = try server.client().call("GET", "/health")
            #expect(response.status == 200)
            let health = try response.object()
            #expect(health.string("status") == "ok")
            #expect(health.string("version") == "0.1.0")
            #expect(health.object("database")?["ok"] as? Bool == true)
            #expect(health.object("database")?.string("journalMode") == "wal")
            #expect(health.object("database")?.int("schemaVersion") == health.object("database")?.int("supportedSchemaVersion"))
        }
    }

    @Test func servesTheOpenAPIDocument() throws {
        try withServer { server in
            let response = try server.client().call("GET", "/openapi.yaml")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/yaml")
            let file = try Data(contentsOf: Paths.packageRoot.appendingPathComponent("openapi.yaml"))
            #expect(response.body == Array(file))
        }
    }

    @Test func logsOneLinePerRequestAndStopsCleanly() throws {
        let server = try ServerProcess(database: ":memory:")
        let client = try server.client()
        _ = try client.call("GET", "/health")
        _ = try client.call("POST", "/v1/scenes", body: try Fixtures.checkoutScene())
        _ = try client.call("GET", "/v1/nothing?x=1")
        client.close()
        #expect(server.stop() == 0)
        let lines = server.stderr.split(separator: "\n").map(String.init)
        func logged(_ prefix: String) -> Bool {
            lines.contains { $0.hasPrefix(prefix) && $0.range(of: #" [0-9]+\.[0-9]{3}ms$"#, options: .regularExpression) != nil }
        }
        #expect(logged("GET /health 200 "))
        #expect(logged("POST /v1/scenes 201 "))
        #expect(logged("GET /v1/nothing 404 "))
        #expect(lines.contains { $0.contains("received signal 15") })
        #expect(lines.last == "stopped")
    }

    @Test func environmentVariablesConfigureTheServer() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try ServerProcess(database: "", environment: [
            "TAPTRACE_DB": directory.databasePath,
            "TAPTRACE_HOST": "127.0.0.1",
            "TAPTRACE_THREADS": "3",
            "TAPTRACE_BODY_LIMIT": "2K",
            "TAPTRACE_CORS_ORIGINS": "https://viewer.example, https://other.example",
        ])
        defer { server.stop() }
        let client = try server.client()
        #expect(FileManager.default.fileExists(atPath: directory.databasePath))
        try client.call("POST", "/v1/scenes", body: try Fixtures.checkoutScene()).problem(413)
        let cors = try server.client().call("GET", "/health", headers: [("Origin", "https://other.example")])
        #expect(cors.header("Access-Control-Allow-Origin") == "https://other.example")
        let foreign = try server.client().call("GET", "/health", headers: [("Origin", "https://evil.example")])
        #expect(foreign.header("Access-Control-Allow-Origin") == nil)
        let preflight = try server.client().call("OPTIONS", "/v1/scenes", headers: [
            ("Origin", "https://viewer.example"), ("Access-Control-Request-Method", "POST")])
        #expect(preflight.header("Access-Control-Allow-Methods")?.contains("POST") == true)
        #expect(preflight.header("Access-Control-Allow-Headers")?.contains("Content-Type") == true)
    }

    @Test func flagsWinOverEnvironmentAndBadValuesAreRejected() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try ServerProcess(database: directory.databasePath, extraArguments: ["--cors-origin", "https://flag.example"],
                                       environment: ["TAPTRACE_DB": "/nonexistent/dir/x.sqlite",
                                                     "TAPTRACE_CORS_ORIGINS": "https://env.example"])
        defer { server.stop() }
        let client = try server.client()
        #expect(try client.call("GET", "/health").status == 200)
        let cors = try client.call("GET", "/health", headers: [("Origin", "https://env.example")])
        #expect(cors.header("Access-Control-Allow-Origin") == nil)

        for arguments in [["--body-limit", "lots"], ["--replay-limit", "0"]] {
            let bad = Process()
            bad.executableURL = try ServerProcess.binary()
            bad.arguments = ["serve", "--port", "0", "--db", ":memory:"] + arguments
            bad.standardError = Pipe()
            bad.standardOutput = Pipe()
            try bad.run()
            bad.waitUntilExit()
            #expect(bad.terminationStatus != 0, "\(arguments)")
        }
    }

    /// Worker threads are bound to processors unless `--no-pin-threads` or
    /// TAPTRACE_PIN_THREADS=0 says otherwise; the flag wins; the start line says which.
    @Test func pinningWorkerThreadsIsOnByDefaultAndCanBeTurnedOff() throws {
        let processors = ProcessInfo.processInfo.activeProcessorCount
        func line(_ arguments: [String], _ environment: [String: String] = [:]) throws -> String {
            let server = try ServerProcess(database: ":memory:", extraArguments: ["--threads", "2"] + arguments,
                                           environment: environment)
            defer { server.stop() }
            return server.listeningLine
        }
        let pinned = processors >= 2 ? "2 threads on processors " : "2 threads)"
        #expect(try line([]).contains(pinned))
        #expect(try line(["--no-pin-threads"]).hasSuffix("2 threads)"))
        #expect(try line([], ["TAPTRACE_PIN_THREADS": "off"]).hasSuffix("2 threads)"))
        #expect(try line(["--pin-threads"], ["TAPTRACE_PIN_THREADS": "0"]).contains(pinned))

        let (status, errors) = try refusedServe(environment: ["TAPTRACE_PIN_THREADS": "sometimes"])
        #expect(status != 0)
        #expect(errors.contains("TAPTRACE_PIN_THREADS"))
    }

    #if os(Linux)
    /// `serve` raises its open-file limit to the hard limit (decision 146) and warns when even
    /// that is short of what the connection limit needs (three descriptors a connection with the
    /// request relay).
    @Test func theOpenFileLimitIsRaisedToTheHardLimit() throws {
        /// The server's soft and hard open-file limits and what it logged, started under `ulimit`.
        func serve(_ ulimit: String) throws -> (soft: Int, hard: Int, errors: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit \(ulimit) && exec \"$0\" serve --port 0 --db :memory: --connection-limit 256",
                                 try ServerProcess.binary().path]
            let output = Pipe(), errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let (line, port) = ServerProcess.listeningLine(output.fileHandleForReading)
            let limits = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/limits", encoding: .utf8)) ?? ""
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            #expect(port != nil, "\(line)")
            let fields = limits.split(separator: "\n").first { $0.hasPrefix("Max open files") }?
                .split(separator: " ").compactMap { Int($0) } ?? []
            return (fields.first ?? -1, fields.dropFirst().first ?? -1,
                    String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        }
        let raised = try serve("-Sn 200")
        #expect(raised.soft == raised.hard && raised.soft > 200, "\(raised)")
        #expect(!raised.errors.contains("open-file limit") || raised.hard < 832, "\(raised.errors)")
        let short = try serve("-n 300")
        #expect(short.soft == 300)
        #expect(short.errors.contains("the open-file limit (300) is below the 832 descriptors that 256 connections need"),
                "\(short.errors)")
    }

    /// `serve` starts itself again, once, with glibc's per-thread cache enlarged (decision 57);
    /// the same process (pid) goes on serving and stops cleanly. An operator's own cache size
    /// is kept, other tunables are kept and the size is added.
    @Test func servesWithGlibcsPerThreadCacheEnlarged() throws {
        func environment(given: String) throws -> String {
            let server = try ServerProcess(database: ":memory:", environment: ["GLIBC_TUNABLES": given])
            let environ = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(server.process.processIdentifier)/environ"))
            #expect(try server.client().call("GET", "/health").status == 200)
            #expect(server.stop() == 0)
            // glibc may cut the variable at each ':' while reading it: compare without the NULs.
            return String(decoding: environ.map { $0 == 0 ? UInt8(ascii: "\n") : $0 }, as: UTF8.self)
        }
        let byDefault = try environment(given: "")
        #expect(byDefault.contains("GLIBC_TUNABLES=glibc.malloc.tcache_count=64\n"))
        let own = try environment(given: "glibc.malloc.tcache_count=7")
        #expect(own.contains("GLIBC_TUNABLES=glibc.malloc.tcache_count=7\n"))
        #expect(!own.contains("tcache_count=64"))
        let other = try environment(given: "glibc.malloc.arena_max=4")
        #expect(other.contains("GLIBC_TUNABLES=glibc.malloc.arena_max=4"))
        #expect(other.contains("glibc.malloc.tcache_count=64"))
    }
    #endif

    /// `taptrace health` (the Docker HEALTHCHECK): 0 while the server answers, 1 once it is gone.
    @Test func healthCommandFollowsTheServer() throws {
        func health(_ port: UInt16) throws -> Int32 {
            let process = Process()
            process.executableURL = try ServerProcess.binary()
            process.arguments = ["health", "--port", String(port), "--timeout", "5"]
            process.environment = ["TAPTRACE_HOST": "0.0.0.0"]
            process.standardOutput = Pipe()
            process.standardError = Pipe()
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        let server = try ServerProcess(database: ":memory:")
        let port = server.port
        #expect(try health(port) == 0)
        server.stop()
        #expect(try health(port) == 1)
    }
}
