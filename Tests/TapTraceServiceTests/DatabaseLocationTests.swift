import Foundation
import TestSupport
import Testing

/// `--db`'s forms (decision 141): `sqlite:PATH` and a plain path open SQLite, `postgres://`
/// opens PostgreSQL, and a URL's password never reaches the output.
@Suite struct DatabaseLocationTests {
    @Test func aSQLitePrefixNamesTheFileAfterIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try ServerProcess(database: "sqlite:" + directory.databasePath)
        let health = try server.client().call("GET", "/health").object()
        #expect(health.object("database")?.string("journalMode") == "wal")
        #expect(server.listeningLine.contains("(database \(directory.databasePath),"))
        #expect(FileManager.default.fileExists(atPath: directory.databasePath))
        #expect(!FileManager.default.fileExists(atPath: "sqlite:" + directory.databasePath))
    }

    @Test func anUnreachablePostgreSQLServerStopsTheStartWithoutShowingThePassword() throws {
        // Port 1 on loopback: nothing listens, so the connection is refused at once.
        let process = Process()
        process.executableURL = try ServerProcess.binary()
        process.arguments = ["serve", "--port", "0", "--db", "postgres://tester:s3cret-word@127.0.0.1:1/taptrace"]
        var environment = ProcessInfo.processInfo.environment
        for key in environment.keys where key.hasPrefix("TAPTRACE_") { environment[key] = nil }
        process.environment = environment
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            + String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus != 0)
        #expect(said.contains("cannot open the database postgres://tester:***@127.0.0.1:1/taptrace"), "\(said)")
        #expect(said.contains("cannot be reached"), "\(said)")
        #expect(!said.contains("s3cret-word"), "\(said)")
    }

    @Test("SQLite's own settings are refused with a PostgreSQL database, not ignored",
          arguments: [["--synchronous", "full"], ["--database-size-limit", "1M"]])
    func sqliteSettingsAreRefusedOnPostgreSQL(_ setting: [String]) throws {
        let process = Process()
        process.executableURL = try ServerProcess.binary()
        process.arguments = ["serve", "--port", "0", "--db", "postgres://tester@127.0.0.1:1/taptrace"] + setting
        var environment = ProcessInfo.processInfo.environment
        for key in environment.keys where key.hasPrefix("TAPTRACE_") { environment[key] = nil }
        process.environment = environment
        let errors = Pipe()
        process.standardOutput = Pipe()
        process.standardError = errors
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 64)
        #expect(said.contains("\(setting[0]) applies to SQLite"), "\(said)")
    }
}
