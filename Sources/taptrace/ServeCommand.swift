import ArgumentParser
import Foundation
import TapTraceHTTP
import TapTraceService
import TapTraceStore
import TapTraceStorePostgres

/// `taptrace serve`: the HTTP service of contract §6. Every flag can also come from an
/// environment variable (the flag wins), which is how the Docker image is configured.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the REST API (contract §6) with scenes, versions and runs in SQLite.",
        discussion: """
            Environment variables (used when the flag is absent): TAPTRACE_HOST, TAPTRACE_PORT,
            TAPTRACE_DB, TAPTRACE_THREADS, TAPTRACE_BODY_LIMIT, TAPTRACE_CORS_ORIGINS (comma-separated),
            TAPTRACE_REPLAY_LIMIT, TAPTRACE_SCREENSHOT_LIMIT, TAPTRACE_PIN_THREADS (1/0, true/false, yes/no, on/off).
            Logs one line per request to standard error; SIGINT or SIGTERM stops the server after
            the requests in flight have been answered. On Linux it starts itself again once,
            with glibc's per-thread allocation cache enlarged (GLIBC_TUNABLES, adding
            glibc.malloc.tcache_count=64 unless that is set already).
            """
    )

    @Option(help: "Numeric address to listen on (default 127.0.0.1; 0.0.0.0 for all interfaces).")
    var host: String?

    @Option(help: "TCP port (default 8080; 0 picks a free one, printed at start).")
    var port: Int?

    @Option(help: """
        The database: a SQLite file (sqlite:PATH or a plain path; default ./taptrace.sqlite; :memory: \
        keeps nothing) or a shared PostgreSQL database (postgres://user@host/db).
        """)
    var db: String?

    @Option(help: "Worker threads (default: the number of processors, at least 2).")
    var threads: Int?

    @Option(name: .customLong("work-threads"),
            help: "Heavy /v1 requests (dispatch, imports, replays, exports) worked on at once, on threads apart from the worker threads that read requests; one thread more serves listings (default: the number of processors, at least 2).")
    var workThreads: Int?

    @Option(name: .customLong("body-limit"), help: "Largest request body in bytes; K and M suffixes allowed (default 8M).")
    var bodyLimit: String?

    @Option(name: .customLong("cors-origin"), help: "An origin allowed to call the API from a browser (repeatable; * allows any).")
    var corsOrigins: [String] = []

    @Option(name: .customLong("replay-limit"), help: "Most runs one replay re-runs; a version with more is refused with 422 (default \(TapTraceService.defaultReplayLimit)).")
    var replayLimit: Int?

    @Option(name: .customLong("screenshot-limit"),
            help: "Largest screenshot of a scene version in bytes; K and M suffixes allowed (default 8M, or the body limit when smaller; at most the body limit).")
    var screenshotLimit: String?

    @Flag(inversion: .prefixedNo,
          help: "Bind each worker thread to a processor of its own (default on; only when there are at least as many processors as threads).")
    var pinThreads: Bool?

    @OptionGroup var limitOptions: ServeLimitOptions

    @OptionGroup var connectionOptions: ConnectionOptions

    @OptionGroup var storeOptions: StoreOptions

    @OptionGroup var accessOptions: AccessOptions

    func run() throws {
        // First of all: this may start the program again (decision 57).
        MallocTuning.restartIfNeeded()
        let environment = ProcessInfo.processInfo.environment
        let settings = try Settings(command: self, environment: environment)
        let limits = try limitOptions.limits(environment: environment)
        let timeBudget = try limitOptions.timeBudget(environment: environment)
        let storage = try storeOptions.resolved(environment: environment)
        let access = try accessOptions.resolved(host: settings.host, environment: environment)

        let location = DatabaseLocation(settings.database)
        try location.validate(sqlite: storage.store)
        let store: any TraceStore
        do {
            store = try location.open(sqlite: storage.store, postgres: storage.postgres(threads: settings.threads + settings.workThreads))
        } catch {
            throw ServeFailure("cannot open the database \(location.displayed): \(error)")
        }
        let log = StandardErrorLog()
        // Whatever way `run` ends, the lines logged so far are written.
        defer { log.flush() }
        let service = TapTraceService(store: store, replayLimit: settings.replayLimit,
                                      screenshotLimit: settings.screenshotLimit,
                                      limits: limits, requestTimeBudget: timeBudget, caches: storage.caches,
                                      workThreads: settings.workThreads, errorLog: { log.write("error: \($0)") })

        var configuration = HTTPServerConfiguration(host: settings.host, port: settings.port, threads: settings.threads,
                                                    maxBodyBytes: settings.bodyLimit,
                                                    corsAllowedOrigins: settings.corsOrigins,
                                                    corsAllowedHeaders: ["Content-Type", "If-Match"],
                                                    pinsWorkerThreads: settings.pinThreads)
        configuration.requestLogger = { method, path, status, seconds in
            log.write("\(method) \(path) \(status) \(StandardErrorLog.milliseconds(seconds))ms")
        }
        configuration.errorLogger = { log.write("http: \($0)") }
        configuration.errorResponder = TapTraceService.errorResponder
        try connectionOptions.apply(to: &configuration, environment: environment)
        access.apply(to: &configuration)
        let server = HTTPServer(configuration: configuration, router: service.router())
        if let available = DescriptorLimit.raise(),
           let warning = DescriptorLimit.warning(available: available, connections: configuration.connectionLimit,
                                                 relayed: configuration.relaysRequests && configuration.tls == nil) {
            log.write(warning)
        }

        // Listen for signals before starting, so an early Ctrl-C still stops gracefully.
        let shutdown = ShutdownSignal()
        do {
            try server.start()
        } catch {
            throw ServeFailure("\(error)")
        }
        // The run writer takes turns on the workers' processors, so that neither core carries
        // all of its work (decision 48).
        let processors = server.workerProcessors
        if let processors { service.commitRuns(on: processors) }
        let shown = settings.host.contains(":") ? "[\(settings.host)]" : settings.host
        // Unbuffered: scripts and tests read the bound port from this line.
        FileHandle.standardOutput.write(Data(("taptrace \(TapTraceService.version) listening on \(access.scheme)://\(shown):\(server.port)"
            + " (database \(location.displayed), \(settings.threads) threads\(Self.binding(processors)))\n").utf8))

        let signal = shutdown.wait()
        log.write("received signal \(signal): finishing requests in flight")
        let drained = server.stop()
        // For bench/run's figure of round trips per request (docs/postgres.md).
        if let postgres = store as? PostgresTraceStore { log.write("database round trips: \(postgres.roundTrips)") }
        do {
            try store.close()
        } catch {
            log.write("error: closing the database: \(error)")
        }
        log.write(drained ? "stopped" : "stopped; some requests were cut off after the shutdown timeout")
    }

    /// " on processors 0, 1" when the worker threads are bound to processors.
    static func binding(_ processors: [Int]?) -> String {
        guard let processors else { return "" }
        return " on processors " + processors.map(String.init).joined(separator: ", ")
    }
}

