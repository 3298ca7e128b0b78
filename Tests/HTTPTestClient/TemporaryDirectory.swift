import Foundation

/// A temporary directory for one test's database, removed when the test calls `remove()`
/// (in a `defer`). Shared by the store and service tests; `prefix` names the directory so
/// that one left behind by a crashed run says which tests made it.
public struct TemporaryDirectory {
    public let url: URL

    public init(prefix: String = "taptrace-tests") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A database file inside the directory (SQLite puts its `-wal` and `-shm` beside it).
    public var databasePath: String { url.appendingPathComponent("taptrace.sqlite").path }

    public func remove() { try? FileManager.default.removeItem(at: url) }
}
