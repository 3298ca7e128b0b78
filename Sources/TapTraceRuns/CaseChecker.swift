import TapTraceCore
import TapTraceFormats
import TapTraceJSON

/// One expectation a result did not meet: the `expect` key (narrowed to the entry at fault:
/// `recognizers.cardTap`, `actions[2].t`), what the case expected, what the result showed,
/// and a line saying so.
public struct CaseFailure: Sendable, Equatable {
    public var key: String
    public var expected: JSONValue
    public var actual: JSONValue
    public var text: String

    public init(key: String, expected: JSONValue, actual: JSONValue, text: String) {
        self.key = key
        self.expected = expected
        self.actual = actual
        self.text = text
    }
}

/// A case run and checked.
public struct CaseOutcome: Sendable {
    public var name: String
    /// The file it came from, when it came from one.
    public var file: String?
    public var failures: [CaseFailure]
    public var passed: Bool { failures.isEmpty }

    public init(name: String, file: String? = nil, failures: [CaseFailure]) {
        self.name = name
        self.file = file
        self.failures = failures
    }

    /// The failures, one line each.
    public var diff: String { failures.map(\.text).joined(separator: "\n") }
}

/// Runs test files and checks their `expect` against the result document, with the semantics
/// of `../shared/conformance/README.md`: the one implementation behind `taptrace check`,
/// `POST /v1/check` and the conformance tests.
///
/// The result is checked as the document `taptrace dispatch` prints (`ResultEncoder`), so a
/// case passes here exactly when it would pass against that output. The keys of non-touch
/// events (`keyResponder`, `presses`, `motions`, `remoteControls`, `responderChanges`) are
/// checked against the summaries a run with a press, motion, remote-control or responder record
/// writes (contract §2.1); a result without them fails the key, saying so, instead of passing.
public enum CaseChecker {
    /// Dispatches the case and checks it. `name` defaults to the case's own. With a `budget`
    /// that stops the run, the case fails saying why (its result is partial), and
    /// `budget.finish()` throws the reason.
    public static func run(_ c: CaseDocument, name: String? = nil, file: String? = nil,
                           budget: WorkBudget? = nil) -> CaseOutcome {
        let failures: [CaseFailure]
        do {
            // As `TapTrace.dispatch(json:)` dispatches a request: gestures that name elements resolved.
            let result = try TapTrace.dispatch(c.index ?? SceneIndex(validated: c.scene), touches: c.touches,
                                               records: c.records, knobs: c.knobs, budget: budget)
            if let stop = budget?.stop {
                let text = "the case was stopped before its run finished: \(stop)"
                return CaseOutcome(name: name ?? c.name ?? "case", file: file,
                                   failures: [CaseFailure(key: "", expected: .null, actual: .null, text: text)])
            }
            failures = check(c.expect, against: try JSONTape(parsing: ResultEncoder.encode(result)))
        } catch {
            failures = [CaseFailure(key: "", expected: .null, actual: .null, text: "the case could not be dispatched: \(error)")]
        }
        return CaseOutcome(name: name ?? c.name ?? "case", file: file, failures: failures)
    }

    /// Reads, runs and checks one case document.
    public static func run(caseBytes: [UInt8], name: String? = nil, file: String? = nil) throws(InputError) -> CaseOutcome {
        run(try CaseDocument.decode(caseBytes), name: name, file: file)
    }

    /// Checks expectations against a result document.
    public static func check(_ expect: [(key: String, value: JSONValue)], against r: JSONTape) -> [CaseFailure] {
        var checker = Check(r: r)
        for (key, value) in expect { checker.check(key, value) }
        return checker.failures
    }
}

/// One result document being checked.
private struct Check {
    let r: JSONTape
    var failures: [CaseFailure] = []
    let calls: [(name: String, t: Double)]
    let markers: [String]

    init(r: JSONTape) {
        self.r = r
        var calls: [(name: String, t: Double)] = []
        var markers: [String] = []
        if let trace = r.member(r.root, "trace") {
            for e in r.elements(trace) {
                switch r.member(e, "kind").flatMap({ r.string($0) }) {
                case "call":
                    let receiver = r.member(e, "receiver").flatMap { Check.id(r, $0) } ?? "?"
                    let selector = r.member(e, "selector").flatMap { r.string($0) } ?? "?"
                    calls.append((receiver + " " + selector, r.member(e, "t").flatMap { r.number($0) } ?? .nan))
                case "marker":
                    if let m = r.member(e, "marker").flatMap({ r.string($0) }) { markers.append(m) }
                default: break
                }
            }
        }
        self.calls = calls
        self.markers = markers
    }

