import TapTraceCore
import TapTraceJSON

/// The plain-text rendering (`--text`, `?format=text`): one line per entry, indented by depth,
/// in the style iOS developers log (`buyButton -> touchesBegan:withEvent:`).
public enum TextRenderer {
    public enum Names: String, Sendable, CaseIterable { case objc, swift, both }

    /// Indentation stops growing here so that a 10,000-deep forwarding stays readable.
    static let maxIndent = 40

    /// With `rules`, each entry's line starts with its index in the trace (`#12`, what a `why`
    /// reason cites) and ends with the rule it shows (`[GS7]`, `TraceRules`).
    public static func render(_ r: DispatchResult, names: Names = .objc, rules: Bool = false) -> String {
        var out = ""
        out += "firstResponder: \(r.firstResponder?.id ?? "nil")\n"
        if !r.responderChain.isEmpty {
            out += "responderChain: " + r.responderChain.map { $0.role == "cycle" ? "(cycle at \($0.ref.id))" : $0.ref.id }.joined(separator: " → ") + "\n"
        }
        for a in r.actions {
            out += "action t=\(time(a.t)): \(a.action) sender \(a.sender) → \(a.target ?? "nobody") (\(a.via.rawValue))\n"
        }
        for c in r.elements { out += element(c) + "\n" }
        if let n = r.nonTouch { out += nonTouch(n) }
        var header: (Double, TraceCause)?
        let recognizers = rules ? Set(r.recognizers.map(\.id)) : []
        let trace = r.trace
        for (i, e) in trace.enumerated() {
            if header == nil || header!.0 != e.t || header!.1 != e.cause {
                header = (e.t, e.cause)
                switch e.cause {
                case .input: out += "t=\(time(e.t)) input\n"
                case .timer(let id): out += "t=\(time(e.t)) timer \(id)\n"
                }
            }
            if rules {
                out += "#\(i)" + line(e, names: names)
                if let rule = TraceRules.rule(of: e, in: trace, recognizers: recognizers) { out += " [\(rule)]" }
                out += "\n"
            } else {
                out += line(e, names: names) + "\n"
            }
        }
        return out
    }

    /// The non-touch summaries as log lines: the key responder, then each press, shake,
    /// remote-control event and first-responder call, with where it went and who took it.
    static func nonTouch(_ n: NonTouchSummary) -> String {
        var out = "keyResponder: \(n.keyResponder.initial ?? "nil") → \(n.keyResponder.final ?? "nil")\n"
        func path(_ delivered: [String], _ handledBy: String?) -> String {
            var s = delivered.isEmpty ? "not delivered" : "delivered " + delivered.joined(separator: " → ")
            s += handledBy.map { "; handled by \($0)" } ?? (delivered.isEmpty ? "" : "; unhandled")
            return s
        }
        for p in n.presses {
            let key = p.key.map { " " + KeyInput(characters: $0, charactersIgnoringModifiers: $0, keyCode: "", modifierFlags: []).displayText } ?? ""
            out += "press \(p.id) \(p.type.rawValue)\(key) → \(p.responder ?? "nobody") (\(p.source?.rawValue ?? "none")): "
            if let command = p.keyCommand {
                out += "key command \(command)"
            } else {
                out += path(p.delivered, p.handledBy)
                if let text = p.textInput { out += "; typed into \(text)" }
            }
            out += "\n"
        }
        for d in n.motions + n.remoteControls {
            let name = d.phase.map { "\(d.subtype) \($0.rawValue)" } ?? "remoteControl \(d.subtype)"
            out += "\(name) t=\(time(d.t)) → "
            out += d.dropped ? "dropped (the application does not receive remote-control events)\n"
                : "\(d.responder ?? "nobody") (\(d.source?.rawValue ?? "none")): \(path(d.delivered, d.handledBy))\n"
        }
        for c in n.responderChanges {
            out += "\(c.call) \(c.receiver) t=\(time(c.t)) → \(c.result ? "YES" : "NO") (first responder \(c.from ?? "nil") → \(c.to ?? "nil"))\n"
        }
        return out
    }

