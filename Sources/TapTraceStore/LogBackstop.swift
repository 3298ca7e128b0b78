import GRDB
import GRDBSQLite

/// The writer's backstop for a Checkpointer that falls behind (decision 54).
///
/// The Checkpointer's thread runs only when a processor would otherwise be idle, so on a
/// machine kept busy by other programs it may get next to no time, and a passive checkpoint
/// it started may hold SQLite's checkpoint lock for as long. The log would then only grow.
/// So the writer's connection counts the log's frames (SQLite reports them after every
/// commit, `sqlite3_wal_hook`), and once they pass `limit` and the Checkpointer has fallen
/// behind (`Checkpointer.hasFallenBehind`: no checkpoint of its own for three rounds) the
/// writer checkpoints itself, between two of its transactions: a passive checkpoint, which
/// never waits for a lock (the Checkpointer holding one makes it return at once) and, with no
/// other writer, reaches the end of the log, which the next write then starts over. While it
/// runs every stored dispatch waits (208 ms for 65,000 frames), which is why it is only the
/// backstop. One that could not copy everything, or that was not needed yet, is looked at
/// again after another eighth of `limit`, not after every transaction.
///
/// Only the writer's connection touches it: the hook runs inside its commits and the writer
/// asks `isDue` between its transactions, both on that connection's serialized access.
final class LogBackstop: @unchecked Sendable {
    let limit: Int
    /// Frames in the log after the writer's last commit.
    private(set) var frames = 0
    private var nextAttempt: Int

    init(limit: Int) {
        self.limit = limit
        nextAttempt = limit
    }

    /// Whether the log has passed the next mark: time for the writer to ask whether the
    /// Checkpointer has fallen behind, and if so to checkpoint.
    var isDue: Bool { frames >= nextAttempt }

    /// Checkpoints the writer ran itself (for tests).
    private(set) var checkpoints = 0

    /// Records the writer's checkpoint: `copiedAll` when it reached the end of the log.
    func attempted(copiedAll: Bool) {
        checkpoints += 1
        nextAttempt = copiedAll ? limit : frames + max(1, limit / 8)
    }

    /// The Checkpointer is at work: looks again an eighth of `limit` later.
    func postpone() {
        nextAttempt = frames + max(1, limit / 8)
    }

    /// What the hook reports (also for tests). A log shorter than before was started over:
    /// the next mark is `limit` again.
    func committed(frames: Int) {
        if frames < self.frames { nextAttempt = limit }
        self.frames = frames
    }

    /// Counts the frames of `db`'s log after each of its commits. Call after setting
    /// `wal_autocheckpoint`, which replaces the hook. `self` must outlive the connection.
    func install(on db: Database) {
        sqlite3_wal_hook(db.sqliteConnection, logBackstopHook, Unmanaged.passUnretained(self).toOpaque())
    }
}

/// `sqlite3_wal_hook`'s callback: a plain function, called on the committing thread.
private func logBackstopHook(context: UnsafeMutableRawPointer?, db: OpaquePointer?,
                             name: UnsafePointer<CChar>?, frames: Int32) -> Int32 {
    if let context { Unmanaged<LogBackstop>.fromOpaque(context).takeUnretainedValue().committed(frames: Int(frames)) }
    return SQLITE_OK
}
