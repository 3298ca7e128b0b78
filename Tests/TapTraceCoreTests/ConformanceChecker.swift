@testable import TapTraceCore
import TapTraceFormats
import TapTraceJSON

/// Checks a conformance case's `expect` against the result document (../shared/conformance/README.md).
enum ConformanceChecker {
    struct Failure: Error, CustomStringConvertible { let description: String }

    /// The request part of a case (`scene`, `touches`, `knobs`), byte for byte as the case wrote it.
    static func request(from tape: JSONTape) -> [UInt8] {
        var out: [UInt8] = Array("{".utf8)
        var first = true
        for (k, v) in tape.members(tape.root) {
            guard let key = tape.string(k), ["scene", "touches", "knobs"].contains(key) else { continue }
            if !first { out.append(0x2C) }
            first = false
            out += Array("\"\(key)\":".utf8)
            out += tape.rawBytes(v)
        }
        return out + Array("}".utf8)
    }

    static func check(caseBytes: [UInt8]) throws -> [String] {
        let tape = try JSONTape(parsing: caseBytes)
        guard let expect = tape.members(tape.root).first(where: { tape.string($0.key) == "expect" })?.value else {
            throw Failure(description: "case has no expect")
        }
        let resultBytes = ResultEncoder.encode(try TapTrace.dispatch(json: request(from: tape)))
        let result = try JSONTape(parsing: resultBytes)
        return check(expect: expect, in: tape, against: result)
    }

    // MARK: navigation helpers

    static func member(_ t: JSONTape, _ node: Int, _ key: String) -> Int? {
        t.member(node, key)
    }

    static func strings(_ t: JSONTape, _ node: Int) -> [String] { t.elements(node).compactMap { t.string($0) } }

    /// A scalar as comparable text (numbers by value, null as "null").
    static func scalar(_ t: JSONTape, _ node: Int) -> String {
        switch t.kind(node) {
        case .null: return "null"
        case .bool: return t.bool(node)! ? "true" : "false"
        case .number: return JSONWriter.format(t.number(node)!)
        case .string: return t.string(node)!
        case .array: return "[" + t.elements(node).map { scalar(t, $0) }.joined(separator: ",") + "]"
        case .object: return "{…}"
        }
    }

    static func check(expect: Int, in c: JSONTape, against r: JSONTape) -> [String] {
        var failures: [String] = []
        let trace = member(r, r.root, "trace")!
        var calls: [(name: String, t: Double)] = []
        for e in r.elements(trace) where r.string(member(r, e, "kind")!) == "call" {
            let receiver = r.string(member(r, member(r, e, "receiver")!, "id")!)!
            calls.append((receiver + " " + r.string(member(r, e, "selector")!)!, r.number(member(r, e, "t")!)!))
        }
        let callNames = calls.map(\.name)

        for (k, v) in c.members(expect) {
            switch c.string(k)! {
            case "firstResponder":
                let fr = member(r, r.root, "firstResponder")!
                let got = r.kind(fr) == .null ? "null" : r.string(member(r, fr, "id")!)!
                let want = c.kind(v) == .null ? "null" : c.string(v)!
                if got != want { failures.append("firstResponder: expected \(want), got \(got)") }
            case "responderChain":
                let got = r.elements(member(r, r.root, "responderChain")!).map { r.string(member(r, $0, "id")!)! }
                let want = strings(c, v)
                if got != want { failures.append("responderChain: expected \(want), got \(got)") }
            case "calls":
                var i = 0
                for want in strings(c, v) {
                    guard let found = callNames[i...].firstIndex(of: want) else {
                        failures.append("calls: \"\(want)\" not found in order (after call #\(i))")
                        break
                    }
                    i = found + 1
                }
            case "callsPrefix":
                let want = strings(c, v)
                let got = Array(callNames.prefix(want.count))
                if got != want { failures.append("callsPrefix: expected \(want), got \(got)") }
            case "notCalls":
                for name in strings(c, v) where callNames.contains(name) { failures.append("notCalls: \"\(name)\" was called") }
            case "callCounts":
                for (ck, cv) in c.members(v) {
                    let name = c.string(ck)!
                    let want = Int(c.number(cv)!)
                    let got = callNames.filter { $0 == name }.count
                    if got != want { failures.append("callCounts: \"\(name)\" expected \(want), got \(got)") }
                }
            case "callTimes":
                for (ck, cv) in c.members(v) {
                    let name = c.string(ck)!
                    guard let first = calls.first(where: { $0.name == name }) else {
                        failures.append("callTimes: \"\(name)\" never called"); continue
                    }
                    if abs(first.t - c.number(cv)!) > 1e-6 { failures.append("callTimes: \"\(name)\" at \(first.t), expected \(c.number(cv)!)") }
                }
            case "recognizers":
                let list = member(r, r.root, "recognizers")!
                for (ck, cv) in c.members(v) {
                    let id = c.string(ck)!
                    guard let gr = r.elements(list).first(where: { r.string(member(r, $0, "id")!) == id }) else {
                        failures.append("recognizers: \(id) not in the result"); continue
                    }
                    let states = strings(r, member(r, gr, "states")!)
                    var i = 0
                    for want in strings(c, cv) {
                        guard let found = states[i...].firstIndex(of: want) else {
                            failures.append("recognizers: \(id) states \(states) lack \(strings(c, cv)) in order"); break
                        }
                        i = found + 1
                    }
                }
            case "actions":
                let got = Array(r.elements(member(r, r.root, "actions")!))
                let want = Array(c.elements(v))
                if got.count != want.count {
                    failures.append("actions: expected \(want.count), got \(got.count): " + got.map { scalar(r, member(r, $0, "action")!) }.joined(separator: ", "))
                    break
                }
                for (i, (g, w)) in zip(got, want).enumerated() {
                    for (wk, wv) in c.members(w) {
                        let key = c.string(wk)!
                        guard let gv = member(r, g, key) else { failures.append("actions[\(i)].\(key): missing"); continue }
                        if key == "t" {
                            if abs(r.number(gv)! - c.number(wv)!) > 1e-6 { failures.append("actions[\(i)].t: \(r.number(gv)!) ≠ \(c.number(wv)!)") }
                        } else if scalar(r, gv) != scalar(c, wv) {
                            failures.append("actions[\(i)].\(key): expected \(scalar(c, wv)), got \(scalar(r, gv))")
                        }
                    }
                }
            case "touches":
                let list = member(r, r.root, "touches")!
                for (tk, tv) in c.members(v) {
                    let id = c.string(tk)!
                    guard let touch = r.elements(list).first(where: { r.string(member(r, $0, "id")!) == id }) else {
                        failures.append("touches: \(id) missing"); continue
                    }
                    for (wk, wv) in c.members(tv) {
                        let key = c.string(wk)!
                        let got = member(r, touch, key).map { scalar(r, $0) } ?? "(missing)"
                        if got != scalar(c, wv) { failures.append("touches.\(id).\(key): expected \(scalar(c, wv)), got \(got)") }
                    }
                }
            default:
                failures.append("unknown expect key \(c.string(k)!)")
            }
        }
        return failures
    }
}
