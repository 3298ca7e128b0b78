/// Records a run's trace and keeps the nesting (`depth`, `parent`) of calls made inside calls:
/// `push` after appending a call makes the following entries its children until `pop`.
///
/// Entries are stored compactly while the run goes on: views are referred to by index, arguments
/// live in one flat array, notes and other text in side tables. A tap in a 1,000-view scene
/// records a few hundred entries, and building a full `TraceEntry` (strings, optional payloads,
/// an argument array) for each as it happens cost more than the dispatch itself (see
/// docs/performance.md). `entries` builds them on demand; `ResultEncoder` writes JSON straight
/// from the compact form.
public struct TraceRecorder: Sendable {
    /// What a receiver or a value refers to, without copying its strings.
    enum Object: Sendable {
        case none
        case view(Int32)
        case other(Int32)        // index into `objects`
    }

    enum StoredValue: Sendable {
        case value(TraceValue)
        case view(Int32)
    }

    struct StoredArg: Sendable {
        var name: String
        var value: StoredValue
    }

    struct Record: Sendable {
        var kind: TraceEntry.Kind
        var marker: MarkerKind?
        var from: RecognizerState?
        var to: RecognizerState?
        var discrete = false
        var receiver: Object = .none
        var selector: String?
        var argStart: Int32
        var argCount: Int32 = 0
        var result: StoredValue?
        var update: Int32
        var depth: Int32
        var parent: Int32
        var note: Int32 = -1
        var reason: Int32 = -1
    }

    private(set) var records: [Record] = []
    private(set) var args: [StoredArg] = []
    private(set) var objects: [ObjectRef] = []
    private(set) var texts: [String] = []
    private(set) var updates: [(t: Double, cause: TraceCause)] = []
    let viewRefs: [ObjectRef]
    private var open: [Int32] = []
    /// When false, nothing is recorded (hit-tests run for explain only).
    public let enabled: Bool

    public var t: Double = 0 { didSet { updateChanged = true } }
    public var cause: TraceCause = .input { didSet { updateChanged = true } }
    private var updateChanged = true

    /// `viewRefs` names the scene's views (`SceneIndex.refs`); view receivers are stored by index.
    public init(enabled: Bool = true, viewRefs: [ObjectRef] = []) {
        self.enabled = enabled
        self.viewRefs = viewRefs
        if enabled {
            records.reserveCapacity(256)
            args.reserveCapacity(512)
            // The side tables too: grown from empty they were reallocated five or six times
            // per tap (with the run's other allocation cuts of 2026-11-24, callgrind: 246k →
            // 235k instructions per dispatch of bench/make-scene.py's tap).
            texts.reserveCapacity(64)
            objects.reserveCapacity(64)
            updates.reserveCapacity(8)
            open.reserveCapacity(16)
        }
    }

    public var depth: Int { open.count }
    public var count: Int { records.count }

    // MARK: recording

    // Each entry's record is appended whole, built in the `append` call itself: appending a
    // skeleton and then setting its fields checked the array's uniqueness and bounds for each
    // field, and building it in a variable first copied it (callgrind, 2026-11-24:
    // 147k → 143k instructions per dispatch of bench/make-scene.py's tap).

    /// Appends a call's record, built in the append itself; returns its seq.
    @inline(__always)
    private mutating func appendCall(_ receiver: Object, _ selector: String, argStart: Int32, argCount: Int32,
                                     result: StoredValue?, note: String?) -> Int {
        records.append(Record(kind: .call, receiver: receiver, selector: selector, argStart: argStart, argCount: argCount,
                              result: result, update: currentUpdate(), depth: Int32(open.count),
                              parent: open.last ?? 0, note: text(note)))
        return records.count
    }

    /// Appends a marker's record, built in the append itself; returns its seq.
    @inline(__always)
    private mutating func appendMarker(_ kind: MarkerKind, _ receiver: Object, argStart: Int32, argCount: Int32,
                                       note: String?) -> Int {
        records.append(Record(kind: .marker, marker: kind, receiver: receiver, argStart: argStart, argCount: argCount,
                              update: currentUpdate(), depth: Int32(open.count), parent: open.last ?? 0, note: text(note)))
        return records.count
    }

    /// The index of the current update in `updates`, adding it if `t` or `cause` changed.
    private mutating func currentUpdate() -> Int32 {
        if updateChanged {
            updates.append((t, cause))
            updateChanged = false
        }
        return Int32(updates.count - 1)
    }

    private mutating func object(_ ref: ObjectRef?) -> Object {
        guard let ref else { return .none }
        objects.append(ref)
        return .other(Int32(objects.count - 1))
    }

    private mutating func text(_ s: String?) -> Int32 {
        guard let s else { return -1 }
        texts.append(s)
        return Int32(texts.count - 1)
    }

