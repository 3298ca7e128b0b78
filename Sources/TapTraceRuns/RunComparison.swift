import TapTraceCore
import TapTraceFormats
import TapTraceJSON

/// What differs between two runs (`GET /v1/runs/{a}/compare/{b}`): the outcome differences
/// (first responder, chain, touches, recognizer outcomes, actions) and an aligned diff of the
/// two traces.
///
/// Trace entries are aligned on a key that says what happened: kind, cause, receiver id, and
/// the selector (calls), marker kind (markers) or from→to states (state changes). Aligned
/// entries whose other fields differ (time, arguments, result, note, depth, reason) are
/// `changed`; the rest are `removed` (only in a) or `inserted` (only in b).
public struct RunComparison: Sendable {
    public enum Field: String, Sendable, CaseIterable {
        case t, args, result, note, depth, reason, receiverClass, discrete
    }

    /// An aligned pair of entries whose details differ.
    public struct ChangedEntry: Sendable {
        public var a: TraceEntry
        public var b: TraceEntry
        public var fields: [Field]
    }

    /// One step of the aligned trace diff; runs of equal steps are merged (`count`).
    public enum ScriptStep: Sendable, Hashable {
        case equal(aSeq: Int, bSeq: Int, count: Int)
        case changed(aSeq: Int, bSeq: Int)
        case removed(aSeq: Int, count: Int)
        case inserted(bSeq: Int, count: Int)
    }

    public var outcomeA: RunOutcome
    public var outcomeB: RunOutcome
    public var differences: [OutcomeDifference]
    public var traceCountA: Int
    public var traceCountB: Int
    public var unchanged: Int
    public var removed: [TraceEntry]
    public var inserted: [TraceEntry]
    public var changed: [ChangedEntry]
    public var script: [ScriptStep]
    /// False when the traces differed too much for a shortest alignment (see `SequenceAlignment`).
    public var alignmentIsMinimal: Bool

    public var outcomeChanged: Bool { outcomeA.digest != outcomeB.digest || !differences.isEmpty }
    public var identical: Bool { !outcomeChanged && removed.isEmpty && inserted.isEmpty && changed.isEmpty }

    /// The alignment key of an entry (see the type's documentation).
    public static func key(_ e: TraceEntry) -> String {
        var key = e.kind.rawValue + "|" + e.cause.text + "|" + (e.receiver?.id ?? "-") + "|"
        switch e.kind {
        case .call: key += e.selector ?? ""
        case .marker: key += e.marker?.rawValue ?? ""
        case .state: key += (e.from?.rawValue ?? "") + ">" + (e.to?.rawValue ?? "")
        }
        return key
    }

    static func changedFields(_ a: TraceEntry, _ b: TraceEntry) -> [Field] {
        var fields: [Field] = []
        if a.t != b.t { fields.append(.t) }
        if a.args != b.args { fields.append(.args) }
        if a.result != b.result { fields.append(.result) }
        if a.note != b.note { fields.append(.note) }
        if a.depth != b.depth { fields.append(.depth) }
        if a.reason != b.reason { fields.append(.reason) }
        if a.receiver?.className != b.receiver?.className { fields.append(.receiverClass) }
        if a.discrete != b.discrete { fields.append(.discrete) }
        return fields
    }

    public init(_ a: DispatchResult, _ b: DispatchResult) {
        outcomeA = RunOutcome(a)
        outcomeB = RunOutcome(b)
        differences = outcomeA.differences(to: outcomeB)
        // `trace` is built from the compact recorder on each access: once per side.
        let traceA = a.trace, traceB = b.trace
        traceCountA = traceA.count
        traceCountB = traceB.count

        // Keys become small integers so the alignment compares ints, not strings.
        var ids: [String: Int] = [:]
        func intern(_ e: TraceEntry) -> Int {
            let k = Self.key(e)
            if let id = ids[k] { return id }
            ids[k] = ids.count
            return ids.count - 1
        }
        let keysA = traceA.map(intern), keysB = traceB.map(intern)
        let alignment = SequenceAlignment.align(keysA, keysB)
        alignmentIsMinimal = alignment.isMinimal

        unchanged = 0
        removed = []
        inserted = []
        changed = []
        script = []
        for step in alignment.steps {
            switch step {
            case .same(let i, let j):
                let fields = Self.changedFields(traceA[i], traceB[j])
                if fields.isEmpty {
                    unchanged += 1
                    if case .equal(let sa, let sb, let n)? = script.last {
                        script[script.count - 1] = .equal(aSeq: sa, bSeq: sb, count: n + 1)
                    } else {
                        script.append(.equal(aSeq: traceA[i].seq, bSeq: traceB[j].seq, count: 1))
                    }
                } else {
                    changed.append(ChangedEntry(a: traceA[i], b: traceB[j], fields: fields))
                    script.append(.changed(aSeq: traceA[i].seq, bSeq: traceB[j].seq))
                }
            case .removed(let i):
                removed.append(traceA[i])
                if case .removed(let sa, let n)? = script.last {
                    script[script.count - 1] = .removed(aSeq: sa, count: n + 1)
                } else {
                    script.append(.removed(aSeq: traceA[i].seq, count: 1))
                }
            case .inserted(let j):
                inserted.append(traceB[j])
                if case .inserted(let sb, let n)? = script.last {
                    script[script.count - 1] = .inserted(bSeq: sb, count: n + 1)
                } else {
                    script.append(.inserted(bSeq: traceB[j].seq, count: 1))
                }
            }
        }
    }

