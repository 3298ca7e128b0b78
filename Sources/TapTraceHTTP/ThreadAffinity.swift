import CThreadAffinity

/// Which processors a thread may run on (Linux `sched_getaffinity` / `sched_setaffinity`).
///
/// The server binds each worker thread to a processor of its own (`HTTPServerConfiguration
/// .pinsWorkerThreads`). Left to float, two workers woke now and then on the same core (the
/// kernel places a woken thread near the one that woke it) and took turns there for a few
/// milliseconds while the other core ran only the clients: every connection of one worker
/// then waited 2 ms more at once, most of the latency tail left once workers yield after each
/// response (docs/performance.md).
public enum ThreadAffinity {
    /// The processors the calling thread may run on, ascending; empty when unknown.
    public static func allowedProcessors() -> [Int] {
        var processors = [Int32](repeating: 0, count: 1024)
        let count = taptrace_allowed_processors(&processors, Int32(processors.count))
        guard count > 0 else { return [] }
        return processors.prefix(Int(min(count, Int32(processors.count)))).map(Int.init)
    }

    /// Binds the calling thread to `processor`; false when the system refuses (the thread then
    /// runs where it ran before).
    @discardableResult
    public static func pinCurrentThread(to processor: Int) -> Bool {
        taptrace_pin_current_thread(Int32(clamping: processor)) == 0
    }

    /// The processor for each of `workers` worker threads: one each, in the order allowed,
    /// or none at all when there are fewer than two processors or more workers than processors
    /// (threads sharing a processor gain nothing from being bound to it).
    static func assignment(workers: Int, allowed: [Int]) -> [Int]? {
        guard workers >= 1, allowed.count >= 2, workers <= allowed.count else { return nil }
        return Array(allowed.prefix(workers))
    }
}
