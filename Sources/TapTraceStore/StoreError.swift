/// Everything a ``TraceStore`` operation can throw.
///
/// Callers (the HTTP layer) switch on the case to pick a status code; the
/// ``description`` is a sentence suitable for a problem document.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No scene has this id (it never existed or was deleted).
    case sceneNotFound(sceneID: String)
    /// The scene exists but has no such version.
    case versionNotFound(sceneID: String, version: Int)
    /// No run has this id.
    case runNotFound(runID: String)
    /// Optimistic concurrency: the caller expected `expectedVersion` to be the latest
    /// version, but another writer already moved the scene to `actualVersion`.
    case conflict(sceneID: String, expectedVersion: Int, actualVersion: Int)
    /// A pagination cursor that this store did not hand out (or for another listing).
    case invalidCursor(String)
    /// An argument outside its documented range (e.g. a page limit of 0).
    case invalidArgument(String)
    /// The database was migrated by a newer binary: opening it could corrupt data.
    case databaseTooNew(databaseVersion: Int, supportedVersion: Int)
    /// SQLite or GRDB failed (I/O error, disk full, constraint violation, …).
    case database(String)

    public var description: String {
        switch self {
        case .sceneNotFound(let id):
            "scene \(id) not found"
        case .versionNotFound(let id, let version):
            "scene \(id) has no version \(version)"
        case .runNotFound(let id):
            "run \(id) not found"
        case .conflict(let id, let expected, let actual):
            "scene \(id) is at version \(actual), not the expected version \(expected)"
        case .invalidCursor(let cursor):
            "invalid pagination cursor \"\(cursor)\""
        case .invalidArgument(let message):
            message
        case .databaseTooNew(let found, let supported):
            "database schema version \(found) is newer than the newest version this binary supports (\(supported)); upgrade the binary"
        case .database(let message):
            "database error: \(message)"
        }
    }
}
