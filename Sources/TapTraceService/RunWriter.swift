import CThreadAffinity
import Foundation
import TapTraceHTTP
import TapTraceStore

/// Group commit for stored dispatch. Requests hand their run over and go on (their connection
/// suspended, `HTTPResponse.deferred`); one thread writes whatever has gathered in a single
/// transaction (`TraceStore.insertRunsIndependently`) and answers each request with its own
/// outcome. While it commits, the next runs gather: under load one commit serves many runs
/// (measured: 88 µs of CPU per run alone, 40 µs in batches of 8; docs/performance.md), and
/// when idle a run is written at once, alone.
///
/// Left alone, the batches stay small on two cores (about two runs a commit under full
/// load), and every commit writes about five pages to the log whatever its size. So a request
/// announces its run before the engine runs (``announce()``), and the writer, finding runs
/// announced but not yet handed over, waits for them up to ``gatherWindow`` before it
/// commits (decision 47). A lone client never waits: its own run is the only one announced,
/// and it is handed over by then.
final class RunWriter: @unchecked Sendable {
    typealias Completion = @Sendable (Result<RunRecord, StoreError>) -> Void

    /// Runs per transaction at most, so one commit never holds the writer for long.
    static let maxBatch = 64

    /// How long the writer waits at most for announced runs before committing what it has.
    /// Under full load a batch gathers for this long: 0.3 to 1 ms all did as well
    /// (docs/performance.md); a run prepared in that time joins.
    static let gatherWindow: Duration = .microseconds(500)

    /// A run on its way: announced before the engine runs, handed over by ``submit``. One
    /// released without being submitted (the request failed) is withdrawn.
    final class Announcement: @unchecked Sendable {
        fileprivate weak var writer: RunWriter?
        /// Guarded by the writer's lock.
        fileprivate var open = true

        fileprivate init(writer: RunWriter) {
            self.writer = writer
        }

        deinit {
            writer?.withdraw(self)
        }
    }

    private struct Job {
        var run: NewRun
        var requireLatest: Bool
        var done: Completion
    }

    private let store: any TraceStore
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var started = false
    /// The writer's thread, once it runs (guarded by `condition`).
    private var writerThread: pthread_t?
    /// Runs announced and not yet submitted or withdrawn.
    private var announced = 0
    /// `gatherWindow` in seconds, as `NSCondition.wait(until:)` wants it.
    private let gatherSeconds: TimeInterval

    /// What the writer's thread waits for, if it waits (guarded by `condition`). Submitting
    /// and withdrawing wake it only when what it waits for has happened: woken by every
    /// submitted run while it gathers, it went to sleep again each time, two context switches
    /// per run for nothing (docs/performance.md).
    private enum Waiting {
        case no
        /// For a first run to write.
        case forRuns
        /// For the announced runs to arrive (or be withdrawn), or the batch to fill up.
        case forAnnounced
    }
    private var waiting = Waiting.no
    /// The processors the writer commits on, one batch each in turn (`commitOn(processors:)`);
    /// empty: wherever the system runs it. Guarded by `condition`.
    private var processors: [Int] = []
    /// Batches committed so far (guarded by `condition`).
    private var batches = 0

    /// Times the writer's thread woke from a wait (for tests).
    private var wakeUps = 0
    var wakeUpCount: Int { condition.withLock { wakeUps } }

    /// Whether each run is written by the thread that submits it, alone, instead of by the
    /// writer's thread (`TapTraceService.RunWriting.inline`).
    private let inline: Bool

    init(store: any TraceStore, gatherWindow: Duration = RunWriter.gatherWindow, inline: Bool = false) {
        self.store = store
        self.inline = inline
        gatherSeconds = gatherWindow / .seconds(1)
    }

    /// Says that a run is being prepared and will be submitted soon.
    func announce() -> Announcement {
        condition.withLock { announced += 1 }
        return Announcement(writer: self)
    }

    private func withdraw(_ announcement: Announcement) {
        condition.lock()
        close(announcement)
        signalIfAwaited()
        condition.unlock()
    }

    /// Call with the lock held: wakes the writer if what it waits for has come.
    private func signalIfAwaited() {
        switch waiting {
        case .no: break
        case .forRuns: if !jobs.isEmpty { condition.signal() }
        case .forAnnounced: if announced == 0 || jobs.count >= Self.maxBatch { condition.signal() }
        }
    }

