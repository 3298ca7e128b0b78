import TapTraceCore
import TapTraceJSON

/// `taptrace hit-test` and `POST /v1/scenes/{id}/hit-test`: the report as JSON.
extension HitTestReport {
    public func json(indent: Int = 0) -> [UInt8] {
        var w = JSONWriter(indent: indent)
        w.beginObject()
        w.key("point"); w.numbers(point.x, point.y)
        w.key("window"); ResultEncoder.writeRef(window, to: &w)
        w.key("hitTestView"); ResultEncoder.writeRef(view, to: &w)
        w.key("path")
        w.beginArray()
        for p in path { ResultEncoder.writeRef(p, to: &w) }
        w.endArray()
        w.key("trace")
        ResultEncoder.writeTrace(recorder, to: &w)  // writes the array brackets itself
        w.endObject()
        return w.bytes
    }
}
