import Foundation
import TapTraceClient

/// A `taptrace serve` of its own for one test: the binary named by `TAPTRACE_BIN`, on a free
/// loopback port, with a database in a new temporary folder; stopped with SIGTERM (and the
/// folder removed) when the test's suite instance goes away.
final class TestServer: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let url: URL
    let client: TapTrace
    private let process: Process
    private let folder: URL

    /// The repository's examples/ folder (this file is clients/swift/Tests/TapTraceClientTests/).
    static let examples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("examples")

    static func example(_ name: String) throws -> Data {
        try Data(contentsOf: examples.appendingPathComponent(name))
    }

    /// With `token`, the server requires it (`--auth-token-file`) and `client` sends it.
    init(token: String? = nil) throws {
        guard let binary = ProcessInfo.processInfo.environment["TAPTRACE_BIN"], !binary.isEmpty else {
            throw Failure(description: "TAPTRACE_BIN is not set: build the server (swift build at the repository root) and run with TAPTRACE_BIN=$PWD/.build/debug/taptrace, or use scripts/check-swift-client")
        }
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw Failure(description: "TAPTRACE_BIN=\(binary) is not an executable file")
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("taptrace-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Output goes to files, not pipes: the server logs every request to stderr, and a pipe
        // nobody drains would block it once full.
        let stdout = folder.appendingPathComponent("stdout")
        let stderr = folder.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: stdout.path, contents: nil)
        FileManager.default.createFile(atPath: stderr.path, contents: nil)

        process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve", "--port", "0", "--db", folder.appendingPathComponent("db.sqlite").path]
        if let token {
            let tokens = folder.appendingPathComponent("tokens")
            try Data((token + "\n").utf8).write(to: tokens)
            process.arguments? += ["--auth-token-file", tokens.path]
        }
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        try process.run()

        // The first stdout line announces the address: `taptrace … listening on http://127.0.0.1:PORT (…)`.
        var found: URL?
        let deadline = Date().addingTimeInterval(10)
        while found == nil, Date() < deadline, process.isRunning {
            let text = (try? String(contentsOf: stdout, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first,
               let range = line.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) {
                found = URL(string: String(line[range]))
            } else {
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        guard let found else {
            if process.isRunning { process.terminate(); process.waitUntilExit() }
            let log = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(at: folder)
            throw Failure(description: "taptrace serve did not announce its address within 10 s:\n\(log)")
        }
        url = found
        client = TapTrace(serverURL: found, token: token)
    }

    deinit {
        if process.isRunning {
            process.terminate()  // SIGTERM: the server finishes its requests and closes the database
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }
}
