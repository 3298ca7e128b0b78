import Foundation
import TestSupport
import Testing
@testable import TapTraceHTTP

/// `LineWriter`: the request log's lines, written whole and batched while a write is under way.
@Suite struct LineWriterTests {
    /// A pipe whose read end a test drains when it chooses.
    final class Pipe: @unchecked Sendable {
        let read: Int32
        let write: Int32
        init() {
            var fds: [Int32] = [0, 0]
            precondition(pipe(&fds) == 0)
            read = fds[0]
            write = fds[1]
        }
        deinit { close(read) }

        /// Closes the write end and returns everything written.
        func finish() -> String {
            close(write)
            return drain()
        }

        /// Reads until end of file.
        func drain() -> String {
            var all: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = chunk.withUnsafeMutableBytes { Foundation.read(read, $0.baseAddress!, $0.count) }
                if n <= 0 { break }
                all.append(contentsOf: chunk[0..<n])
            }
            return String(decoding: all, as: UTF8.self)
        }
    }

    @Test func linesFromManyThreadsArriveWholeAndInEachThreadsOrder() throws {
        let pipe = Pipe()
        let writer = LineWriter(descriptor: pipe.write)
        let collected = Shared("")
        let reader = TestThread { collected.update { $0 = pipe.drain() } }
        let threads = 8, linesEach = 2_000
        let padding = String(repeating: "x", count: 40)
        let workers = (0..<threads).map { t in
            TestThread { for n in 0..<linesEach { writer.write("t\(t) n\(n) \(padding)") } }
        }
        for worker in workers { #expect(worker.join()) }
        writer.flush()
        close(pipe.write)
        #expect(reader.join())

        let lines = collected.current.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == threads * linesEach + 1)  // the text ends with a newline
        #expect(lines.last == "")
        var next = [Int](repeating: 0, count: threads)
        for line in lines.dropLast() {
            let parts = line.split(separator: " ")
            guard parts.count == 3, parts[2] == padding, let t = Int(parts[0].dropFirst()), let n = Int(parts[1].dropFirst()),
                  (0..<threads).contains(t) else {
                Issue.record("a line was cut or mixed with another: \(line.prefix(80))")
                return
            }
            #expect(n == next[t], "thread \(t)'s lines out of order")
            next[t] = n + 1
        }
        #expect(next == [Int](repeating: linesEach, count: threads))
    }

    /// While one write is blocked (nobody reads the pipe), other lines are appended without
    /// waiting, and then go out together in one batch.
    @Test func linesArrivingDuringAWriteGoOutInOneBatch() throws {
        let pipe = Pipe()
        let writer = LineWriter(descriptor: pipe.write)
        let big = String(repeating: "b", count: 200_000)  // more than a pipe holds: the write blocks
        let first = TestThread { writer.write(big) }
        #expect(eventually { writer.isWriting })
        let others = TestThread { for n in 0..<10 { writer.write("line \(n)") } }
        #expect(others.join(timeoutSeconds: 5), "appending waited for the blocked write")
        #expect(writer.batchesWritten == 0)

        let collected = Shared("")
        let reader = TestThread { collected.update { $0 = pipe.drain() } }
        #expect(first.join())
        writer.flush()
        close(pipe.write)
        #expect(reader.join())
        #expect(collected.current == big + "\n" + (0..<10).map { "line \($0)\n" }.joined())
        #expect(writer.batchesWritten == 2)
    }

    /// A descriptor that blocks does not make memory grow: past the limit, appends wait.
    @Test func appendsWaitOncePendingBytesReachTheLimit() throws {
        let pipe = Pipe()
        let writer = LineWriter(descriptor: pipe.write, pendingLimit: 64)
        let first = TestThread { writer.write(String(repeating: "b", count: 200_000)) }
        #expect(eventually { writer.isWriting })
        let appended = Shared(0)
        let others = TestThread {
            for n in 0..<20 {
                writer.write("line \(n) of twenty")
                appended.update { $0 = n + 1 }
            }
        }
        #expect(!others.join(timeoutSeconds: 0.3), "20 lines of 18 bytes were held with a 64-byte limit")
        #expect(appended.current < 20)

        let collected = Shared("")
        let reader = TestThread { collected.update { $0 = pipe.drain() } }
        #expect(first.join())
        #expect(others.join())
        writer.flush()
        close(pipe.write)
        #expect(reader.join())
        #expect(collected.current.hasSuffix((0..<20).map { "line \($0) of twenty\n" }.joined()))
    }

    /// With a flush interval, appending never writes: the writer's thread writes what gathered
    /// once the interval has passed, in one batch, lines whole and in order.
    @Test func withAFlushIntervalLinesGoOutTogetherAfterTheInterval() throws {
        let pipe = Pipe()
        let writer = LineWriter(descriptor: pipe.write, flushInterval: .milliseconds(300))
        let collected = Shared("")
        let reader = TestThread { collected.update { $0 = pipe.drain() } }
        for n in 0..<50 { writer.write("line \(n)") }
        usleep(100_000)
        #expect(writer.batchesWritten == 0, "written before the interval was over")
        #expect(eventually(timeoutSeconds: 5) { writer.batchesWritten == 1 })
        // A second round starts a new interval.
        writer.write("late")
        #expect(eventually(timeoutSeconds: 5) { writer.batchesWritten == 2 })
        close(pipe.write)
        #expect(reader.join())
        #expect(collected.current == (0..<50).map { "line \($0)\n" }.joined() + "late\n")
    }

    /// With a flush interval, `flush()` still writes at once, and a full batch does not wait
    /// for the interval.
    @Test func withAFlushIntervalFlushAndFullBatchesWriteAtOnce() throws {
        let pipe = Pipe()
        let writer = LineWriter(descriptor: pipe.write, flushInterval: .seconds(3600), flushBytes: 100)
        let collected = Shared("")
        let reader = TestThread { collected.update { $0 = pipe.drain() } }
        writer.write("short")
        writer.flush()
        #expect(writer.batchesWritten == 1)
        writer.write(String(repeating: "f", count: 150))
        #expect(eventually(timeoutSeconds: 5) { writer.batchesWritten == 2 }, "a full batch waited for the interval")
        close(pipe.write)
        #expect(reader.join())
        #expect(collected.current == "short\n" + String(repeating: "f", count: 150) + "\n")
    }
}
