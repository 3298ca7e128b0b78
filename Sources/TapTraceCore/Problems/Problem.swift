/// An RFC 9457 problem document, shared by the CLI (stderr, exit 2) and HTTP
/// (`application/problem+json`).
public struct Problem: Error, Sendable {
    public var type: String
    public var title: String
    public var status: Int
    public var detail: String
    /// Validation issues, each with its JSON pointer.
    public var errors: [ValidationIssue]
    public var omitted: Int = 0
    /// Where malformed input broke (JSON syntax, importer grammar).
    public var line: Int?
    public var column: Int?

    public static let typeBase = "https://taptrace.dev/problems/"

    public init(type: String, title: String, status: Int, detail: String, errors: [ValidationIssue] = []) {
        self.type = Problem.typeBase + type
        self.title = title
        self.status = status
        self.detail = detail
        self.errors = errors
    }

    public init(_ error: InputError) {
        switch error {
        case .syntax(let e):
            self.init(type: "malformed-json", title: "Malformed JSON", status: 400,
                      detail: "The body is not valid JSON: \(e.message) at line \(e.line), column \(e.column).")
            line = e.line
            column = e.column
        case .invalid(let f):
            let n = f.issues.count + f.omitted
            self.init(type: "validation", title: "Invalid document", status: 422,
                      detail: "\(n) problem\(n == 1 ? "" : "s") found; each names the JSON pointer of the value at fault.",
                      errors: f.issues)
            omitted = f.omitted
        }
    }

    public func json(indent: Int = 0) -> [UInt8] {
        var w = JSONWriter(indent: indent)
        w.beginObject()
        w.key("type"); w.string(type)
        w.key("title"); w.string(title)
        w.key("status"); w.number(status)
        w.key("detail"); w.string(detail)
        if let line { w.key("line"); w.number(line) }
        if let column { w.key("column"); w.number(column) }
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
