import TapTraceCore
import TapTraceJSON

/// `taptrace why`, `POST /v1/why` and `POST /v1/runs/{id}/why`: `{"question", "answer",
/// "reasons": [{"rule", "text", "trace": [entry indices]}], "changes": [{"edit", "rule",
/// "verified", "outcome"}]}`.
extension WhyAnswer {
    public func json(indent: Int = 0) -> [UInt8] {
        var w = JSONWriter(indent: indent)
        w.beginObject()
        w.key("question"); w.string(question)
        w.key("answer"); w.string(answer)
        w.key("reasons")
        w.beginArray()
        for r in reasons {
            w.beginObject()
            w.key("rule"); w.string(r.rule)
            w.key("text"); w.string(r.text)
            w.key("trace")
            w.beginArray()
            for i in r.trace { w.number(i) }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        w.key("changes")
        w.beginArray()
        for c in changes {
            w.beginObject()
            w.key("edit"); w.string(c.edit)
            w.key("rule"); w.string(c.rule)
            w.key("verified"); w.bool(c.verified)
            w.key("outcome"); w.string(c.outcome)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.bytes
    }
}