    /// An object ref's id, or a string id as it is.
    static func id(_ r: JSONTape, _ node: Int) -> String? {
        if r.kind(node) == .object { return r.member(node, "id").flatMap { r.string($0) } }
        return r.string(node)
    }

    mutating func fail(_ key: String, _ expected: JSONValue, _ actual: JSONValue, _ text: String) {
        failures.append(CaseFailure(key: key, expected: expected, actual: actual, text: key + ": " + text))
    }

    func value(_ node: Int?) -> JSONValue { node.map { JSONValue(tape: r, node: $0) } ?? .null }

    mutating func check(_ key: String, _ want: JSONValue) {
        switch key {
        case "firstResponder":
            let got: JSONValue = r.member(r.root, "firstResponder").flatMap { Check.id(r, $0) }.map { .string($0) } ?? .null
            if got != want { fail(key, want, got, "expected \(show(want)), got \(show(got))") }
        case "responderChain":
            let got = JSONValue.array(r.member(r.root, "responderChain").map { r.elements($0).map { .string(Check.id(r, $0) ?? "?") } } ?? [])
            if got != want { fail(key, want, got, "expected \(show(want)), got \(show(got))") }
        case "calls", "markers":
            let names = key == "calls" ? calls.map(\.name) : markers
            inOrder(key, want, among: names, what: key == "calls" ? "call" : "marker")
        case "callsPrefix":
            let got = JSONValue.array(calls.prefix(want.array.count).map { .string($0.name) })
            if got != want { fail(key, want, got, "expected the trace to start with \(show(want)), got \(show(got))") }
        case "notCalls":
            let called = want.array.filter { w in calls.contains { $0.name == w.string } }
            if !called.isEmpty {
                fail(key, want, .array(called), "expected none of \(show(want)), got " +
                     called.map { w in "\(show(w)) called \(calls.filter { $0.name == w.string }.count)×" }.joined(separator: ", "))
            }
        case "callCounts":
            for (call, n) in want.members {
                let got = calls.filter { $0.name == call }.count
                if Double(got) != n.number {
                    fail("callCounts[\"\(call)\"]", n, .number(Double(got)), "expected \(show(n)) calls, got \(got)")
                }
            }
        case "callTimes":
            for (call, t) in want.members {
                let k = "callTimes[\"\(call)\"]"
                guard let first = calls.first(where: { $0.name == call }) else {
                    fail(k, t, .null, "expected the first call at t=\(show(t)), got no such call"); continue
                }
                if !(abs(first.t - (t.number ?? .nan)) <= 1e-6) {
                    fail(k, t, .number(first.t), "expected the first call at t=\(show(t)), got t=\(JSONWriter.format(first.t))")
                }
            }
        case "recognizers":
            let list = r.member(r.root, "recognizers")
            for (id, states) in want.members {
                let k = "recognizers.\(id)"
                guard let gr = list.flatMap({ l in r.elements(l).first { Check.id(r, $0) == id } }) else {
                    fail(k, states, .null, "expected states \(stateList(states)) in order, got no recognizer \(id) in the result")
                    continue
                }
                let got = value(r.member(gr, "states"))
                if !occursInOrder(states.array.compactMap(\.string), in: got.array.compactMap(\.string)) {
                    fail(k, states, got, "expected \(stateList(states)) in order, got \(stateList(got))")
                }
            }
        case "actions", "motions", "remoteControls", "responderChanges":
            guard let list = r.member(r.root, key) else { missing(key, want); return }
            let got = Array(r.elements(list))
            let entries = want.array
            if got.count != entries.count {
                fail(key, want, value(list), "expected \(entries.count) \(entries.count == 1 ? "entry" : "entries"), got \(got.count)"
                     + (got.isEmpty ? "" : " [" + got.map { summary(of: $0, in: key) }.joined(separator: ", ") + "]"))
                return
            }
            for (i, (g, w)) in zip(got, entries).enumerated() {
                compareMembers(w, in: g, key: "\(key)[\(i)]")
            }
        case "touches", "presses":
            guard let list = r.member(r.root, key) else { missing(key, want); return }
            for (id, entry) in want.members {
                guard let e = r.elements(list).first(where: { Check.id(r, $0) == id }) else {
                    fail("\(key).\(id)", entry, .null, "expected \(show(entry)), got no \(key == "touches" ? "touch" : "press") \(id) in the result")
                    continue
                }
                compareMembers(entry, in: e, key: "\(key).\(id)")
            }
        case "keyResponder":
            guard let node = r.member(r.root, key) else { missing(key, want); return }
            if r.kind(node) == .object {
                compareMembers(want, in: node, key: key)
            } else {
                fail(key, want, value(node), "expected \(show(want)), got \(show(value(node)))")
            }
        default:
            fail(key, want, .null, "unknown expect key")
        }
    }

