#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport

/// The real `taptrace serve` binary, started on a free loopback port with its own database.
///
/// The binary is the one `swift build` put next to the test bundle (or `TAPTRACE_BIN`). The
/// port comes from the server's first stdout line (`--port 0`), so tests never race for ports.
final class ServerProcess: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible { let description: String }

    let process = Process()
    let port: UInt16
    /// The first stdout line: "taptrace 0.1.0 listening on http://127.0.0.1:PORT (…)".
    let listeningLine: String
    let databasePath: String
    private let stderrPipe = Pipe()
    private let log = LogCollector()
    private(set) var exitStatus: Int32?

    /// Collects stderr from the pipe's reader thread.
    final class LogCollector: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func append(_ chunk: Data) { lock.lock(); data.append(chunk); lock.unlock() }
        var text: String { lock.lock(); defer { lock.unlock() }; return String(decoding: data, as: UTF8.self) }
    }

    /// `extraArguments` go after `serve`; `environment` adds variables (TAPTRACE_* among them).
    init(database: String, extraArguments: [String] = [], environment: [String: String] = [:],
         portArguments: [String] = ["--port", "0"]) throws {
        databasePath = database
        process.executableURL = try Self.binary()
        process.arguments = ["serve"] + portArguments + (database.isEmpty ? [] : ["--db", database]) + extraArguments
        var env = ProcessInfo.processInfo.environment
        for key in env.keys where key.hasPrefix("TAPTRACE_") { env[key] = nil }
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let stdoutPipe = Pipe()
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        let log = self.log
        stderrPipe.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            if !chunk.isEmpty { log.append(chunk) }
        }
        try process.run()

        let (text, port) = Self.listeningLine(stdoutPipe.fileHandleForReading)
        guard let port else {
            process.waitUntilExit()
            throw Failure(description: "taptrace serve did not start: stdout \(text.debugDescription), stderr \(log.text)")
        }
        self.port = port
        listeningLine = text.trimmingCharacters(in: .newlines)
    }

    /// The first line `taptrace serve` writes ("taptrace 0.1.0 listening on
    /// http://127.0.0.1:PORT (…)", `https://` with TLS) and the port it names, nil when none.
    static func listeningLine(_ reader: FileHandle) -> (text: String, port: UInt16?) {
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        let range = text.range(of: #"https?://[^ ]+:(\d+)"#, options: .regularExpression)
        return (text, range.flatMap { UInt16(text[$0].split(separator: ":").last ?? "") })
    }

    /// Everything the server wrote on stderr so far (the request log).
    var stderr: String { log.text }

    /// SIGTERM, then waits for the exit; returns the exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        // Let the stderr handler drain what is left.
        stderrPipe.fileHandleForReading.readabilityHandler = nil
        log.append(stderrPipe.fileHandleForReading.readDataToEndOfFile())
        exitStatus = process.terminationStatus
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    func client() throws -> RawHTTPClient { try RawHTTPClient(port: port) }

    static func binary() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["TAPTRACE_BIN"] {
            return URL(fileURLWithPath: path)
        }
        var candidates: [URL] = []
        // Next to the test bundle (.build/<triple>/debug/TapTracePackageTests.xctest).
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("taptrace"))
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("taptrace"))
        candidates.append(Paths.packageRoot.appendingPathComponent(".build/debug/taptrace"))
        for url in candidates where FileManager.default.isExecutableFile(atPath: url.path) {
            return url
        }
        throw Failure(description: "no taptrace binary (looked at \(candidates.map(\.path))); run swift build first")
    }
}

enum Paths {
    /// The package root, from this file's location.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func example(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: packageRoot.appendingPathComponent("examples").appendingPathComponent(name)))
    }
}

/// Runs `taptrace serve` on an in-memory database with settings it should refuse (the test's
/// environment without its `TAPTRACE_` variables, plus `environment`): its exit status and what
/// it wrote to standard error.
func refusedServe(arguments: [String] = [], environment: [String: String] = [:]) throws -> (status: Int32, errors: String) {
    let process = Process()
    process.executableURL = try ServerProcess.binary()
    process.arguments = ["serve", "--port", "0", "--db", ":memory:"] + arguments
    var inherited = ProcessInfo.processInfo.environment
    for key in inherited.keys where key.hasPrefix("TAPTRACE_") { inherited[key] = nil }
    process.environment = inherited.merging(environment) { $1 }
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = Pipe()
    try process.run()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
}

/// Starts a server on a fresh database, runs `body`, stops the server and removes the files.
@discardableResult
func withServer<T>(extraArguments: [String] = [], environment: [String: String] = [:],
                   _ body: (ServerProcess) throws -> T) throws -> T {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try ServerProcess(database: directory.databasePath, extraArguments: extraArguments,
                                   environment: environment)
    defer { server.stop() }
    return try body(server)
}
