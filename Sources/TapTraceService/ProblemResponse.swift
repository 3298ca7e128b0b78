import TapTraceCore
import TapTraceHTTP
import TapTraceStore

/// Every failure of the API is an RFC 9457 problem document (`application/problem+json`),
/// built from `Problem` (TapTraceCore) so the CLI and the service speak the same shape.
extension HTTPResponse {
    public static let problemContentType = "application/problem+json"

    public static func problem(_ problem: Problem) -> HTTPResponse {
        HTTPResponse(status: problem.status, headers: ["Content-Type": problemContentType], body: problem.json())
    }
}

extension Problem {
    static func badRequest(_ detail: String) -> Problem {
        Problem(type: "bad-request", title: "Bad request", status: 400, detail: detail)
    }

    static func notFound(_ detail: String) -> Problem {
        Problem(type: "not-found", title: "Not found", status: 404, detail: detail)
    }

    static func conflict(_ detail: String) -> Problem {
        Problem(type: "conflict", title: "Version conflict", status: 409, detail: detail)
    }

    static func unsupportedMediaType(_ detail: String) -> Problem {
        Problem(type: "unsupported-media-type", title: "Unsupported media type", status: 415, detail: detail)
    }

    /// 422 with one issue at `pointer`.
    static func invalid(_ pointer: String, _ message: String) -> Problem {
        Problem(.invalid(ValidationFailure(issues: [ValidationIssue(pointer, message)])))
    }

    static func internalError(_ detail: String) -> Problem {
        Problem(type: "internal", title: "Internal server error", status: 500, detail: detail)
    }

    static func unavailable(_ detail: String) -> Problem {
        Problem(type: "unavailable", title: "Service unavailable", status: 503, detail: detail)
    }

    /// The answers TapTraceHTTP gives by itself (no route, wrong method, size limits), as problems
    /// (`HTTPServerConfiguration.errorResponder`).
    public static func fromServer(status: Int, detail: String) -> Problem {
        switch status {
        case 404: return notFound(detail.prefix(1).uppercased() + detail.dropFirst() + ".")
        case 405: return Problem(type: "method-not-allowed", title: "Method not allowed", status: 405,
                                 detail: detail.prefix(1).uppercased() + detail.dropFirst() + "; see the Allow header.")
        case 413: return Problem(type: "payload-too-large", title: "Payload too large", status: 413,
                                 detail: "The request body is larger than the server's limit (\(detail)).")
        case 414: return Problem(type: "uri-too-long", title: "URI too long", status: 414,
                                 detail: "The request target is longer than the server's limit (\(detail)).")
        case 431: return Problem(type: "header-too-large", title: "Request header fields too large", status: 431,
                                 detail: "The request header is larger than the server's limit (\(detail)).")
        default: return Problem(type: "http-\(status)", title: "HTTP \(status)", status: status, detail: detail)
        }
    }

    /// How a store failure reads to a client. Database failures keep their message out of the
    /// answer (it is logged instead).
    init(_ error: StoreError) {
        switch error {
        case .sceneNotFound, .versionNotFound, .runNotFound:
            self = .notFound(Self.sentence(error.description))
        case .conflict:
            self = .conflict(Self.sentence(error.description))
        case .invalidCursor:
            self = .badRequest("The cursor is not one this listing handed out; start again without a cursor.")
        case .invalidArgument(let message):
            self = .badRequest(Self.sentence(message))
        case .databaseTooNew, .database:
            self = .internalError("The database failed; the server log has the details.")
        }
    }

    static func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst() + (text.hasSuffix(".") ? "" : ".")
    }
}
