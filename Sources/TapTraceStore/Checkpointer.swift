import Foundation
import GRDB

/// Copies the write-ahead log back into the database file from a thread and a connection of
/// its own, so that the writer never does it inside a commit.
///
/// SQLite's automatic checkpoint runs in the commit that crosses 1,000 pages, and on this
/// kind of machine writing pages back into the database file now and then waits on the
/// kernel writing the same pages out: one batch of runs took 100–300 ms, and every request
/// waiting behind it too (p99 of stored dispatch 160 ms over a minute, 14 ms with no
/// checkpoint at all; docs/performance.md). Here the writer never checkpoints
/// (`wal_autocheckpoint = 0`); every `interval` (2 s) a passive checkpoint copies what is committed
/// without blocking anyone. A passive checkpoint never lets a busy log start over, so once it
/// holds `restartFrames` frames the Checkpointer asks the writer (`takeRestartRequest`) to run
/// a restart checkpoint after its next transaction: most frames are in the database file by
/// then, and the next write starts the log from its beginning again.
final class Checkpointer: @unchecked Sendable {
    /// 64 MiB of 4 KiB pages.
    static let restartFrames = 16_384
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

    init(path: String, interval: Duration = Checkpointer.interval, restartFrames: Int = Checkpointer.restartFrames) throws {
        var configuration = Configuration()
        configuration.label = "TapTraceStore.checkpointer"
        configuration.busyMode = .timeout(5)
        queue = try DatabaseQueue(path: path, configuration: configuration)
        self.interval = interval
        self.restartFrames = restartFrames
        let thread = Thread { [self] in
            // Set from the thread itself, within Linux's 15 bytes: `top -H` and perf show it.
            Thread.current.name = "TapTrace-ckpt"
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

    /// Stops the thread (after the checkpoint in progress, if any) and closes its connection.
    func stop() throws {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !stopped { condition.wait() }
        condition.unlock()
        try queue.close()
    }

    private func loop() {
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
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
            if let (frames, _) = try? queue.writeWithoutTransaction({ db in try db.checkpoint(.passive) }),
               frames >= restartFrames {
                condition.lock()
                restartWanted = true
                condition.unlock()
            }
        }
    }
}