    /// A result without `key`: `actions` is always written; the non-touch summaries only by a
    /// run with a press, motion, remote-control or responder record (contract §2.1).
    mutating func missing(_ key: String, _ want: JSONValue) {
        fail(key, want, .null, key == "actions"
             ? "the result has no \"actions\""
             : "the result has no \"\(key)\": the run had no press, motion, remote-control or responder record")
    }

    /// One entry of a result list, short, for a count that does not match: an action's name,
    /// `shake began`, `togglePlayPause`, `become V`.
    func summary(of entry: Int, in key: String) -> String {
        func text(_ name: String) -> String? { r.member(entry, name).flatMap { r.string($0) } }
        switch key {
        case "actions": return text("action") ?? "?"
        case "motions": return (text("subtype") ?? "?") + " " + (text("phase") ?? "?")
        case "remoteControls": return text("subtype") ?? "?"
        case "responderChanges": return (text("call") ?? "?") + " " + (text("receiver") ?? "?")
        default: return "?"
        }
    }

    /// Each member of `want` equals the same member of result object `node` (`t` within 1e-6 s).
    mutating func compareMembers(_ want: JSONValue, in node: Int, key: String) {
        for (k, w) in want.members {
            let path = key + "." + k
            guard let g = r.member(node, k) else {
                fail(path, w, .null, "expected \(show(w)), got no \"\(k)\""); continue
            }
            let got = value(g)
            let same: Bool
            if k == "t", let a = got.number, let b = w.number { same = abs(a - b) <= 1e-6 } else { same = matches(w, got) }
            if !same { fail(path, w, got, "expected \(show(w)), got \(show(got))") }
        }
    }

    /// Equal values; an expected string also matches an object ref with that id.
    func matches(_ want: JSONValue, _ got: JSONValue) -> Bool {
        if want == got { return true }
        switch (want, got) {
        case let (.string(s), .object(members)): return members.first { $0.0 == "id" }?.1 == .string(s)
        case let (.array(a), .array(b)): return a.count == b.count && zip(a, b).allSatisfy { matches($0, $1) }
        default: return false
        }
    }

    mutating func inOrder(_ key: String, _ want: JSONValue, among names: [String], what: String) {
        var i = 0
        var previous: String?
        for w in want.array {
            let name = w.string ?? ""
            guard let found = names[i...].firstIndex(of: name) else {
                let place = previous.map { "after \"\($0)\"" } ?? "at all"
                let seen = names.contains(name) ? " (it occurs, but not in this order)" : ""
                fail(key, want, .array(names.map { .string($0) }),
                     "expected \"\(name)\" \(place), in order; not found\(seen) among the trace's \(names.count) \(what)s")
                return
            }
            previous = name
            i = found + 1
        }
    }

    func occursInOrder(_ want: [String], in list: [String]) -> Bool {
        var i = 0
        for w in want {
            guard let found = list[i...].firstIndex(of: w) else { return false }
            i = found + 1
        }
        return true
    }

    func stateList(_ v: JSONValue) -> String { "[" + v.array.map { "." + ($0.string ?? show($0)) }.joined(separator: ", ") + "]" }
}

/// Values as a diff shows them: ids and names bare, lists in brackets, objects compact.
fileprivate func show(_ v: JSONValue) -> String {
    switch v {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .number(let n): return JSONWriter.format(n)
    case .string(let s): return s.contains(" ") || s.isEmpty ? "\"\(s)\"" : s
    case .array(let a): return "[" + a.map(show).joined(separator: ", ") + "]"
    case .object(let members): return "{" + members.map { "\($0.0): \(show($0.1))" }.joined(separator: ", ") + "}"
    }
}

fileprivate extension JSONValue {
    var array: [JSONValue] { if case .array(let a) = self { return a } else { return [] } }
    var members: [(String, JSONValue)] { if case .object(let m) = self { return m } else { return [] } }
    var string: String? { if case .string(let s) = self { return s } else { return nil } }
    var number: Double? { if case .number(let n) = self { return n } else { return nil } }
}
