import CThreadAffinity
import Foundation
import GRDB
import GRDBSQLite

/// Copies the write-ahead log back into the database file from a thread and a connection of
/// its own, so that the writer never does it inside a commit.
///
/// SQLite's automatic checkpoint runs in the commit that crosses 1,000 pages, and on this
/// kind of machine writing pages back into the database file now and then waits on the
/// kernel writing the same pages out: one batch of runs took 100–300 ms, and every request
/// waiting behind it too (p99 of stored dispatch 160 ms over a minute, 14 ms with no
/// checkpoint at all; docs/performance.md). Here no commit checkpoints
/// (`wal_autocheckpoint = 0`); every `interval` (2 s) a passive checkpoint copies what is committed
/// without blocking anyone. A passive checkpoint never lets a busy log start over, so once it
/// holds `restartFrames` frames the Checkpointer asks the writer (`takeRestartRequest`) to run
/// a restart checkpoint after its next transaction, having first copied what was written
/// while its own checkpoint ran (`catchUp`) and written the database file out to the disk
/// (`prepareRestart`): almost every frame is in the database file by then, the restart has
/// little left to sync, and the next write starts the log from its beginning again.
///
/// The thread is of Linux's idle class (decision 54): at the usual priority a checkpoint's
/// copy (some 3,000 pages, 90 ms, under stored dispatch) took processors from the writer and
/// the workers for milliseconds at a time, and most of the slowest requests were in those
/// windows. Should it get too little time and fall behind, the writer checkpoints itself
/// past `backstopFrames` (`LogBackstop`).
final class Checkpointer: @unchecked Sendable {
    /// 16 MiB of the 1 KiB pages of a database created now (decision 53), 64 MiB of 4 KiB
    /// pages. Counted in frames, not bytes: a commit writes about as many pages either way.
    static let restartFrames = 16_384
    /// Past this many frames (256 MiB of 4 KiB pages) the writer checkpoints itself if this
    /// thread has fallen behind (`LogBackstop`). In `bench/run` the log reached about 45,000
    /// frames under stored dispatch, 85,000 with a new result in every run, this thread at work.
    static let backstopFrames = 4 * restartFrames
    /// Every checkpoint syncs the log before copying it, and a write to a block of the log
    /// being written out waits for the disk: checkpoints every 50 ms made the writer wait
    /// often (stored p99 39–175 ms with another process writing to the disk), every 2 s
    /// rarely (21–30 ms). The log then holds up to about two seconds of writes.
    static let interval: Duration = .seconds(2)

    private let queue: DatabaseQueue
    private let interval: Duration
    private let restartFrames: Int
    private let condition = NSCondition()
    private var stopping = false
    private var stopped = false
    private var restartWanted = false
    /// When a checkpoint of this thread last returned (guarded by `condition`).
    private var lastProgress = ContinuousClock.now
    /// How long without a checkpoint returning makes it "fallen behind" (`hasFallenBehind`).
    private let stallTime: Duration

    /// How a Checkpointer works. The defaults are the server's; tests shorten the interval,
    /// lower the thresholds, or keep the thread at the usual priority.
    struct Settings: Sendable {
        /// Between two rounds.
        var interval: Duration = Checkpointer.interval
        /// The log's length, in frames, at which the writer is asked for a restart.
        var restartFrames: Int = Checkpointer.restartFrames
        /// The log's length, in frames, past which the writer checkpoints itself if the
        /// Checkpointer has fallen behind (`LogBackstop`).
        var backstopFrames: Int = Checkpointer.backstopFrames
        /// Whether the thread is of the idle class (decision 54). Tests that wait for a
        /// checkpoint turn it off: on a machine busy with other tests the thread may not run
        /// for seconds.
        var runsWhenIdle = true
        /// See `hasFallenBehind`; three intervals when nil.
        var stallTime: Duration?
    }

    init(path: String, settings: Settings = Settings()) throws {
        var configuration = Configuration()
        configuration.label = "TapTraceStore.checkpointer"
        configuration.busyMode = .timeout(5)
        queue = try DatabaseQueue(path: path, configuration: configuration)
        interval = settings.interval
        restartFrames = settings.restartFrames
        stallTime = settings.stallTime ?? settings.interval * 3
        let runsWhenIdle = settings.runsWhenIdle
        let thread = Thread { [self] in
            // Set from the thread itself, within Linux's 15 bytes: `top -H` and perf show it.
            // One at the usual priority (tests) is told apart by its name. Named before it
            // drops to the idle class: after, on busy processors, it may not run for seconds,
            // and would stay unnamed all that time.
            Thread.current.name = runsWhenIdle ? "TapTrace-ckpt" : "TapTrace-ckpt-n"
            // Before any checkpoint, so that none runs at the usual priority (decision 54).
            // Refused (not Linux), the thread runs as any other.
            if runsWhenIdle { _ = taptrace_run_current_thread_when_idle() }
            loop()
        }
        thread.start()
    }

