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
    /// The storage under the database failed: no room (a full disk, or the database's size
    /// limit), an I/O error, or the database held by another process for longer than the busy
    /// timeout. The operation wrote nothing; the same operation may succeed later.
    case storage(StorageFailure)
    /// SQLite or GRDB failed otherwise (a constraint violation, a closed store, …).
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
        case .storage(let failure):
            failure.description
        case .database(let message):
            "database error: \(message)"
        }
    }
}

/// Why the database's storage failed (``StoreError/storage(_:)``), and what SQLite said.
public struct StorageFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        /// No room: the disk is full (`SQLITE_FULL`), or the file reached
        /// ``StoreSettings/maxDatabaseBytes``.
        case full
        /// The file cannot be read or written: an I/O error, a file system that turned
        /// read-only, a file that cannot be opened or no longer reads as a database
        /// (`SQLITE_IOERR`, `SQLITE_READONLY`, `SQLITE_CANTOPEN`, `SQLITE_CORRUPT`, `SQLITE_NOTADB`).
        case failing
        /// Another process held the write lock for longer than the busy timeout (5 s;
        /// `SQLITE_BUSY`, `SQLITE_LOCKED`). Not a failure of the storage itself: the store's
        /// health does not count it.
        case busy
        /// The database server cannot be reached: it is stopped, restarting or unreachable
        /// over the network (PostgreSQL). The store reconnects by itself once it answers.
        case unreachable
    }

    public var kind: Kind
    /// SQLite's result code and message.
    public var message: String

    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String {
        switch kind {
        case .full: "the database's storage is full (\(message))"
        case .failing: "the database's storage is failing (\(message))"
        case .busy: "the database is locked by another process (\(message))"
        case .unreachable: "the database server cannot be reached (\(message))"
        }
    }
}
