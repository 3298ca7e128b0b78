/// Records a run's trace and keeps the nesting (`depth`, `parent`) of calls made inside calls:
/// `push` after appending a call makes the following entries its children until `pop`.
///
/// Entries are stored compactly while the run goes on, and nothing stored holds a reference
/// count: receivers and object values are numbers (`TraceObject`: the scene's objects,
/// `SceneObjects`), UIKit selectors and argument names are cases (`UIKitSelector`,
/// `TraceArgName`), events are their sequence number, and text, lists of objects and touch
/// snapshots live in side tables that values point into. A tap in a 1,000-view scene records a
/// few hundred entries, and building a full `TraceEntry` for each as it happens cost more than
/// the dispatch itself (docs/performance.md); with strings, arrays and object refs in the
/// records, copying, destroying and encoding them was still most of a result's cost
/// (retain/release, an array per touches argument; callgrind). `entries` builds the
/// public values on demand; `ResultEncoder` writes JSON straight from the compact form.
public struct TraceRecorder: Sendable {
    /// A value as recorded.
    package enum Value: Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case point(Point)
        /// `texts[k]`.
        case text(Int32)
        /// Text known at compile time that needs no escaping (identifiers such as phase names).
        case word(StaticString)
        /// `E<n>`: the event of the n-th multitouch sequence (§1).
        case event(Int32)
        case object(TraceObject)
        /// `objectLists[start..<start + count]`.
        case objects(start: Int32, count: Int32)
        /// `texts[start..<start + count]`.
        case texts(start: Int32, count: Int32)
        /// `snapshots[start..<start + count]`.
        case touches(start: Int32, count: Int32)
        /// `pressSnapshots[start..<start + count]`.
        case presses(start: Int32, count: Int32)
    }

    /// An argument as the engine passes it.
    package struct Argument: Sendable {
        var name: TraceArgName
        var value: Value
        init(_ name: TraceArgName, _ value: Value) { self.name = name; self.value = value }
    }

    /// A touch as a call shows it (`TouchSnapshot`), its id in `texts`.
    package struct Snapshot: Sendable {
        package var id: Int32
        package var phase: TouchPhase
        package var tapCount: Int
        package var inWindow: Point
        package var inReceiver: Point?
    }

    package enum Selector: Sendable {
        case uikit(UIKitSelector)
        /// An action selector of the scene, `texts[k]`.
        case action(Int32)
    }

    package struct StoredArg: Sendable {
        /// A `TraceArgName`'s raw value, or `-1 - k` for a name in `texts[k]` (arguments
        /// recorded by name through the public API).
        package var name: Int32
        package var value: Value
    }

    package struct Record: Sendable {
        package var kind: TraceEntry.Kind
        package var marker: MarkerKind?
        package var from: RecognizerState?
        package var to: RecognizerState?
        package var discrete = false
        package var receiver: TraceObject
        package var selector: Selector = .uikit(.reset)
        package var argStart: Int32
        package var argCount: Int32 = 0
        package var result: Value?
        package var update: Int32
        package var depth: Int32
        package var parent: Int32
        /// The note is `noteBytes[note..<note + noteLength]`; -1 when there is none.
        package var note: Int32 = -1
        package var noteLength: Int32 = 0
        package var reason: Int32 = -1
    }

    package private(set) var records: [Record] = []
    package private(set) var args: [StoredArg] = []
    package private(set) var snapshots: [Snapshot] = []
    /// Presses as calls show them (non-touch events only; kept whole, off the touch path).
    package private(set) var pressSnapshots: [PressSnapshot] = []
    package private(set) var objectLists: [TraceObject] = []
    package private(set) var texts: [String] = []
    /// Every note's UTF-8, back to back: notes are assembled as bytes (`NoteText`), and making
    /// a `String` of each (an allocation and a UTF-8 check) and keeping it cost more than
    /// copying the bytes here (callgrind).
    package private(set) var noteBytes: [UInt8] = []
    /// Objects named by ref through the public API (not numbered by the scene): object
    /// `-2 - k` is `namedObjects[k]`.
    package private(set) var namedObjects: [ObjectRef] = []
    package private(set) var updates: [(t: Double, cause: TraceCause)] = []
    package let objects: SceneObjects
    private var open: [Int32] = []
    /// When false, nothing is recorded (hit-tests run for explain only).
    public let enabled: Bool

    public var t: Double = 0 { didSet { updateChanged = true } }
    public var cause: TraceCause = .input { didSet { updateChanged = true } }
    private var updateChanged = true

    /// A recorder for a run against `index`, naming its objects by number.
    init(index: SceneIndex, enabled: Bool = true) {
        self.init(objects: index.objects, enabled: enabled)
    }

    /// `viewRefs` names the views; view receivers are stored by index.
    public init(enabled: Bool = true, viewRefs: [ObjectRef] = []) {
        self.init(objects: viewRefs.isEmpty ? .empty : SceneObjects(views: viewRefs, others: []), enabled: enabled)
    }

    private init(objects: SceneObjects, enabled: Bool) {
        self.enabled = enabled
        self.objects = objects
        if enabled {
            records.reserveCapacity(256)
            args.reserveCapacity(512)
            // The side tables too: grown from empty they were reallocated five or six times
            // per tap.
            texts.reserveCapacity(64)
            noteBytes.reserveCapacity(2048)
            snapshots.reserveCapacity(32)
            objectLists.reserveCapacity(16)
            updates.reserveCapacity(8)
            open.reserveCapacity(16)
        }
    }

    public var depth: Int { open.count }
    public var count: Int { records.count }

    // MARK: recording

    // Each entry's record is appended whole, built in the `append` call itself: appending a
    // skeleton and then setting its fields checked the array's uniqueness and bounds for each
    // field, and building it in a variable first copied it.

    @inline(__always)
    private mutating func appendCall(_ receiver: TraceObject, _ selector: Selector, argStart: Int32, argCount: Int32,
                                     result: Value?, note: Note) -> Int {
        records.append(Record(kind: .call, receiver: receiver, selector: selector, argStart: argStart, argCount: argCount,
                              result: result, update: currentUpdate(), depth: Int32(open.count),
                              parent: open.last ?? 0, note: note.start, noteLength: note.length))
        return records.count
    }

    @inline(__always)
    private mutating func appendMarker(_ kind: MarkerKind, _ receiver: TraceObject, argStart: Int32, argCount: Int32,
                                       note: Note) -> Int {
        records.append(Record(kind: .marker, marker: kind, receiver: receiver, argStart: argStart, argCount: argCount,
                              update: currentUpdate(), depth: Int32(open.count), parent: open.last ?? 0,
                              note: note.start, noteLength: note.length))
        return records.count
    }

    /// Where a note's bytes are in `noteBytes`.
    private struct Note {
        var start: Int32 = -1
        var length: Int32 = 0
    }

    private mutating func storeNote(_ note: NoteText?) -> Note {
        guard let note else { return Note() }
        return note.bytes.withUnsafeBufferPointer { storeNote(bytes: $0) }
    }
    private mutating func storeNote(_ note: String?) -> Note { storeNote(bytes: note?.utf8) }

    private mutating func storeNote<Bytes: Sequence<UInt8>>(bytes: Bytes?) -> Note {
        guard let bytes else { return Note() }
        let start = Int32(noteBytes.count)
        noteBytes.append(contentsOf: bytes)
        return Note(start: start, length: Int32(noteBytes.count) - start)
    }

    /// The index of the current update in `updates`, adding it if `t` or `cause` changed.
    private mutating func currentUpdate() -> Int32 {
        if updateChanged {
            updates.append((t, cause))
            updateChanged = false
        }
        return Int32(updates.count - 1)
    }

    private mutating func storeText(_ s: String?) -> Int32 {
        guard let s else { return -1 }
        texts.append(s)
        return Int32(texts.count - 1)
    }

    /// Stores the arguments that are not nil, in order, and returns how many there were.
    @inline(__always)
    private mutating func store(_ a: Argument?, _ b: Argument?, _ c: Argument?, _ d: Argument?) -> Int32 {
        var n: Int32 = 0
        if let a { args.append(StoredArg(name: Int32(a.name.rawValue), value: a.value)); n += 1 }
        if let b { args.append(StoredArg(name: Int32(b.name.rawValue), value: b.value)); n += 1 }
        if let c { args.append(StoredArg(name: Int32(c.name.rawValue), value: c.value)); n += 1 }
        if let d { args.append(StoredArg(name: Int32(d.name.rawValue), value: d.value)); n += 1 }
        return n
    }

    /// Records a call of a UIKit method and returns its seq (0 when disabled).
    @discardableResult
    mutating func call(_ receiver: TraceObject, _ selector: UIKitSelector, _ a: Argument? = nil, _ b: Argument? = nil,
                       _ c: Argument? = nil, _ d: Argument? = nil, result: Value? = nil, note: NoteText? = nil) -> Int {
        guard enabled else { return 0 }
        let start = Int32(args.count)
        let n = store(a, b, c, d)
        return appendCall(receiver, .uikit(selector), argStart: start, argCount: n, result: result, note: storeNote(note))
    }

    /// Records a call of an action method of the scene (A5).
    @discardableResult
    mutating func call(_ receiver: TraceObject, action: String, _ a: Argument? = nil, _ b: Argument? = nil,
                       note: NoteText? = nil) -> Int {
        guard enabled else { return 0 }
        let start = Int32(args.count)
        let n = store(a, b, nil, nil)
        return appendCall(receiver, .action(storeText(action)), argStart: start, argCount: n, result: nil, note: storeNote(note))
    }

    @discardableResult
    mutating func marker(_ kind: MarkerKind, _ receiver: TraceObject, _ a: Argument? = nil, _ b: Argument? = nil,
                         _ c: Argument? = nil, note: NoteText? = nil) -> Int {
        guard enabled else { return 0 }
        let start = Int32(args.count)
        let n = store(a, b, c, nil)
        return appendMarker(kind, receiver, argStart: start, argCount: n, note: storeNote(note))
    }

    @discardableResult
    mutating func state(_ receiver: TraceObject, from: RecognizerState, to: RecognizerState,
                        reason: String, discrete: Bool) -> Int {
        state(receiver, from: from, to: to, reason: reason, discrete: discrete, note: Note())
    }

    private mutating func state(_ receiver: TraceObject, from: RecognizerState, to: RecognizerState,
                                reason: String, discrete: Bool, note: Note) -> Int {
        guard enabled else { return 0 }
        let reasonText = storeText(reason)
        records.append(Record(kind: .state, from: from, to: to, discrete: discrete, receiver: receiver,
                              argStart: Int32(args.count), update: currentUpdate(), depth: Int32(open.count),
                              parent: open.last ?? 0, note: note.start, noteLength: note.length, reason: reasonText))
        return records.count
    }

    /// Makes entry `seq` the parent of what follows.
    public mutating func push(_ seq: Int) { if enabled { open.append(Int32(seq)) } }
    public mutating func pop() { if enabled { open.removeLast() } }

    /// Fills in a call's result once it is known (hit-tests learn theirs after their children).
    mutating func setResult(_ seq: Int, _ value: Value) {
        guard enabled, seq > 0 else { return }
        records[seq - 1].result = value
    }

    /// A call's result that is a view of the scene, or nil (a hit-test's answer).
    public mutating func setResult(_ seq: Int, view: Int?) {
        setResult(seq, view.map { .object(TraceObject(view: $0)) } ?? .null)
    }

    public mutating func setNote(_ seq: Int, _ note: String?) {
        guard enabled, seq > 0 else { return }
        let stored = storeNote(note)
        records[seq - 1].note = stored.start
        records[seq - 1].noteLength = stored.length
    }

    // MARK: values that live in the side tables (nothing is stored when disabled)

    /// A string value.
    mutating func text(_ s: String) -> Value {
        guard enabled else { return .null }
        return .text(storeText(s))
    }

    /// Where a touch's id is, for its snapshots and arguments (`Value.text`); -1 when disabled.
    mutating func touchID(_ id: String) -> Int32 { enabled ? storeText(id) : -1 }

    /// A list of strings.
    mutating func texts(_ list: [String]) -> Value {
        guard enabled else { return .null }
        let start = Int32(texts.count)
        texts.append(contentsOf: list)
        return .texts(start: start, count: Int32(list.count))
    }

    /// Where the next list of objects starts: append its objects with `listObject`, then take
    /// the value with `objects(from:)`.
    var objectListEnd: Int32 { Int32(objectLists.count) }
    mutating func listObject(_ o: TraceObject) { if enabled { objectLists.append(o) } }
    func objects(from start: Int32) -> Value { .objects(start: start, count: Int32(objectLists.count) - start) }

    /// The same for touch snapshots: `snapshot`, then `touches(from:)`.
    var snapshotEnd: Int32 { Int32(snapshots.count) }
    mutating func snapshot(_ s: Snapshot) { if enabled { snapshots.append(s) } }

    /// The snapshots from `start`, sorted by touch id (§5.2: a call's touches are listed in id order).
    mutating func touches(from start: Int32) -> Value {
        let count = Int32(snapshots.count) - start
        if count > 1 {
            let texts = self.texts
            snapshots[Int(start)...].sort { texts[Int($0.id)] < texts[Int($1.id)] }
        }
        return .touches(start: start, count: count)
    }

    /// A list of presses, sorted by id (§5.2).
    mutating func presses(_ list: [PressSnapshot]) -> Value {
        guard enabled else { return .null }
        let start = Int32(pressSnapshots.count)
        pressSnapshots.append(contentsOf: list.sorted { $0.id < $1.id })
        return .presses(start: start, count: Int32(list.count))
    }

    // MARK: recording by name and by ref (the public API: tests, decoded results)

    /// An object named by its ref, kept by the recorder itself (`.none` when disabled).
    mutating func object(named ref: ObjectRef?) -> TraceObject {
        guard enabled, let ref else { return .none }
        namedObjects.append(ref)
        return TraceObject(raw: -2 - Int32(namedObjects.count - 1))
    }

    private mutating func value(_ v: TraceValue) -> Value {
        switch v {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n): return .number(n)
        case .string(let s): return text(s)
        case .point(let p): return .point(p)
        case .object(let ref): return .object(object(named: ref))
        case .strings(let list): return texts(list)
        case .objects(let refs):
            let start = objectListEnd
            for r in refs { listObject(object(named: r)) }
            return objects(from: start)
        case .touches(let list):
            // As given: these snapshots are in the caller's order already.
            let start = snapshotEnd
            for s in list {
                snapshot(Snapshot(id: touchID(s.id), phase: s.phase, tapCount: s.tapCount, inWindow: s.inWindow,
                                  inReceiver: s.inReceiver))
            }
            return .touches(start: start, count: snapshotEnd - start)
        case .presses(let list):
            // As given, like touches.
            let start = Int32(pressSnapshots.count)
            pressSnapshots.append(contentsOf: list)
            return .presses(start: start, count: Int32(list.count))
        }
    }

    private mutating func store(_ list: TraceArgs) -> Int32 {
        for a in list {
            let name = TraceArgName.byText[a.name].map { Int32($0.rawValue) } ?? (-1 - storeText(a.name))
            let value = self.value(a.value)
            args.append(StoredArg(name: name, value: value))
        }
        return Int32(list.count)
    }

    private mutating func selector(_ s: String) -> Selector {
        UIKitSelector.byName[s].map { .uikit($0) } ?? .action(storeText(s))
    }

    /// Records a call and returns its seq (0 when disabled).
    @discardableResult
    public mutating func call(_ receiver: ObjectRef, _ selector: String, _ args: TraceArgs = [],
                              result: TraceValue? = nil, note: String? = nil) -> Int {
        guard enabled else { return 0 }
        let start = Int32(self.args.count)
        let n = store(args)
        let o = object(named: receiver), s = self.selector(selector), r = result.map { value($0) }
        return appendCall(o, s, argStart: start, argCount: n, result: r, note: storeNote(note))
    }

    @discardableResult
    public mutating func call(view: Int, _ selector: String, _ args: TraceArgs = [],
                              result: TraceValue? = nil, note: String? = nil) -> Int {
        guard enabled else { return 0 }
        let start = Int32(self.args.count)
        let n = store(args)
        let s = self.selector(selector), r = result.map { value($0) }
        return appendCall(TraceObject(view: view), s, argStart: start, argCount: n, result: r, note: storeNote(note))
    }

    /// The same with up to four arguments one by one; nil ones are skipped.
    @discardableResult
    public mutating func call(_ receiver: ObjectRef, _ selector: String, args a: TraceArg?, _ b: TraceArg? = nil,
                              _ c: TraceArg? = nil, _ d: TraceArg? = nil, result: TraceValue? = nil,
                              note: String? = nil) -> Int {
        call(receiver, selector, TraceArgs([a, b, c, d].compactMap { $0 }), result: result, note: note)
    }

    @discardableResult
    public mutating func call(view: Int, _ selector: String, args a: TraceArg?, _ b: TraceArg? = nil,
                              _ c: TraceArg? = nil, _ d: TraceArg? = nil, result: TraceValue? = nil,
                              note: String? = nil) -> Int {
        call(view: view, selector, TraceArgs([a, b, c, d].compactMap { $0 }), result: result, note: note)
    }

    @discardableResult
    public mutating func marker(_ kind: MarkerKind, _ receiver: ObjectRef? = nil, _ args: TraceArgs = [],
                                note: String? = nil) -> Int {
        guard enabled else { return 0 }
        let start = Int32(self.args.count)
        let n = store(args)
        return appendMarker(kind, object(named: receiver), argStart: start, argCount: n, note: storeNote(note))
    }

    @discardableResult
    public mutating func marker(_ kind: MarkerKind, view: Int, _ args: TraceArgs = [], note: String? = nil) -> Int {
        guard enabled else { return 0 }
        let start = Int32(self.args.count)
        let n = store(args)
        return appendMarker(kind, TraceObject(view: view), argStart: start, argCount: n, note: storeNote(note))
    }

    @discardableResult
    public mutating func marker(_ kind: MarkerKind, _ receiver: ObjectRef?, args a: TraceArg?, _ b: TraceArg? = nil,
                                _ c: TraceArg? = nil, note: String? = nil) -> Int {
        marker(kind, receiver, TraceArgs([a, b, c].compactMap { $0 }), note: note)
    }

    @discardableResult
    public mutating func marker(_ kind: MarkerKind, view: Int, args a: TraceArg?, _ b: TraceArg? = nil,
                                _ c: TraceArg? = nil, note: String? = nil) -> Int {
        marker(kind, view: view, TraceArgs([a, b, c].compactMap { $0 }), note: note)
    }

    @discardableResult
    public mutating func state(_ receiver: ObjectRef, from: RecognizerState, to: RecognizerState,
                               reason: String, discrete: Bool, note: String? = nil) -> Int {
        guard enabled else { return 0 }
        return state(object(named: receiver), from: from, to: to, reason: reason, discrete: discrete, note: storeNote(note))
    }

    // MARK: reading

    package func ref(_ o: TraceObject) -> ObjectRef? {
        if o.raw >= 0 { return objects.ref(Int(o.raw)) }
        if o.raw == -1 { return nil }
        return namedObjects[Int(-2 - o.raw)]
    }

    package func argName(_ a: StoredArg) -> String {
        a.name >= 0 ? TraceArgName.texts[Int(a.name)] : texts[Int(-1 - a.name)]
    }

    package func selectorText(_ s: Selector) -> String {
        switch s {
        case .uikit(let known): return known.names.objc
        case .action(let k): return texts[Int(k)]
        }
    }

    package func value(_ v: Value) -> TraceValue {
        switch v {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n): return .number(n)
        case .point(let p): return .point(p)
        case .text(let k): return .string(texts[Int(k)])
        case .word(let w): return .string(w.description)
        case .event(let n): return .string("E\(n)")
        case .object(let o): return ref(o).map { .object($0) } ?? .null
        case .objects(let start, let count):
            return .objects(objectLists[Int(start)..<Int(start + count)].compactMap { ref($0) })
        case .texts(let start, let count): return .strings(Array(texts[Int(start)..<Int(start + count)]))
        case .touches(let start, let count):
            return .touches(snapshots[Int(start)..<Int(start + count)].map {
                TouchSnapshot(id: texts[Int($0.id)], phase: $0.phase, tapCount: $0.tapCount, inWindow: $0.inWindow,
                              inReceiver: $0.inReceiver)
            })
        case .presses(let start, let count):
            return .presses(Array(pressSnapshots[Int(start)..<Int(start + count)]))
        }
    }

    package func note(_ r: Record) -> String? {
        r.note < 0 ? nil : String(decoding: noteBytes[Int(r.note)..<Int(r.note + r.noteLength)], as: UTF8.self)
    }
    package func reason(_ r: Record) -> String? { r.reason < 0 ? nil : texts[Int(r.reason)] }

    /// The entry with seq `seq` (1-based) as a public value.
    public func entry(_ seq: Int) -> TraceEntry {
        let r = records[seq - 1]
        let update = updates[Int(r.update)]
        var e = TraceEntry(seq: seq, t: update.t, cause: update.cause, kind: r.kind, depth: Int(r.depth),
                           parent: r.parent == 0 ? nil : Int(r.parent))
        e.receiver = ref(r.receiver)
        if r.kind == .call { e.selector = selectorText(r.selector) }
        e.args = TraceArgs(args[Int(r.argStart)..<Int(r.argStart + r.argCount)].map { TraceArg(argName($0), value($0.value)) })
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
