import Foundation
import TapTraceStore

/// Group commit for stored dispatch. Requests hand their run over and go on (their connection
/// suspended, `HTTPResponse.deferred`); one thread writes whatever has gathered in a single
/// transaction (`TraceStore.insertRunsIndependently`) and answers each request with its own
/// outcome. While it commits, the next runs gather: under load one commit serves many runs
/// (measured: 88 µs of CPU per run alone, 40 µs in batches of 8; docs/performance.md), and
/// when idle a run is written at once, alone.
final class RunWriter: @unchecked Sendable {
    typealias Completion = @Sendable (Result<RunRecord, StoreError>) -> Void

    /// Runs per transaction at most, so one commit never holds the writer for long.
    static let maxBatch = 64

    private struct Job {
        var run: NewRun
        var requireLatest: Bool
        var done: Completion
    }

    private let store: TraceStore
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var started = false
    /// The writer's thread, once it runs (guarded by `condition`).
    private var writerThread: pthread_t?

    init(store: TraceStore) {
        self.store = store
    }

    /// Queues a run; `done` is called on the writer's thread once it is written or refused.
    func submit(_ run: NewRun, requireLatest: Bool, done: @escaping Completion) {
        condition.lock()
        jobs.append(Job(run: run, requireLatest: requireLatest, done: done))
        if !started {
            started = true
            let thread = Thread { [self] in
                // Set from the thread itself, within Linux's 15 bytes: `top -H` and perf show
                // it (otherwise it inherits the name of the libmicrohttpd thread that started it).
                Thread.current.name = "TapTrace-writer"
                condition.withLock { writerThread = pthread_self() }
                loop()
            }
            thread.start()
        }
        condition.signal()
        condition.unlock()
    }

    /// Whether the caller runs on the writer's thread. Work that is not writing (running the
    /// engine, decoding a scene) must not: every request waiting for a commit would wait for it.
    var isWriterThread: Bool {
        condition.withLock { writerThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let batch = Array(jobs.prefix(Self.maxBatch))
            jobs.removeFirst(batch.count)
            condition.unlock()

            let outcomes: [Result<RunRecord, StoreError>]
            do {
                outcomes = try store.insertRunsIndependently(batch.map { ($0.run, $0.requireLatest) })
            } catch {
                // The transaction failed as a whole: nothing was written, every run says why.
                let failure = error as? StoreError ?? .database("\(error)")
                outcomes = Array(repeating: .failure(failure), count: batch.count)
            }
            for (job, outcome) in zip(batch, outcomes) { job.done(outcome) }
        }
    }
}
