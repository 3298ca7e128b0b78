import TapTraceCore
import TapTraceFormats
import TapTraceJSON

/// A test file (`*.case.json`, the conformance case format of `../shared/conformance`): a
/// dispatch request (`scene`, `touches`, optional `knobs`) with `name`, the rule ids it
/// exercises (`rules`) and what the result must show (`expect`, checked by `CaseChecker`).
///
/// Read with every issue's JSON pointer, like a dispatch request: the request's members as
/// `InputDecoder.request` reads them, and `expect` checked key by key (unknown keys, wrong
/// types and unknown recognizer states are issues, so a typo cannot pass silently).
public struct CaseDocument: Sendable {
    /// `name`, when the case has one.
    public var name: String?
    public var rules: [String]
    public var scene: Scene
    public var touches: TouchSequence
    public var records: [TouchRecord]
    public var knobs: KnobOverrides
    /// The members of `expect`, in document order.
    public var expect: [(key: String, value: JSONValue)]
    /// The scene indexed once, when the case was read (its element targets resolved then).
    var index: SceneIndex?

    /// Every key `expect` may hold (../shared/conformance/README.md), in that README's order.
    public static let expectKeys = ["firstResponder", "responderChain", "calls", "callsPrefix", "notCalls", "callCounts",
                                    "callTimes", "recognizers", "actions", "touches", "keyResponder", "presses",
                                    "motions", "remoteControls", "responderChanges", "markers"]
    static let caseKeys = ["name", "rules", "scene", "touches", "knobs", "expect"]
    /// The names of the trace's markers (§5.2, `MarkerKind`), for `expect.markers`.
    static let markerNames = ["collect", "gate", "withhold", "flush", "drop", "pending", "chainWalk", "hitTestPass",
                              "sequenceEnd", "timer", "control", "keyResponder", "keyboard", "keyCommand", "textInput",
                              "firstResponder", "unhandled", "shakeToEdit", "arrival"]

    /// One case document; `limits` bounds its scene's views and its touch records.
    public static func decode(_ bytes: [UInt8], limits: Limits = .unlimited) throws(InputError) -> CaseDocument {
        let reader = DocumentReader(tape: try InputDecoder.parse(bytes), limits: limits)
        let document = decode(reader, at: reader.tape.root, pointer: "")
        guard reader.issues.isEmpty, let document else { throw .invalid(ValidationFailure(reader.issues)) }
        return document
    }

    /// One case document, or `{"cases": [case, …]}` (`POST /v1/check`): the cases in order.
    public static func decodeCases(_ bytes: [UInt8], limits: Limits = .unlimited) throws(InputError) -> [CaseDocument] {
        let reader = DocumentReader(tape: try InputDecoder.parse(bytes), limits: limits)
        let tape = reader.tape
        var cases: [CaseDocument] = []
        if tape.kind(tape.root) == .object, tape.member(tape.root, "cases") != nil {
            reader.object(tape.root, at: { "" }, keys: ["cases"]) { key, v in
                guard key == "cases" else { return false }
                guard let elements = reader.array(v, at: { "/cases" }) else { return true }
                if elements.count == 0 { reader.report({ "/cases" }, "must hold at least one case") }
                for (i, node) in elements.enumerated() {
                    if let c = decode(reader, at: node, pointer: "/cases/\(i)") { cases.append(c) }
                }
                return true
            }
        } else if let c = decode(reader, at: tape.root, pointer: "") {
            cases.append(c)
        }
        guard reader.issues.isEmpty else { throw .invalid(ValidationFailure(reader.issues)) }
        return cases
    }