    /// `element gesture 0: buyButton at (195, 420) hittable` or, when another view takes the
    /// point, `… not hittable (hit-test view coverView): [H1] <the deciding reason>`.
    public static func element(_ c: ElementCheck) -> String {
        var s = "element gesture \(c.gesture): \(c.view) at (\(coordinate(c.point.x)), \(coordinate(c.point.y))) "
        if c.hittable { return s + "hittable" }
        s += "not hittable (hit-test view \(c.hitTestView ?? "none"))"
        if let first = c.reasons.first { s += ": [\(first.rule)] \(first.text)" }
        return s
    }

    private static func coordinate(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x)
    }

    public static func line(_ e: TraceEntry, names: Names = .objc) -> String {
        let depth = min(e.depth, maxIndent)
        var s = String(repeating: "  ", count: depth + 1)
        if e.depth > maxIndent { s += "(depth \(e.depth)) " }
        switch e.kind {
        case .call:
            let objc = e.selector ?? ""
            let selector: String
            switch names {
            case .objc: selector = objc
            case .swift: selector = SelectorNames.swift(objc)
            case .both: selector = objc + " / " + SelectorNames.swift(objc)
            }
            s += "\(e.receiver?.id ?? "?") -> \(selector)"
            // UIEvent subtypes as Swift spells them (`.motionShake`); presses with their keys.
            let args = e.args.filter { $0.name != "event" || e.args.count == 1 }.map { a in
                a.name == "subtype" ? "." + value(a.value) : value(a.value)
            }
            if !args.isEmpty { s += " " + args.joined(separator: " ") }
            if let result = e.result { s += " → " + value(result, nilWord: true) }
            else if objc == "hitTest:withEvent:" { s += " → nil" }
        case .state:
            s += "[state] \(e.receiver?.id ?? "?") .\(e.from?.rawValue ?? "?") → .\(e.to?.rawValue ?? "?") (\(e.reason ?? ""))"
            if e.discrete && e.to == .ended { s += " (discrete)" }
        case .marker:
            s += "[\(e.marker?.rawValue ?? "marker")]"
            if let note = e.note { s += " " + note }
            return s
        }
        if let note = e.note { s += "   // " + note }
        return s
    }

    package static func time(_ t: Double) -> String {
        // Milliseconds precision, like the rules' traces (t=0.120), without Foundation.
        let ms = (t * 1000).rounded()
        // A request may give any finite time. Past 2^53 ms (about 285,000 years) a double
        // has no millisecond digits left and `Int64` below would trap: such a time is written
        // as the JSON number.
        guard abs(ms) < 9_007_199_254_740_992 else { return number(t) }
        let whole = Int64(ms / 1000)
        var frac = String(Int64(abs(ms)) % 1000)
        while frac.count < 3 { frac = "0" + frac }
        return (ms < 0 && whole == 0 ? "-" : "") + "\(whole).\(frac)"
    }

    static func number(_ n: Double) -> String { JSONWriter.format(n) }

    package static func value(_ v: TraceValue, nilWord: Bool = false) -> String {
        switch v {
        case .null: return "nil"
        case .bool(let b): return b ? "YES" : "NO"
        case .number(let n): return number(n)
        case .string(let s): return s
        case .point(let p): return "(\(number(p.x)), \(number(p.y)))"
        case .object(let ref): return ref.id
        case .strings(let s): return "[" + s.joined(separator: ", ") + "]"
        case .objects(let refs): return "[" + refs.map(\.id).joined(separator: ", ") + "]"
        case .touches(let ts): return "{" + ts.map(\.id).joined(separator: ", ") + "}"
        case .presses(let ps): return "{" + ps.map { p in p.key.map { "\(p.id) \($0.displayText)" } ?? "\(p.id) \(p.type.rawValue)" }.joined(separator: ", ") + "}"
        }
    }
}