    /// Appends the arguments and returns how many there were.
    private mutating func store(_ list: TraceArgs) -> Int32 {
        // Field by field: the generic Collection path costs more than the copy itself.
        guard let first = list.first else { return 0 }
        args.append(StoredArg(name: first.name, value: .value(first.value)))
        var n: Int32 = 1
        if let second = list.second {
            args.append(StoredArg(name: second.name, value: .value(second.value)))
            n += 1
            for a in list.more { args.append(StoredArg(name: a.name, value: .value(a.value))); n += 1 }
        }
        return n
    }

    /// Records a call and returns its seq (0 when disabled).
    @discardableResult
    public mutating func call(_ receiver: ObjectRef, _ selector: String, _ args: TraceArgs = [],
                              result: TraceValue? = nil, note: String? = nil) -> Int {
        guard enabled else { return 0 }
        let start = Int32(self.args.count)
        let n = store(args)
        return appendCall(object(receiver), selector, argStart: start, argCount: n, result: result.map { .value($0) }, note: note)
    }

    /// A call on a view of the scene (the hot path: hit-testing and touch delivery).
    @discardableResult
    public mutating func call(view: Int, _ selector: String, _ args: TraceArgs = [],
                              result: TraceValue? = nil, note: String? = nil) -> Int {
        guard enabled else { return 0 }
        let start = Int32(self.args.count)
        let n = store(args)
        return appendCall(.view(Int32(view)), selector, argStart: start, argCount: n, result: result.map { .value($0) }, note: note)
    }

    /// `hitTest:withEvent:` / `pointInside:withEvent:` on a view: a point and the event, stored
    /// without building an argument list (the hottest path of all).
    @discardableResult
    public mutating func call(view: Int, _ selector: String, point: Point, event: String?, extra: TraceArg? = nil,
                              note: String? = nil) -> Int {
        guard enabled else { return 0 }
        let start = Int32(self.args.count)
        args.append(StoredArg(name: "point", value: .value(.point(point))))
        var n: Int32 = 1
        if let event { args.append(StoredArg(name: "event", value: .value(.string(event)))); n += 1 }
        if let extra { args.append(StoredArg(name: extra.name, value: .value(extra.value))); n += 1 }
        return appendCall(.view(Int32(view)), selector, argStart: start, argCount: n, result: nil, note: note)
    }

    // MARK: recording, arguments one by one

    // The same entries with up to four arguments passed as parameters; nil ones are skipped
    // (optional arguments in order). A `TraceArgs` literal was built, copied and destroyed at
    // every call site: callgrind, 2026-11-24, 185k → 147k instructions per dispatch of
    // bench/make-scene.py's tap.

    @discardableResult
    public mutating func call(_ receiver: ObjectRef, _ selector: String, args a: TraceArg?, _ b: TraceArg? = nil,
                              _ c: TraceArg? = nil, _ d: TraceArg? = nil, result: TraceValue? = nil,
                              note: String? = nil) -> Int {
        guard enabled else { return 0 }
        let start = Int32(self.args.count)
        let n = store(a, b, c, d)
        return appendCall(object(receiver), selector, argStart: start, argCount: n, result: result.map { .value($0) }, note: note)
    }

    @discardableResult
    public mutating func call(view: Int, _ selector: String, args a: TraceArg?, _ b: TraceArg? = nil,
                              _ c: TraceArg? = nil, _ d: TraceArg? = nil, result: TraceValue? = nil,
                              note: String? = nil) -> Int {
        guard enabled else { return 0 }
        let start = Int32(self.args.count)
        let n = store(a, b, c, d)
        return appendCall(.view(Int32(view)), selector, argStart: start, argCount: n, result: result.map { .value($0) }, note: note)
    }

    @discardableResult
    public mutating func marker(_ kind: MarkerKind, _ receiver: ObjectRef?, args a: TraceArg?, _ b: TraceArg? = nil,
                                _ c: TraceArg? = nil, note: String? = nil) -> Int {
        guard enabled else { return 0 }
        let start = Int32(self.args.count)
        let n = store(a, b, c, nil)
        return appendMarker(kind, object(receiver), argStart: start, argCount: n, note: note)
    }

    @discardableResult
    public mutating func marker(_ kind: MarkerKind, view: Int, args a: TraceArg?, _ b: TraceArg? = nil,
                                _ c: TraceArg? = nil, note: String? = nil) -> Int {
        guard enabled else { return 0 }
        let start = Int32(self.args.count)
        let n = store(a, b, c, nil)
        return appendMarker(kind, .view(Int32(view)), argStart: start, argCount: n, note: note)
    }

