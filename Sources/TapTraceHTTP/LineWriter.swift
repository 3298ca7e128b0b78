import Foundation

/// Text lines written to a file descriptor (the request log on standard error) from many
/// threads: every line whole, in the order the lines arrived, with as few `write(2)` calls as
/// the load allows.
///
/// A thread that finds no write under way becomes the writer: it writes its line and then
/// whatever other threads appended meanwhile, batch after batch, until nothing is pending.
/// The other threads only append under the lock and go on. Writing one line per call under a
/// lock (what this replaced) made every request of a busy server pay a system call and, when
/// two workers ended requests together, a futex wait (docs/performance.md, 2026-11-24).
///
/// A line reaches the descriptor at once when the log is idle and within one batch's write
/// when it is busy. `flush()` waits until everything appended has been written (before the
/// process exits). When the descriptor blocks (a full pipe nobody reads), appends wait once
/// `pendingLimit` bytes are pending instead of growing memory without bound.
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

    public init(descriptor: Int32, pendingLimit: Int = 1 << 20) {
        self.descriptor = descriptor
        self.pendingLimit = max(1, pendingLimit)
        pending.reserveCapacity(16 << 10)
        spare.reserveCapacity(16 << 10)
    }

    /// Appends `line` and a newline; writes them (and others') unless a writer is at work.
    public func write(_ line: String) {
        condition.lock()
        while pending.count >= pendingLimit { condition.wait() }
        var line = line
        line.withUTF8 { pending.append(contentsOf: $0) }
        pending.append(0x0A)
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