    /// Writes the comparison's members into an object the caller has opened (the service adds
    /// the two runs' ids first):
    /// `identical`, `outcomeChanged`, `outcome {a, b}`, `differences`, `trace {…}`.
    public func writeMembers(to w: inout JSONWriter) {
        w.key("identical"); w.bool(identical)
        w.key("outcomeChanged"); w.bool(outcomeChanged)
        w.key("outcome")
        w.beginObject()
        w.key("a"); w.string(outcomeA.digest)
        w.key("b"); w.string(outcomeB.digest)
        w.endObject()
        w.key("differences")
        w.beginArray()
        for d in differences { d.write(to: &w) }
        w.endArray()
        w.key("trace")
        w.beginObject()
        w.key("aEntries"); w.number(traceCountA)
        w.key("bEntries"); w.number(traceCountB)
        w.key("unchanged"); w.number(unchanged)
        w.key("minimal"); w.bool(alignmentIsMinimal)
        w.key("removed")
        w.beginArray()
        for e in removed { Self.writeEntrySummary(e, seqKey: "a", to: &w) }
        w.endArray()
        w.key("inserted")
        w.beginArray()
        for e in inserted { Self.writeEntrySummary(e, seqKey: "b", to: &w) }
        w.endArray()
        w.key("changed")
        w.beginArray()
        for c in changed {
            w.beginObject()
            w.key("a"); w.number(c.a.seq)
            w.key("b"); w.number(c.b.seq)
            w.key("entry"); w.string(Self.summary(c.b))
            w.key("fields")
            w.beginArray()
            for f in c.fields {
                w.beginObject()
                w.key("field"); w.string(f.rawValue)
                w.key("a"); Self.writeField(f, of: c.a, to: &w)
                w.key("b"); Self.writeField(f, of: c.b, to: &w)
                w.endObject()
            }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        w.key("script")
        w.beginArray()
        for step in script {
            w.beginObject()
            switch step {
            case .equal(let sa, let sb, let n):
                w.key("op"); w.string("equal"); w.key("a"); w.number(sa); w.key("b"); w.number(sb); w.key("count"); w.number(n)
            case .changed(let sa, let sb):
                w.key("op"); w.string("changed"); w.key("a"); w.number(sa); w.key("b"); w.number(sb); w.key("count"); w.number(1)
            case .removed(let sa, let n):
                w.key("op"); w.string("removed"); w.key("a"); w.number(sa); w.key("count"); w.number(n)
            case .inserted(let sb, let n):
                w.key("op"); w.string("inserted"); w.key("b"); w.number(sb); w.key("count"); w.number(n)
            }
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    /// The entry as one line of the text rendering, without indentation.
    public static func summary(_ e: TraceEntry) -> String {
        var line = TextRenderer.line(e)
        while line.first == " " { line.removeFirst() }
        return "t=\(TextRenderer.time(e.t)) " + line
    }

    static func writeEntrySummary(_ e: TraceEntry, seqKey: String, to w: inout JSONWriter) {
        w.beginObject()
        w.key(seqKey); w.number(e.seq)
        w.key("entry"); w.string(summary(e))
        w.endObject()
    }

    static func writeField(_ f: Field, of e: TraceEntry, to w: inout JSONWriter) {
        switch f {
        case .t: w.number(e.t)
        case .args: ResultEncoder.writeArgs(e.args, to: &w)
        case .result: if let r = e.result { ResultEncoder.writeValue(r, to: &w) } else { w.null() }
        case .note: w.string(e.note)
        case .depth: w.number(e.depth)
        case .reason: w.string(e.reason)
        case .receiverClass: w.string(e.receiver?.className)
        case .discrete: w.bool(e.discrete)
        }
    }
}