    /// Stores the arguments that are not nil, in order, and returns how many there were.
    private mutating func store(_ a: TraceArg?, _ b: TraceArg?, _ c: TraceArg?, _ d: TraceArg?) -> Int32 {
        var n: Int32 = 0
        if let a { args.append(StoredArg(name: a.name, value: .value(a.value))); n += 1 }
        if let b { args.append(StoredArg(name: b.name, value: .value(b.value))); n += 1 }
        if let c { args.append(StoredArg(name: c.name, value: .value(c.value))); n += 1 }
        if let d { args.append(StoredArg(name: d.name, value: .value(d.value))); n += 1 }
        return n
    }

    // MARK: markers and state changes

    @discardableResult
    public mutating func marker(_ kind: MarkerKind, _ receiver: ObjectRef? = nil, _ args: TraceArgs = [],
                                note: String? = nil) -> Int {
        guard enabled else { return 0 }
        let start = Int32(self.args.count)
        let n = store(args)
        return appendMarker(kind, object(receiver), argStart: start, argCount: n, note: note)
    }

    @discardableResult
    public mutating func marker(_ kind: MarkerKind, view: Int, _ args: TraceArgs = [], note: String? = nil) -> Int {
        guard enabled else { return 0 }
        let start = Int32(self.args.count)
        let n = store(args)
        return appendMarker(kind, .view(Int32(view)), argStart: start, argCount: n, note: note)
    }

    @discardableResult
    public mutating func state(_ receiver: ObjectRef, from: RecognizerState, to: RecognizerState,
                               reason: String, discrete: Bool, note: String? = nil) -> Int {
        guard enabled else { return 0 }
        let reasonText = text(reason)
        records.append(Record(kind: .state, from: from, to: to, discrete: discrete, receiver: object(receiver),
                              argStart: Int32(self.args.count), update: currentUpdate(), depth: Int32(open.count),
                              parent: open.last ?? 0, note: text(note), reason: reasonText))
        return records.count
    }

    /// Makes entry `seq` the parent of what follows.
    public mutating func push(_ seq: Int) { if enabled { open.append(Int32(seq)) } }
    public mutating func pop() { if enabled { open.removeLast() } }

    /// Fills in a call's result once it is known (hit-tests learn theirs after their children).
    public mutating func setResult(_ seq: Int, _ value: TraceValue?) {
        guard enabled, seq > 0 else { return }
        records[seq - 1].result = value.map { .value($0) }
    }

    /// A call's result that is a view of the scene, or nil (a hit-test's answer).
    public mutating func setResult(_ seq: Int, view: Int?) {
        guard enabled, seq > 0 else { return }
        records[seq - 1].result = view.map { .view(Int32($0)) } ?? .value(.null)
    }

    public mutating func setNote(_ seq: Int, _ note: String?) {
        guard enabled, seq > 0 else { return }
        records[seq - 1].note = text(note)
    }

    /// Adds an argument to an entry; only the entry just recorded can take more.
    public mutating func appendArg(_ seq: Int, _ arg: TraceArg) {
        guard enabled, seq > 0 else { return }
        precondition(seq == records.count, "arguments can only be added to the last entry")
        args.append(StoredArg(name: arg.name, value: .value(arg.value)))
        records[seq - 1].argCount += 1
    }

    // MARK: reading

    func ref(_ o: Object) -> ObjectRef? {
        switch o {
        case .none: return nil
        case .view(let v): return viewRefs[Int(v)]
        case .other(let k): return objects[Int(k)]
        }
    }

    func value(_ v: StoredValue) -> TraceValue {
        switch v {
        case .value(let value): return value
        case .view(let view): return .object(viewRefs[Int(view)])
        }
    }

    func note(_ r: Record) -> String? { r.note < 0 ? nil : texts[Int(r.note)] }
    func reason(_ r: Record) -> String? { r.reason < 0 ? nil : texts[Int(r.reason)] }
    func arguments(_ r: Record) -> ArraySlice<StoredArg> { args[Int(r.argStart)..<Int(r.argStart + r.argCount)] }

    /// The entry with seq `seq` (1-based) as a public value.
    public func entry(_ seq: Int) -> TraceEntry {
        let r = records[seq - 1]
        let update = updates[Int(r.update)]
        var e = TraceEntry(seq: seq, t: update.t, cause: update.cause, kind: r.kind, depth: Int(r.depth),
                           parent: r.parent == 0 ? nil : Int(r.parent))
        e.receiver = ref(r.receiver)
        e.selector = r.selector
        e.args = TraceArgs(arguments(r).map { TraceArg($0.name, value($0.value)) })
        e.result = r.result.map(value)
        e.note = note(r)
        e.from = r.from
        e.to = r.to
        e.reason = reason(r)
        e.discrete = r.discrete
        e.marker = r.marker
        return e
    }

    /// Every entry, built on demand.
    public var entries: [TraceEntry] { (0..<records.count).map { entry($0 + 1) } }
}
