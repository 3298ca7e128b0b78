import TapTraceCore
import TapTraceHTTP
import TapTraceStore

/// Query parameters of the listing and reading endpoints. A malformed value is 400 (it is not
/// part of a JSON document, so it has no pointer); unknown parameters are ignored, as HTTP
/// caches and proxies may add their own.
struct QueryParameters {
    let values: [String: String]

    init(_ request: HTTPRequest) { values = request.query }

    /// `limit`: 1…1000, default 50.
    func limit() throws(Problem) -> Int {
        guard let text = values["limit"] else { return 50 }
        guard let n = Int(text), (1...TraceStoreLimits.maxPageSize).contains(n) else {
            throw Problem.badRequest("limit must be an integer from 1 to \(TraceStoreLimits.maxPageSize), not \"\(text)\".")
        }
        return n
    }

    /// `cursor`: opaque, from a previous page's `nextCursor`; empty means none.
    func cursor() -> String? {
        guard let text = values["cursor"], !text.isEmpty else { return nil }
        return text
    }

    /// `version`: a positive integer, or nil for the latest.
    func version() throws(Problem) -> Int? {
        guard let text = values["version"] else { return nil }
        guard let n = Int(text), n >= 1 else {
            throw Problem.badRequest("version must be a positive integer, not \"\(text)\".")
        }
        return n
    }

    /// A boolean flag (`store=true`): `true`/`false`, absent is false.
    func flag(_ name: String) throws(Problem) -> Bool {
        guard let text = values[name] else { return false }
        switch text {
        case "true", "1": return true
        case "false", "0": return false
        default: throw Problem.badRequest("\(name) must be true or false, not \"\(text)\".")
        }
    }

    /// A value from a fixed list (`format`, `names`), or `fallback` when absent.
    func choice(_ name: String, _ allowed: [String], default fallback: String) throws(Problem) -> String {
        guard let text = values[name] else { return fallback }
        guard allowed.contains(text) else {
            throw Problem.badRequest("\(name) must be one of \(allowed.joined(separator: ", ")), not \"\(text)\".")
        }
        return text
    }
}
