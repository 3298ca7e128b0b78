import TapTraceCore
import TapTraceFormats
import TapTraceHTTP
import TapTraceImport
import TapTraceStore

/// Every failure of the API is an RFC 9457 problem document (`application/problem+json`),
/// built from `Problem` (TapTraceCore) so the CLI and the service speak the same shape. The
/// engine's problems say what went wrong; which HTTP status that is, is said here.
extension HTTPResponse {
    public static let problemContentType = "application/problem+json"

    public static func problem(_ problem: Problem) -> HTTPResponse {
        let status = problem.httpStatus
        var response = HTTPResponse(status: status, headers: ["Content-Type": problemContentType], body: problem.json(status: status))
        if let seconds = problem.retryAfter { response.headers["Retry-After"] = String(seconds) }
        return response
    }
}

extension Problem.Kind {
    static let badRequest = Problem.Kind("bad-request")
    static let notFound = Problem.Kind("not-found")
    static let conflict = Problem.Kind("conflict")
    static let unsupportedMediaType = Problem.Kind("unsupported-media-type")
    static let internalError = Problem.Kind("internal")
    static let unavailable = Problem.Kind("unavailable")
    /// The database's storage has no room (a full disk, or `--database-size-limit`): 503.
    static let storageFull = Problem.Kind("storage-full")
    /// The database's storage fails (I/O errors, a file system turned read-only): 503.
    static let storageFailing = Problem.Kind("storage-failing")
    /// Another process held the database's write lock past the busy timeout: 503.
    static let databaseBusy = Problem.Kind("database-busy")
    /// The database server (PostgreSQL) cannot be reached: 503.
    static let databaseUnreachable = Problem.Kind("database-unreachable")
    /// No bearer token, or one the server does not hold (`--auth-token-file`): 401.
    static let unauthorized = Problem.Kind("unauthorized")
    /// A `Host` or `Origin` the server does not answer (DNS rebinding, cross-site): 403.
    static let forbidden = Problem.Kind("forbidden")
    /// A request the HTTP layer does not implement (a `Transfer-Encoding` other than chunked).
    static let notImplemented = Problem.Kind("not-implemented")
    static let methodNotAllowed = Problem.Kind("method-not-allowed")
    static let payloadTooLarge = Problem.Kind("payload-too-large")
    static let uriTooLong = Problem.Kind("uri-too-long")
    static let headerTooLarge = Problem.Kind("header-too-large")
    /// A request line with an HTTP version other than 1.x: 505.
    static let httpVersionNotSupported = Problem.Kind("http-version-not-supported")
    /// A JSON Patch that cannot be applied (`PATCH /v1/scenes/{id}`): the problem names the
    /// operation and its pointer.
    static let jsonPatch = Problem.Kind("json-patch")
    /// A file the CLI cannot read.
    public static let unreadableInput = Problem.Kind("unreadable-input")

    /// `http-NNN`: an answer of TapTraceHTTP's with no kind of its own.
    static func http(_ status: Int) -> Problem.Kind { Problem.Kind("http-\(status)") }
}

extension Problem {
    /// The HTTP status of a problem of this kind: what the service answers with, and what the
    /// CLI prints in the document beside exit code 2.
    public var httpStatus: Int {
        switch kind {
        case .malformedJSON, .badRequest, .unreadableInput: return 400
        case .unauthorized: return 401
        case .forbidden: return 403
        case .notFound: return 404
        case .methodNotAllowed: return 405
        case .conflict: return 409
        case .payloadTooLarge: return 413
        case .uriTooLong: return 414
        case .unsupportedMediaType: return 415
        case .validation, .importSyntax, .jsonPatch, .limitExceeded: return 422
        case .headerTooLarge: return 431
        case .notImplemented: return 501
        case .httpVersionNotSupported: return 505
        case .unavailable, .timeBudgetExceeded, .cancelled, .storageFull, .storageFailing, .databaseBusy, .databaseUnreachable:
            return 503
        default:
            if kind.rawValue.hasPrefix("http-"), let status = Int(kind.rawValue.dropFirst(5)) { return status }
            return 500
        }
    }

