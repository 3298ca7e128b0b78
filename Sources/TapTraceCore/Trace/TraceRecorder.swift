/// Appends trace entries and keeps the nesting (`depth`, `parent`) of calls made inside calls:
/// `push` after appending a call makes the following entries its children until `pop`.
public struct TraceRecorder: Sendable {
    public private(set) var entries: [TraceEntry] = []
    private var open: [Int] = []
    public var t: Double = 0
    public var cause: TraceCause = .input
    /// When false, nothing is recorded (hit-tests run for explain only).
    public let enabled: Bool

    public init(enabled: Bool = true) {
        self.enabled = enabled
        if enabled { entries.reserveCapacity(256) }
    }

    public var depth: Int { open.count }

    private mutating func append(_ kind: TraceEntry.Kind) -> Int {
        let seq = entries.count + 1
        entries.append(TraceEntry(seq: seq, t: t, cause: cause, kind: kind, depth: open.count, parent: open.last))
        return seq
    }

    /// Records a call and returns its seq (0 when disabled).
    @discardableResult
    public mutating func call(_ receiver: ObjectRef, _ selector: String, _ args: TraceArgs = [],
                              result: TraceValue? = nil, note: String? = nil) -> Int {
        guard enabled else { return 0 }
        let seq = append(.call)
        entries[seq - 1].receiver = receiver
        entries[seq - 1].selector = selector
        entries[seq - 1].args = args
        entries[seq - 1].result = result
        entries[seq - 1].note = note
        return seq
    }

    @discardableResult
    public mutating func marker(_ kind: MarkerKind, _ receiver: ObjectRef? = nil, _ args: TraceArgs = [],
                                note: String? = nil) -> Int {
        guard enabled else { return 0 }
        let seq = append(.marker)
        entries[seq - 1].marker = kind
        entries[seq - 1].receiver = receiver
        entries[seq - 1].args = args
        entries[seq - 1].note = note
        return seq
    }

    @discardableResult
    public mutating func state(_ receiver: ObjectRef, from: RecognizerState, to: RecognizerState,
                               reason: String, discrete: Bool, note: String? = nil) -> Int {
        guard enabled else { return 0 }
        let seq = append(.state)
        entries[seq - 1].receiver = receiver
        entries[seq - 1].from = from
        entries[seq - 1].to = to
        entries[seq - 1].reason = reason
        entries[seq - 1].discrete = discrete
        entries[seq - 1].note = note
        return seq
    }

    /// Makes entry `seq` the parent of what follows.
    public mutating func push(_ seq: Int) { if enabled { open.append(seq) } }
    public mutating func pop() { if enabled { open.removeLast() } }

    /// Fills in a call's result once it is known (hit-tests learn theirs after their children).
    public mutating func setResult(_ seq: Int, _ value: TraceValue?) {
        guard enabled, seq > 0 else { return }
        entries[seq - 1].result = value
    }

    public mutating func setNote(_ seq: Int, _ note: String?) {
        guard enabled, seq > 0 else { return }
        entries[seq - 1].note = note
    }

    public mutating func appendArg(_ seq: Int, _ arg: TraceArg) {
        guard enabled, seq > 0 else { return }
        entries[seq - 1].args.append(arg)
    }
}
