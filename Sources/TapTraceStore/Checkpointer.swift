import Foundation
import GRDB

/// Copies the write-ahead log back into the database file from a thread and a connection of
/// its own, every `interval`, so that the writer never does it in the middle of a commit.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses the threshold (1,000
/// pages): that commit copies 4 MB and syncs the file while every run waiting behind it waits
/// too (stored dispatch's p99 was 3× its p50). A passive checkpoint on another connection
/// copies what is committed without blocking the writer or the readers. The writer keeps an
/// automatic checkpoint at a higher threshold (`fallbackPages`) in case this one falls behind.
final class Checkpointer: @unchecked Sendable {
    static let fallbackPages = 20_000

    private let queue: DatabaseQueue
    private let interval: Duration
    private let condition = NSCondition()
    private var stopping = false
    private var stopped = false

    init(path: String, interval: Duration = .milliseconds(50)) throws {
        var configuration = Configuration()
        configuration.label = "TapTraceStore.checkpointer"
        configuration.busyMode = .timeout(5)
        queue = try DatabaseQueue(path: path, configuration: configuration)
        self.interval = interval
        let thread = Thread { [self] in loop() }
        thread.name = "TapTrace-checkpointer"
        thread.start()
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
            // Busy or failing now and then is harmless: the next round, or the writer's own
            // fallback checkpoint, catches up.
            _ = try? queue.writeWithoutTransaction { db in try db.checkpoint(.passive) }
        }
    }
}