    /// Whether the writer should restart the log now; asking clears the request.
    func takeRestartRequest() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard restartWanted else { return false }
        restartWanted = false
        return true
    }

    /// Whether no checkpoint of this thread has returned for `stallTime` (three rounds): it gets
    /// no processor, or waits on something. The writer's backstop acts only then (`LogBackstop`):
    /// a log grown long under heavy writes while this thread works is this thread's to copy, and
    /// the writer doing it instead held every stored dispatch for 208 ms (a new result in every
    /// request, `bench/run`).
    func hasFallenBehind() -> Bool {
        condition.withLock { ContinuousClock.now - lastProgress >= stallTime }
    }

    /// Stops the thread (after the checkpoint in progress, if any) and closes its connection.
    func stop() throws {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !stopped { condition.wait() }
        condition.unlock()
        try queue.close()
    }

    /// Copies every frame committed so far into the database file, syncing the log first
    /// and the file after; nil when it could not run.
    private func passiveCheckpoint() -> (frames: Int, copied: Int)? {
        guard let (frames, copied) = try? queue.writeWithoutTransaction({ db in try db.checkpoint(.passive) })
        else { return nil }
        condition.withLock { lastProgress = .now }
        return (frames, copied)
    }

    /// Copies the frames written while the last checkpoint ran, again until few are left
    /// (`catchUpFrames`), at most `catchUpRounds` times. The restart that follows holds up
    /// the writer while it syncs and copies whatever is left: right after a checkpoint of
    /// 150–200 ms (new results in every run, 50 MB of log a second) that is the 2,000–2,500
    /// frames written meanwhile, and without catching up the writer waited 37–57 ms every two
    /// seconds (docs/performance.md).
    ///
    /// - Returns: The checkpoints it ran.
    @discardableResult
    static func catchUp(from copied: Int, checkpoint: () -> (frames: Int, copied: Int)?) -> Int {
        var copied = copied
        for round in 1...catchUpRounds {
            guard let (_, now) = checkpoint() else { return round }
            let fresh = now - copied
            copied = now
            if fresh < catchUpFrames { return round }
        }
        return catchUpRounds
    }

    /// What the Checkpointer does before it asks the writer for a restart: catches up
    /// (`catchUp`), then writes the database file out (`syncDatabase`).
    ///
    /// A passive checkpoint that does not reach the end of the log (under load, none does)
    /// copies pages into the database file without syncing it: the restart would sync it, on
    /// the writer's connection, with every page copied since the last restart still to write
    /// (12 MB or so every two seconds under stored dispatch), and that sync would be most of
    /// the restart, which every stored dispatch waits for. Synced here first, on this thread,
    /// the restart finds little left and takes 1–2 ms (docs/performance.md).
    static func prepareRestart(from copied: Int, checkpoint: () -> (frames: Int, copied: Int)?,
                               syncDatabase: () -> Void) {
        catchUp(from: copied, checkpoint: checkpoint)
        syncDatabase()
    }

    /// Writes the database file's pages out to the disk through SQLite's own file handle (the
    /// unix VFS's `xSync`: `fdatasync`). Not through a descriptor of our own: closing one would
    /// drop the process's POSIX locks on the file, SQLite's included.
    ///
    /// - Returns: Whether the file was synced (a failure only leaves more for the restart).
    @discardableResult
    func syncDatabaseFile() -> Bool {
        queue.writeWithoutTransaction { db in
            var file: UnsafeMutablePointer<sqlite3_file>?
            guard sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK,
                  let file, let sync = file.pointee.pMethods?.pointee.xSync
            else { return false }
            return sync(file, SQLITE_SYNC_NORMAL) == SQLITE_OK
        }
    }

    /// A catch-up round that copied fewer frames than this was short, and so is the next.
    static let catchUpFrames = 256
    static let catchUpRounds = 4

    private func loop() {
        let seconds = interval / .seconds(1)
        while true {
            condition.lock()
            if !stopping { _ = condition.wait(until: Date(timeIntervalSinceNow: seconds)) }
            if stopping {
                stopped = true
                condition.broadcast()
                condition.unlock()
                return
            }
            condition.unlock()
            // Busy or failing now and then is harmless: the next round catches up.
            guard let (frames, copied) = passiveCheckpoint(), frames >= restartFrames else { continue }
            Self.prepareRestart(from: copied, checkpoint: passiveCheckpoint, syncDatabase: { syncDatabaseFile() })
            condition.lock()
            restartWanted = true
            condition.unlock()
        }
    }
}