    /// Call with the lock held.
    private func close(_ announcement: Announcement?) {
        guard let announcement, announcement.open else { return }
        announcement.open = false
        announced -= 1
    }

    /// Queues a run; `done` is called on the writer's thread once it is written or refused.
    /// `announcement` is the run's, if it was announced.
    ///
    /// The run's result is hashed and compressed here, on the caller's thread, before the run
    /// is queued (`TraceStore.prepare`): on the writer's thread, inside its transaction, a big
    /// result held every other run waiting for as long (9.5 s for a 1.6 GB result). A result
    /// equal to one stored lately is neither (`RecentResults`).
    func submit(_ run: NewRun, requireLatest: Bool, announcement: Announcement? = nil, done: @escaping Completion) {
        let run = store.prepare(run)
        if inline {
            condition.withLock { close(announcement) }
            done(Self.write([Job(run: run, requireLatest: requireLatest, done: done)], to: store)[0])
            return
        }
        condition.lock()
        close(announcement)
        jobs.append(Job(run: run, requireLatest: requireLatest, done: done))
        if !started {
            started = true
            let thread = Thread { [self] in
                // Set from the thread itself, within Linux's 15 bytes: `top -H` and perf show
                // it (otherwise it inherits the name of the libmicrohttpd thread that started it).
                Thread.current.name = "TapTrace-writer"
                // Decision 48: of the batch class, the writer woken by a request's run waits for
                // the worker on its processor to finish a response (workers yield after each)
                // instead of preempting it mid-request. Where refused, it runs as before.
                // Decision 144: a writer that waits for a database server stays in the normal
                // class, so that the server's answer wakes it at once.
                if store.writesOnCallingThread { _ = taptrace_run_current_thread_as_batch() }
                condition.withLock { writerThread = pthread_self() }
                loop()
            }
            thread.start()
        }
        signalIfAwaited()
        condition.unlock()
    }

    /// Makes the writer commit each batch on the next of `processors` in turn: the HTTP worker
    /// threads' (decision 48). A writer left where the system put it stayed on one core, and the
    /// worker bound to that core answered its connections about half as fast as the other.
    /// Fewer than two processors: the writer runs wherever the system puts it.
    /// A store whose writes wait for a server (decision 144) is left where the system puts it.
    func commitOn(processors: [Int]) {
        let useful = processors.count >= 2 && store.writesOnCallingThread
        condition.withLock { self.processors = useful ? processors : [] }
    }

    /// Whether the caller runs on the writer's thread. Work that is not writing (running the
    /// engine, decoding a scene) must not: every request waiting for a commit would wait for it.
    var isWriterThread: Bool {
        condition.withLock { writerThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty {
                waiting = .forRuns
                condition.wait()
                wakeUps += 1
            }
            waiting = .no
            gather()
            let batch = Array(jobs.prefix(Self.maxBatch))
            jobs.removeFirst(batch.count)
            let processor = processors.isEmpty ? nil : processors[batches % processors.count]
            batches += 1
            condition.unlock()
            if let processor { ThreadAffinity.pinCurrentThread(to: processor) }

            for (job, outcome) in zip(batch, Self.write(batch, to: store)) { job.done(outcome) }
        }
    }

    /// Writes `batch` in one transaction, each run checked on its own; returns each one's outcome.
    private static func write(_ batch: [Job], to store: any TraceStore) -> [Result<RunRecord, StoreError>] {
        do {
            return try store.insertRunsIndependently(batch.map { ($0.run, $0.requireLatest) })
        } catch {
            // The transaction failed as a whole: nothing was written, every run says why.
            let failure = error as? StoreError ?? .database("\(error)")
            return Array(repeating: .failure(failure), count: batch.count)
        }
    }

    /// Waits, with the lock held, while runs are announced and the batch has room, at most
    /// the gather window: the last announced run submitted or withdrawn, or a full batch,
    /// wakes the writer.
    private func gather() {
        guard announced > 0, jobs.count < Self.maxBatch else { return }
        let deadline = Date(timeIntervalSinceNow: gatherSeconds)
        waiting = .forAnnounced
        while announced > 0, jobs.count < Self.maxBatch, condition.wait(until: deadline) { wakeUps += 1 }
        waiting = .no
    }
}
