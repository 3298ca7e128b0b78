import TapTraceCore
import TapTraceJSON

/// `taptrace explain` and `POST /v1/scenes/{id}/explain`: the explanation as JSON.
extension Explanation {
    public func json(indent: Int = 0) -> [UInt8] {
        var w = JSONWriter(indent: indent)
        w.beginObject()
        w.key("point"); w.numbers(point.x, point.y)
        w.key("target"); ResultEncoder.writeRef(target, to: &w)
        w.key("isHitTestView"); w.bool(isHitTestView)
        if let receivesTouch { w.key("receivesTouch"); w.bool(receivesTouch) }
        w.key("window"); ResultEncoder.writeRef(window, to: &w)
        w.key("hitTestView"); ResultEncoder.writeRef(hitTestView, to: &w)
        w.key("reasons")
        w.beginArray()
        for r in reasons {
            w.beginObject()
            w.key("rule"); w.string(r.rule)
            w.key("kind"); w.string(r.kind)
            w.key("text"); w.string(r.text)
            w.key("views")
            w.beginArray()
            for v in r.views { ResultEncoder.writeRef(v, to: &w) }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.bytes
    }
}
