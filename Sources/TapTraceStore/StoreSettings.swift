/// How a ``SQLiteTraceStore`` keeps its data: durability and size. The defaults are the server's.
public struct StoreSettings: Sendable, Equatable {
    /// When a commit is on the disk (SQLite's `synchronous`, in WAL mode).
    public enum Synchronous: String, Sendable, CaseIterable {
        /// A commit is in the write-ahead log, not yet synced: it survives the process crashing
        /// (SIGKILL included); an operating system crash or a power loss may lose the last
        /// commits, never corrupting the database. The log is synced at each checkpoint.
        case normal
        /// Every commit syncs the write-ahead log before it returns: it survives a power loss
        /// too, for one `fdatasync` per commit (group commit shares it between the runs of a
        /// batch; docs/performance.md has the measured cost).
        case full
    }

    public var synchronous: Synchronous
    /// The most bytes the database file may hold (SQLite's `max_page_count`, in pages of the
    /// database's size, rounded down); nil: as many as the disk takes. A write that would
    /// grow the file past it fails as on a full disk (``StoreError/storage(_:)`` of kind
    /// ``StorageFailure/Kind/full``) while deletes and writes that fit in free pages go on.
    /// The write-ahead log is not counted: it adds up to the Checkpointer's restart threshold
    /// (16 MiB of 1 KiB pages) beside the file.
    public var maxDatabaseBytes: Int?

    public init(synchronous: Synchronous = .normal, maxDatabaseBytes: Int? = nil) {
        self.synchronous = synchronous
        self.maxDatabaseBytes = maxDatabaseBytes
    }
}
