import Foundation

/// The threads the API's work runs on, apart from the threads that read requests (issue 34,
/// item 2: heavy work must not hold every thread that reads new requests).
///
/// libmicrohttpd's worker threads read requests and write responses for all their connections;
/// a handler that runs on one of them holds up every other connection of that thread for as
/// long as it runs. Two 100,001-view scenes decoding at once held both workers of a 2-core
/// machine, and `/health` waited seconds. So every `/v1` request is handed here (a deferred
/// response: the connection is suspended, the worker goes on with the others), and only
/// `/health`, the viewer and the API document are answered on the worker itself.
///
/// Two lanes, so that small requests do not queue behind heavy ones:
/// - `heavy` work (running the engine, decoding scenes, importing, replaying, exporting) runs on
///   at most `heavyThreads` threads at once, first come first served: it is CPU-bound, so more
///   at once would only share the processors more finely, and each holds memory while it runs
///   (decoding a large scene takes about three times its index);
/// - `light` work (listings, a scene's metadata, screenshots, handing a delete to its queue)
///   goes first, on any idle thread, and one thread more than `heavyThreads` is kept for it, so
///   it is answered while the heavy lane is full.
///
/// A request's time budget starts when its work starts; a request whose client hangs up while
/// it waits stops as soon as it starts (`RequestCancellation`).
final class WorkPool: @unchecked Sendable {
    enum Lane { case light, heavy }

    typealias Job = @Sendable () -> Void

    private let condition = NSCondition()
    private var light = JobQueue()
    private var heavy = JobQueue()
    private var heavyRunning = 0

    let heavyThreads: Int

    init(heavyThreads count: Int) {
        heavyThreads = max(1, count)
        for index in 0...heavyThreads {
            let thread = Thread { [self] in
                Thread.current.name = "TapTrace-work\(index)"
                work()
            }
            threads.append(thread)
            thread.start()
        }
    }

    private var threads: [Thread] = []

    /// Runs `job` on one of the pool's threads, in the order submitted within its lane.
    func submit(_ lane: Lane, _ job: @escaping Job) {
        condition.lock()
        switch lane {
        case .light: light.append(job)
        case .heavy: heavy.append(job)
        }
        condition.signal()
        condition.unlock()
    }

    /// Jobs submitted and not yet started (for tests and diagnostics).
    var waiting: (light: Int, heavy: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (light.count, heavy.count)
    }

    private func work() {
        while true {
            condition.lock()
            var job: Job?
            var isHeavy = false
            while job == nil {
                if let next = light.next() {
                    job = next
                } else if heavyRunning < heavyThreads, let next = heavy.next() {
                    job = next
                    isHeavy = true
                    heavyRunning += 1
                } else {
                    condition.wait()
                }
            }
            condition.unlock()
            job!()
            if isHeavy {
                condition.lock()
                heavyRunning -= 1
                // A heavy job may wait for the place this one leaves.
                condition.signal()
                condition.unlock()
            }
        }
    }

    /// A first-in first-out queue that drops what has run once it is drained or half spent.
    private struct JobQueue {
        private var jobs: [Job] = []
        private var head = 0

        var count: Int { jobs.count - head }

        mutating func append(_ job: @escaping Job) { jobs.append(job) }

        mutating func next() -> Job? {
            guard head < jobs.count else { return nil }
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 1024, head * 2 >= jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }
    }
}