    /// The case at `node`; its issues go to `reader` with pointers under `pointer`.
    public static func decode(_ reader: DocumentReader, at node: Int, pointer: String) -> CaseDocument? {
        var c = CaseDocument(name: nil, rules: [], scene: Scene(), touches: TouchSequence(), records: [],
                             knobs: KnobOverrides(), expect: [], index: nil)
        let issuesBefore = reader.issues.issues.count + reader.issues.omitted
        var seen: Set<String> = []
        let isObject = reader.object(node, at: { pointer }, keys: caseKeys) { key, v in
            let at = pointer + "/" + key
            switch key {
            case "name": c.name = reader.string(v, at: { at })
            case "rules": c.rules = reader.strings(v, at: { at }) ?? []
            case "scene": c.scene = reader.scene(at: v, pointer: at)
            case "touches": (c.touches, c.records) = reader.touchSequence(at: v, pointer: at)
            case "knobs": c.knobs = reader.knobs(at: v, pointer: at)
            case "expect": c.expect = expectations(reader, at: v, pointer: at)
            default: return false
            }
            seen.insert(key)
            return true
        }
        guard isObject else { return nil }
        for (key, what) in [("scene", "the scene document"), ("touches", "the touches document"),
                            ("expect", "what the result must show")] where !seen.contains(key) {
            reader.report({ pointer + "/" + key }, "required: \(what)")
        }
        // Gestures that name elements (`{"tap": {"view": "buyButton"}}`) are resolved against the
        // scene now, so that an unknown or ambiguous element makes the case invalid before any
        // case runs, as it makes a dispatch request invalid.
        if reader.issues.issues.count + reader.issues.omitted == issuesBefore {
            let index = SceneIndex(validated: c.scene)
            c.index = index
            do throws(ValidationFailure) {
                _ = try TapTrace.records(index, touches: c.touches, records: c.records, at: pointer + "/touches", knobs: c.knobs)
            } catch {
                for issue in error.issues { reader.report({ issue.pointer }, issue.message) }
            }
        }
        return c
    }

    static func expectations(_ reader: DocumentReader, at node: Int, pointer: String) -> [(key: String, value: JSONValue)] {
        let tape = reader.tape
        var out: [(key: String, value: JSONValue)] = []
        reader.object(node, at: { pointer }, keys: expectKeys) { key, v in
            let at = pointer + "/" + key
            let before = reader.issues.issues.count + reader.issues.omitted
            switch key {
            case "firstResponder":
                _ = reader.stringOrNull(v, at: { at })
            case "responderChain", "calls", "callsPrefix", "notCalls":
                _ = reader.strings(v, at: { at })
            case "markers":
                // Marker names are the trace's (`MarkerKind`): a typo cannot wait in vain.
                let names = markerNames
                for (i, name) in (reader.strings(v, at: { at }) ?? []).enumerated() where MarkerKind(rawValue: name) == nil {
                    var message = "unknown marker \"\(name)\""
                    if let near = DocumentReader.closest(to: name, in: names) { message += " (did you mean \"\(near)\"?)" }
                    reader.report({ at + "/\(i)" }, message + "; known: " + names.joined(separator: ", "))
                }
            case "callCounts":
                reader.object(v, at: { at }, keys: []) { call, n in
                    _ = reader.integer(n, at: { at + "/" + JSONPointer.escape(call) }, minimum: 0); return true
                }
            case "callTimes":
                reader.object(v, at: { at }, keys: []) { call, n in
                    _ = reader.nonNegative(n, at: { at + "/" + JSONPointer.escape(call) }); return true
                }
            case "recognizers":
                let states = ["possible", "began", "changed", "ended", "cancelled", "failed"]
                reader.object(v, at: { at }, keys: []) { id, list in
                    let p = at + "/" + JSONPointer.escape(id)
                    for (i, s) in (reader.strings(list, at: { p }) ?? []).enumerated() where !states.contains(s) {
                        var message = "unknown recognizer state \"\(s)\""
                        if let near = DocumentReader.closest(to: s, in: states) { message += " (did you mean \"\(near)\"?)" }
                        reader.report({ p + "/\(i)" }, message + "; allowed: " + states.joined(separator: ", "))
                    }
                    return true
                }
            case "actions", "motions", "remoteControls", "responderChanges":
                if let elements = reader.array(v, at: { at }) {
                    for (i, e) in elements.enumerated() where tape.kind(e) != .object {
                        reader.report({ at + "/\(i)" }, "must be an object, not \(tape.kind(e).described)")
                    }
                }
            case "touches", "presses":
                reader.object(v, at: { at }, keys: []) { id, entry in
                    if tape.kind(entry) != .object {
                        reader.report({ at + "/" + JSONPointer.escape(id) }, "must be an object, not \(tape.kind(entry).described)")
                    }
                    return true
                }
            case "keyResponder":
                reader.object(v, at: { at }, keys: ["initial", "final"]) { k, value in
                    guard k == "initial" || k == "final" else { return false }
                    _ = reader.stringOrNull(value, at: { at + "/" + k })
                    return true
                }
            default:
                return false
            }
            if reader.issues.issues.count + reader.issues.omitted == before {
                out.append((key, JSONValue(tape: tape, node: v)))
            }
            return true
        }
        return out
    }
}
