import Foundation

/// Text lines written to a file descriptor (the request log on standard error) from many
/// threads: every line whole, in the order the lines arrived, with as few `write(2)` calls as
/// the load allows.
///
/// Without a flush interval, a thread that finds no write under way becomes the writer: it
/// writes its line and then whatever other threads appended meanwhile, batch after batch,
/// until nothing is pending. The other threads only append under the lock and go on. Writing
/// one line per call under a lock (what this replaced) made every request of a busy server pay
/// a system call and, when two workers ended requests together, a futex wait
/// (docs/performance.md). A line reaches the descriptor at once when the log is
/// idle and within one batch's write when it is busy.
///
/// With a flush interval, appending never writes: a thread of the writer's own writes what has
/// gathered once the interval has passed since the first pending line (or at once when
/// `flushBytes` are pending). A log line per request then costs a lock and a copy instead of
/// a system call: `write(2)` to a file updates its modification time through the file
/// system's journal, 2 % of the worker threads' time under load. While
/// nothing is pending the thread looks once a second whether the writer is still there, and
/// ends when it is gone.
///
/// `flush()` waits until everything appended has been written (before the process exits).
/// When the descriptor blocks (a full pipe nobody reads), appends wait once `pendingLimit`
/// bytes are pending instead of growing memory without bound.
public final class LineWriter: @unchecked Sendable {
    private let descriptor: Int32
    private let pendingLimit: Int
    private let condition = NSCondition()
    private var pending: [UInt8] = []
    private var spare: [UInt8] = []
    private var writing = false
    /// Batches written so far (each one `write(2)` unless the descriptor took it in parts).
    private var batches = 0
    var batchesWritten: Int { condition.withLock { batches } }
    /// Whether a thread is writing now, for tests.
    var isWriting: Bool { condition.withLock { writing } }

    /// How long a line may wait for the flushing thread; nil writes from the appending threads.
    public let flushInterval: Duration?
    /// Pending bytes that make the flushing thread write before the interval is over.
    public let flushBytes: Int

    public init(descriptor: Int32, pendingLimit: Int = 1 << 20, flushInterval: Duration? = nil, flushBytes: Int = 64 << 10) {
        self.descriptor = descriptor
        self.pendingLimit = max(1, pendingLimit)
        self.flushInterval = flushInterval
        self.flushBytes = max(1, min(flushBytes, self.pendingLimit))
        pending.reserveCapacity(16 << 10)
        spare.reserveCapacity(16 << 10)
        if let flushInterval {
            let seconds = flushInterval / .seconds(1)
            let thread = Thread { [weak self] in
                Thread.current.name = "TapTrace-log"
                while let writer = self { writer.flushWhenDue(afterSeconds: seconds) }
            }
            thread.start()
        }
    }

    /// Appends `line` and a newline; writes them (and others') unless a writer is at work, or
    /// leaves them to the flushing thread.
    public func write(_ line: String) {
        condition.lock()
        while pending.count >= pendingLimit { condition.wait() }
        let wasEmpty = pending.isEmpty
        var line = line
        line.withUTF8 { pending.append(contentsOf: $0) }
        pending.append(0x0A)
        if flushInterval != nil {
            // The flushing thread sleeps while nothing is pending: the first line wakes it to
            // start the interval, a full batch to write now.
            if wasEmpty || pending.count >= flushBytes { condition.broadcast() }
            condition.unlock()
            return
        }
        guard !writing else { condition.unlock(); return }
        drainLocked()
        condition.unlock()
    }

    /// Returns once every line appended before the call has been written.
    public func flush() {
        condition.lock()
        while writing { condition.wait() }
        if !pending.isEmpty { drainLocked() }
        condition.unlock()
    }

    /// The flushing thread's step: waits for a pending line, then for the interval (or a full
    /// batch), then writes. The thread's loop ends once the writer is gone.
    private func flushWhenDue(afterSeconds seconds: Double) {
        condition.lock()
        defer { condition.unlock() }
        if pending.isEmpty {
            // Bounded, so that a writer released while the thread waits is noticed.
            _ = condition.wait(until: Date(timeIntervalSinceNow: 1))
            return
        }
        let deadline = Date(timeIntervalSinceNow: seconds)
        while pending.count < flushBytes, Date() < deadline {
            if !condition.wait(until: deadline) { break }
        }
        if !writing, !pending.isEmpty { drainLocked() }
    }

    /// Called with the lock held and no writer; writes batches with the lock released until
    /// nothing is pending, then wakes whoever waits (appenders over the limit, `flush`).
    private func drainLocked() {
        writing = true
        while !pending.isEmpty {
            // Swap buffers so appenders keep a buffer with capacity while this one is written.
            swap(&pending, &spare)
            condition.broadcast()
            condition.unlock()
            writeAll(spare)
            condition.lock()
            batches += 1
            spare.removeAll(keepingCapacity: true)
        }
        writing = false
        condition.broadcast()
    }

    private func writeAll(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0, errno == EINTR { continue }
                if written <= 0 { break }
                offset += written
            }
        }
    }
}