    static func badRequest(_ detail: String) -> Problem {
        Problem(kind: .badRequest, title: "Bad request", detail: detail)
    }

    static func notFound(_ detail: String) -> Problem {
        Problem(kind: .notFound, title: "Not found", detail: detail)
    }

    static func conflict(_ detail: String) -> Problem {
        Problem(kind: .conflict, title: "Version conflict", detail: detail)
    }

    static func unsupportedMediaType(_ detail: String) -> Problem {
        Problem(kind: .unsupportedMediaType, title: "Unsupported media type", detail: detail)
    }

    /// 422 with one issue at `pointer`.
    static func invalid(_ pointer: String, _ message: String) -> Problem {
        Problem(ValidationFailure(issues: [ValidationIssue(pointer, message)]))
    }

    static func internalError(_ detail: String) -> Problem {
        Problem(kind: .internalError, title: "Internal server error", detail: detail)
    }

    static func unavailable(_ detail: String) -> Problem {
        Problem(kind: .unavailable, title: "Service unavailable", detail: detail)
    }

    /// 503 for a storage failure, with `Retry-After`: what failed and that nothing was stored.
    /// SQLite's message stays out of the answer (the server log has it). Space is freed by a
    /// person or a cleanup job, so a full disk is asked about less often than an I/O error that
    /// may pass; a lock held by another process is usually released within seconds.
    static func storage(_ failure: StorageFailure) -> Problem {
        var problem: Problem
        switch failure.kind {
        case .full:
            problem = Problem(kind: .storageFull, title: "Storage full",
                              detail: "The database's storage is full, so nothing was stored; deleting scenes frees space. Retry later.")
            problem.retryAfter = 60
        case .failing:
            problem = Problem(kind: .storageFailing, title: "Storage failing",
                              detail: "The database's storage failed (an I/O error), so nothing was stored; the server log has the details. Retry later.")
            problem.retryAfter = 30
        case .busy:
            problem = Problem(kind: .databaseBusy, title: "Database busy",
                              detail: "Another process held the database for longer than the busy timeout, so nothing was done. Retry shortly.")
            problem.retryAfter = 5
        case .unreachable:
            problem = Problem(kind: .databaseUnreachable, title: "Database unreachable",
                              detail: "The database server cannot be reached, so nothing was done; the service reconnects by itself once it answers. Retry shortly.")
            problem.retryAfter = 5
        }
        return problem
    }

    /// The answers TapTraceHTTP gives by itself (no route, wrong method, size limits), as problems
    /// (`HTTPServerConfiguration.errorResponder`).
    public static func fromServer(status: Int, detail: String) -> Problem {
        switch status {
        case 404: return notFound(detail.prefix(1).uppercased() + detail.dropFirst() + ".")
        case 405: return Problem(kind: .methodNotAllowed, title: "Method not allowed",
                                 detail: detail.prefix(1).uppercased() + detail.dropFirst() + "; see the Allow header.")
        case 413: return Problem(kind: .payloadTooLarge, title: "Payload too large",
                                 detail: "The request body is larger than the server's limit (\(detail)).")
        case 414: return Problem(kind: .uriTooLong, title: "URI too long",
                                 detail: "The request target is longer than the server's limit (\(detail)).")
        case 431: return Problem(kind: .headerTooLarge, title: "Request header fields too large",
                                 detail: "The request header is larger than the server's limit (\(detail)).")
        case 400: return badRequest(sentence(detail))
        case 401: return Problem(kind: .unauthorized, title: "Unauthorized", detail: sentence(detail))
        case 403: return Problem(kind: .forbidden, title: "Forbidden", detail: sentence(detail))
        case 501: return Problem(kind: .notImplemented, title: "Not implemented", detail: sentence(detail))
        case 505: return Problem(kind: .httpVersionNotSupported, title: "HTTP version not supported", detail: sentence(detail))
        case 503: return unavailable(sentence(detail))
        default: return Problem(kind: .http(status), title: "HTTP \(status)", detail: detail)
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
        case .storage(let failure):
            self = .storage(failure)
        case .databaseTooNew, .database:
            self = .internalError("The database failed; the server log has the details.")
        }
    }

    static func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst() + (text.hasSuffix(".") ? "" : ".")
    }
}
