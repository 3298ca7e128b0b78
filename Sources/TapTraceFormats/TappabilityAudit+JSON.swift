import TapTraceCore
import TapTraceJSON

/// `taptrace audit`, `POST /v1/audit` and `POST /v1/scenes/{id}/audit`: the tappability audit
/// as JSON (keys in a fixed order, elements in the scene's document order) and as text.
extension TappabilityAudit {
    /// `{"elements": [{"id", "class", "interactions", "point", "size", "status", "hittable",
    /// "hitTestView", "reachableFraction", "reachablePoint"?, "reasons", "smallTarget"}],
    /// "count", "hittable", "partlyReachable", "offscreen", "unreachable", "small"}`.
    public func json(indent: Int = 0) -> [UInt8] {
        var w = JSONWriter(indent: indent)
        w.beginObject()
        w.key(static: "elements")
        w.beginArray()
        for e in elements {
            w.beginObject()
            w.key(static: "id"); w.string(e.view.id)
            w.key(static: "class"); w.string(e.view.className)
            w.key(static: "interactions"); w.strings(e.interactions.map(\.rawValue))
            w.key(static: "point"); w.numbers(e.point.x, e.point.y)
            w.key(static: "size"); w.numbers(Self.rounded(e.size.width), Self.rounded(e.size.height))
            w.key(static: "status"); w.string(e.status.rawValue)
            w.key(static: "hittable"); w.bool(e.hittable)
            w.key(static: "hitTestView"); ResultEncoder.writeRef(e.hitTestView, to: &w)
            w.key(static: "reachableFraction"); w.number(Self.rounded(e.reachableFraction))
            if let p = e.reachablePoint { w.key(static: "reachablePoint"); w.numbers(p.x, p.y) }
            w.key(static: "reasons")
            w.beginArray()
            for r in e.reasons {
                w.beginObject()
                w.key(static: "rule"); w.string(r.rule)
                w.key(static: "kind"); w.string(r.kind)
                w.key(static: "text"); w.string(r.text)
                w.key(static: "views")
                w.beginArray()
                for v in r.views { ResultEncoder.writeRef(v, to: &w) }
                w.endArray()
                w.endObject()
            }
            w.endArray()
            w.key(static: "smallTarget"); w.bool(e.smallTarget)
            w.endObject()
        }
        w.endArray()
        w.key(static: "count"); w.number(elements.count)
        w.key(static: "hittable"); w.number(hittableCount)
        w.key(static: "partlyReachable"); w.number(partlyReachable)
        w.key(static: "offscreen"); w.number(offscreen)
        w.key(static: "unreachable"); w.number(unreachable)
        w.key(static: "small"); w.number(small)
        w.endObject()
        return w.bytes
    }

    /// Three decimals: a grid fraction (k/9) and a size under a rotation print the same on
    /// every platform.
    static func rounded(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }

    /// One line per element, its reasons numbered under it, and the totals last.
    public func text() -> String {
        var out = ""
        for e in elements {
            out += Self.line(e) + "\n"
            for (i, r) in e.reasons.enumerated() { out += "    \(i + 1). [\(r.rule)] \(r.text)\n" }
        }
        out += "\(elements.count) interactive element\(elements.count == 1 ? "" : "s"): \(hittableCount) hittable, "
            + "\(partlyReachable) partly reachable, \(offscreen) offscreen, \(unreachable) unreachable; \(small) smaller than 44 × 44 pt\n"
        return out
    }

    static func line(_ e: Element) -> String {
        let mark: String
        switch e.status {
        case .hittable: mark = "ok  "
        case .partlyReachable: mark = "PART"
        case .unreachable: mark = "FAIL"
        case .offscreen: mark = "OFF "
        }
        var s = "\(mark) \(e.view.id) (\(e.view.className)) at \(point(e.point)): "
        switch e.status {
        case .hittable: s += "hittable"
        case .partlyReachable:
            s += "partly reachable (\(String(Int((e.reachableFraction * 9).rounded()))) of 9 grid points); the centre goes to \(e.hitTestView?.id ?? "no view")"
            if let p = e.reachablePoint { s += ", tap at \(point(p)) instead" }
        case .unreachable:
            s += "unreachable; the centre goes to \(e.hitTestView?.id ?? "no view")"
        case .offscreen:
            s += "offscreen (scroll to reveal it)"
        }
        if e.smallTarget {
            s += "; small target \(num(rounded(e.size.width))) × \(num(rounded(e.size.height))) pt (< 44 × 44)"
        }
        return s
    }

    /// Integral values as integers ("44", not "44.0"), as the engine's texts write them.
    static func num(_ value: Double) -> String {
        if value == value.rounded(.towardZero), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return value.description
    }

    static func point(_ p: Point) -> String { "(\(num(p.x)), \(num(p.y)))" }
}
