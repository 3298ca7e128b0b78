extension Problem.Kind {
    /// A request that would cost more than one of the `Limits` allows (422).
    public static let limitExceeded = Problem.Kind("limit-exceeded")
    /// A request whose work ran past its time budget (503).
    public static let timeBudgetExceeded = Problem.Kind("time-budget-exceeded")
    /// A request whose work was cancelled (its client went away) before it finished (503).
    public static let cancelled = Problem.Kind("cancelled")
}

extension Problem {
    /// The setting that sets the request time budget, as `taptrace serve` reads it.
    public static let timeBudgetFlag = "--request-time-budget"
    public static let timeBudgetVariable = "TAPTRACE_REQUEST_TIME_BUDGET"

    /// A limit passed: the problem names the limit, its value, the size met and the flag and
    /// environment variable that raise it (`limit`), and the member of the request that makes
    /// the size (`pointer`), when one does.
    public init(_ exceeded: LimitExceeded) {
        self.init(kind: .limitExceeded, title: "Limit exceeded",
                  detail: Self.subject(exceeded) + " " + exceeded.message + ".")
        limit = exceeded
        pointer = exceeded.pointer
    }

    /// Why work stopped, as the problem the request answers with.
    public init(_ stop: WorkStop) {
        switch stop {
        case .limit(let exceeded):
            self.init(exceeded)
        case .timeBudget(let allowed):
            self.init(kind: .timeBudgetExceeded, title: "Time budget exceeded",
                      detail: "The request needed more than its time budget of \(WorkBudget.seconds(allowed)) s, so its work"
                        + " was stopped and nothing was stored. The server may be busy: try again later, or ask for less"
                        + " work (the budget is set with \(Self.timeBudgetFlag) or \(Self.timeBudgetVariable)).")
            // Every request's work is held to the same budget, so after that long the work that
            // competed with this one has finished or been stopped.
            let (seconds, atto) = allowed.components
            retryAfter = Int(max(1, seconds + (atto > 0 ? 1 : 0)))
        case .cancelled:
            self.init(kind: .cancelled, title: "Request cancelled",
                      detail: "The request's work was cancelled before it finished; nothing was stored.")
        }
    }

    /// The start of a limit's sentence: what has the size.
    private static func subject(_ e: LimitExceeded) -> String {
        switch e.limit {
        case .records: return "The touches expand to"
        case .traceEntries: return "The run's trace reached"
        case .views: return "The scene has"
        case .responseBytes: return "The answer has"
        case .readBytes: return "The stored result has"
        case .geometryViews: return "The page asks for"
        }
    }
}
