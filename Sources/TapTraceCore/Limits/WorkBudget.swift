/// Something that can ask running work to stop, from another thread: the service's request
/// whose client has gone away, for instance. Read at the work's safe points, so an
/// implementation should be cheap (an atomic or a lock, not a system call).
public protocol WorkCancellation: Sendable {
    var isCancelled: Bool { get }
}

/// Why work was stopped before it finished.
public enum WorkStop: Error, Sendable, Hashable, CustomStringConvertible {
    /// A size passed its limit (the trace, for a run).
    case limit(LimitExceeded)
    /// The time budget ran out: `allowed` is the budget.
    case timeBudget(allowed: Duration)
    /// The work's `WorkCancellation` asked it to stop.
    case cancelled

    public var description: String {
        switch self {
        case .limit(let e): return e.description
        case .timeBudget(let allowed): return "time budget of \(WorkBudget.seconds(allowed)) s exceeded"
        case .cancelled: return "cancelled"
        }
    }
}

/// What one request's work may spend: its `Limits` (a run's trace is held to `traceEntries`),
/// a deadline on the continuous clock, and a cancellation another thread may set. The work
/// checks it at safe points (a run between two input records and before its last timers, the
/// service between phases and between the runs of a replay), never inside one step, so that
/// the check costs nothing measurable: a comparison per record, the clock once every
/// `clockInterval` records or `entryInterval` trace entries.
///
/// When the budget stops work it records why (`stop`), and everything that checks it
/// afterwards stops at once: a request whose first run ran out of time runs nothing more. What
/// the stopped work returned is partial; the caller asks `finish()`, which throws the reason.
///
/// The deadline is read from `ContinuousClock` (the standard library: no Foundation, and it
/// keeps counting while the process is not scheduled, as a client's wait does).
///
/// A budget is used by one thread at a time (work handed to a queue takes it along); only its
/// `cancellation` may be set from another thread, and it synchronises itself.
public final class WorkBudget: @unchecked Sendable {
    public let limits: Limits
    /// The time the work may take; nil: no deadline.
    public let allowed: Duration?
    public let deadline: ContinuousClock.Instant?
    public let cancellation: (any WorkCancellation)?
    /// Why the work was stopped; nil while it may go on.
    public private(set) var stop: WorkStop?

    /// The clock is read at most once per this many input records of a run…
    public static let clockInterval = 16
    /// …or this many trace entries, whichever comes first.
    public static let entryInterval = 4096

    /// A budget of `time` from `start` (now by default); nil: no deadline.
    public init(limits: Limits = .unlimited, time: Duration? = nil, start: ContinuousClock.Instant = .now,
                cancellation: (any WorkCancellation)? = nil) {
        self.limits = limits
        self.allowed = time
        self.deadline = time.map { start.advanced(by: $0) }
        self.cancellation = cancellation
    }

    /// Whether the work may go on: false once the deadline has passed, the work was cancelled,
    /// or it was stopped before; the reason is then in `stop`. Reads the clock.
    public func mayContinue() -> Bool {
        if stop != nil { return false }
        if let cancellation, cancellation.isCancelled {
            stop = .cancelled
            return false
        }
        if let deadline, let allowed, ContinuousClock.now >= deadline {
            stop = .timeBudget(allowed: allowed)
            return false
        }
        return true
    }

    /// Stops the work for `reason`, unless it was stopped already (the first reason stays).
    public func stop(_ reason: WorkStop) {
        if stop == nil { stop = reason }
    }

    /// Throws why the work was stopped, if it was.
    public func finish() throws(WorkStop) {
        if let stop { throw stop }
    }

    /// `mayContinue()`, throwing the reason: for the service's checks between phases.
    public func check() throws(WorkStop) {
        if !mayContinue() { try finish() }
    }

    /// A duration in seconds, as messages print it ("30", "0.25").
    public static func seconds(_ d: Duration) -> String {
        let (s, atto) = d.components
        return NumberText.format(Double(s) + Double(atto) / 1e18)
    }
}
