import TapTraceCore
import TapTraceJSON

extension Problem {
    /// The problem document (RFC 9457). `status` is the HTTP status the service answers with
    /// (and the CLI prints, so that both say the same): the engine's problems carry none.
    public func json(status: Int?, indent: Int = 0) -> [UInt8] {
        var w = JSONWriter(indent: indent)
        w.beginObject()
        w.key("type"); w.string(type)
        w.key("title"); w.string(title)
        if let status { w.key("status"); w.number(status) }
        w.key("detail"); w.string(detail)
        if let line { w.key("line"); w.number(line) }
        if let column { w.key("column"); w.number(column) }
        if let operation { w.key("operation"); w.number(operation) }
        if let pointer { w.key("pointer"); w.string(pointer) }
        if let limit {
            // Which limit, its value, the size met, and the settings that raise it.
            w.key("limit")
            w.beginObject()
            w.key("name"); w.string(limit.limit.rawValue)
            w.key("maximum"); w.number(limit.maximum)
            w.key("size"); w.number(limit.size)
            w.key("sizeIsLowerBound"); w.bool(limit.isLowerBound)
            w.key("flag"); w.string(limit.limit.flag)
            w.key("environmentVariable"); w.string(limit.limit.environmentVariable)
            w.endObject()
        }
        if !errors.isEmpty {
            w.key("errors")
            w.beginArray()
            for e in errors {
                w.beginObject()
                w.key("pointer"); w.string(e.pointer)
                w.key("detail"); w.string(e.message)
                w.endObject()
            }
            w.endArray()
        }
        if omitted > 0 { w.key("omittedErrors"); w.number(omitted) }
        w.endObject()
        return w.bytes
    }
}