/// The effective settings: flag, else environment variable, else default.
struct Settings {
    var host: String
    var port: UInt16
    var database: String
    var threads: Int
    var workThreads: Int
    var bodyLimit: Int
    var corsOrigins: [String]
    var replayLimit: Int
    var screenshotLimit: Int
    var pinThreads: Bool

    init(command: ServeCommand, environment: [String: String]) throws {
        func env(_ name: String) -> String? { SettingSource.variable(name, in: environment) }
        /// An integer setting: the flag, else the variable (which must be an integer), else
        /// the default; then checked against `range`, named `what` in the error.
        func integer(_ flag: Int?, _ variable: String, default fallback: @autoclosure () -> Int,
                     in range: ClosedRange<Int>, _ what: String) throws -> Int {
            let value: Int
            if let flag { value = flag }
            else if let text = env(variable) {
                guard let n = Int(text) else { throw ValidationError("\(variable) must be a number, not \(text)") }
                value = n
            } else { value = fallback() }
            guard range.contains(value) else {
                let bounds = range.upperBound == .max ? "at least \(range.lowerBound)" : "\(range.lowerBound)…\(range.upperBound)"
                throw ValidationError("\(what) must be \(bounds), not \(value)")
            }
            return value
        }
        host = command.host ?? env("TAPTRACE_HOST") ?? "127.0.0.1"
        port = UInt16(try integer(command.port, "TAPTRACE_PORT", default: 8080, in: 0...65535, "the port"))
        database = command.db ?? env("TAPTRACE_DB") ?? "./taptrace.sqlite"
        threads = try integer(command.threads, "TAPTRACE_THREADS",
                              default: max(2, ProcessInfo.processInfo.activeProcessorCount), in: 1...256, "threads")
        workThreads = try integer(command.workThreads, "TAPTRACE_WORK_THREADS",
                                  default: max(2, ProcessInfo.processInfo.activeProcessorCount), in: 1...256, "work threads")

        let limitText = command.bodyLimit ?? env("TAPTRACE_BODY_LIMIT") ?? "8M"
        guard let limit = SettingSource.byteCount(limitText), limit >= 1024 else {
            throw ValidationError("the body limit must be a byte count of at least 1024 (e.g. 65536, 512K, 8M), not \(limitText)")
        }
        bodyLimit = limit

        // A screenshot is a request body like any other: the server refuses bodies above the
        // body limit before any route sees them, so a larger screenshot limit could never apply.
        if let text = command.screenshotLimit ?? env("TAPTRACE_SCREENSHOT_LIMIT") {
            guard let screenshots = SettingSource.byteCount(text), screenshots >= 1 else {
                throw ValidationError("the screenshot limit must be a byte count of at least 1 (e.g. 65536, 512K, 8M), not \(text)")
            }
            guard screenshots <= bodyLimit else {
                throw ValidationError("the screenshot limit (\(text)) must not exceed the body limit (\(limitText)); raise --body-limit as well")
            }
            screenshotLimit = screenshots
        } else {
            screenshotLimit = min(TapTraceService.defaultScreenshotLimit, bodyLimit)
        }

        replayLimit = try integer(command.replayLimit, "TAPTRACE_REPLAY_LIMIT", default: TapTraceService.defaultReplayLimit, in: 1...Int.max,
                                  "the replay limit")

        if let flag = command.pinThreads {
            pinThreads = flag
        } else if let text = env("TAPTRACE_PIN_THREADS") {
            guard let value = Self.boolean(text) else {
                throw ValidationError("TAPTRACE_PIN_THREADS must be 1 or 0 (true/false, yes/no, on/off), not \(text)")
            }
            pinThreads = value
        } else {
            pinThreads = true
        }

        if !command.corsOrigins.isEmpty {
            corsOrigins = command.corsOrigins
        } else {
            corsOrigins = (env("TAPTRACE_CORS_ORIGINS") ?? "").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }

    /// `1`/`true`/`yes`/`on` or `0`/`false`/`no`/`off`, in any case.
    static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: return nil
        }
    }
}

/// Cannot serve (database, port): a message on standard error and exit code 1.
struct ServeFailure: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = "taptrace serve: " + message }
}

/// Lines on standard error, written from libmicrohttpd's threads: whole lines, written in
/// batches every 10 ms at most by the log's own thread (`LineWriter`), and all of them before
/// the process exits (`flush`).
final class StandardErrorLog: Sendable {
    private let lines = LineWriter(descriptor: 2, flushInterval: .milliseconds(10))

    /// `seconds` as milliseconds with three decimals ("12.345"), formatted with integers:
    /// `String(format:)` cost more than the rest of the log line (docs/performance.md).
    static func milliseconds(_ seconds: Double) -> String {
        let micros = max(0, Int((seconds * 1_000_000).rounded()))
        let fraction = micros % 1000
        return "\(micros / 1000)." + (fraction < 10 ? "00" : fraction < 100 ? "0" : "") + "\(fraction)"
    }

    func write(_ line: String) { lines.write(line) }

    /// Waits until every line so far is written (the last ones before the process exits).
    func flush() { lines.flush() }
}
