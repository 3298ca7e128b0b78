import Foundation

/// A temporary directory for one test's database or input files, removed when the test calls
/// `remove()` (in a `defer`, or a suite's `deinit`). Shared by the CLI, store and service tests.
public struct TemporaryDirectory {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("taptrace-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A database file inside the directory (SQLite puts its `-wal` and `-shm` beside it).
    public var databasePath: String { url.appendingPathComponent("taptrace.sqlite").path }

    public func remove() { try? FileManager.default.removeItem(at: url) }
}
