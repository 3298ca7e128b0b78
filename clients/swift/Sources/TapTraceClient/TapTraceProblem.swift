import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A failure answered by the server: its RFC 9457 problem document (contract §6).
///
/// Every 4xx and 5xx answer of `TapTrace`'s methods is thrown as this error. A validation
/// failure (422) lists every issue with the JSON pointer of the value at fault, so a test can
/// say which member of its scene or touches was wrong:
///
/// ```swift
/// do { _ = try await taptrace.upload(scene: data) }
/// catch let problem as TapTraceProblem { print(problem.issues.map(\.pointer)) }
/// ```
public struct TapTraceProblem: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// One issue of a validation failure.
    public struct Issue: Sendable, Hashable {
        /// RFC 6901 JSON pointer into the request body (`/windows/0/alpha`).
        public var pointer: String
        public var detail: String

        public init(pointer: String, detail: String) {
            self.pointer = pointer
            self.detail = detail
        }
    }

    /// The HTTP status of the answer.
    public var status: Int
    /// `https://taptrace.dev/problems/<kind>`, e.g. `…/validation`.
    public var type: String
    public var title: String
    public var detail: String
    /// Every issue of a validation failure (422 of type `validation`), in the server's order.
    public var issues: [Issue]
    /// Issues beyond the first 1000 that the server counted but did not list.
    public var omittedIssues: Int?
    /// Malformed JSON (400): where it broke, 1-based.
    public var line: Int?
    public var column: Int?
    /// A JSON Patch that cannot be applied: the failing operation's index and the pointer at fault.
    public var operation: Int?
    public var pointer: String?

    public init(
        status: Int, type: String, title: String, detail: String, issues: [Issue] = [],
        omittedIssues: Int? = nil, line: Int? = nil, column: Int? = nil, operation: Int? = nil,
        pointer: String? = nil
    ) {
        self.status = status
        self.type = type
        self.title = title
        self.detail = detail
        self.issues = issues
        self.omittedIssues = omittedIssues
        self.line = line
        self.column = column
        self.operation = operation
        self.pointer = pointer
    }

    /// The problem of a generated response type.
    public init(status: Int, _ problem: Components.Schemas.Problem) {
        self.init(
            status: status, type: problem._type, title: problem.title, detail: problem.detail,
            issues: (problem.errors ?? []).map { Issue(pointer: $0.pointer, detail: $0.detail) },
            omittedIssues: problem.omittedErrors, line: problem.line, column: problem.column,
            operation: problem.operation, pointer: problem.pointer)
    }

    /// The problem of an answer's status and body. A body that is not a problem document (a
    /// proxy's error page, say) keeps the status, with the body's text as the detail, so that
    /// the failure still says what came back.
    init(status: HTTPResponse.Status, body: Data) {
        if let problem = try? JSONDecoder().decode(Components.Schemas.Problem.self, from: body) {
            self.init(status: status.code, problem)
        } else {
            self.init(
                status: status.code, type: "about:blank", title: status.reasonPhrase,
                detail: String(decoding: body.prefix(2000), as: UTF8.self))
        }
    }

    /// The issue at `pointer`, if the server listed one.
    public func issue(at pointer: String) -> Issue? { issues.first { $0.pointer == pointer } }

    /// `422 Invalid document: 1 problem found; …` and one line per issue, `  /pointer: detail`.
    public var description: String {
        var text = "\(status) \(title): \(detail)"
        if let line, let column { text += " (line \(line), column \(column))" }
        if let operation { text += " (operation \(operation))" }
        if let pointer { text += " at \(pointer.isEmpty ? "\"\"" : pointer)" }
        for issue in issues { text += "\n  \(issue.pointer.isEmpty ? "\"\"" : issue.pointer): \(issue.detail)" }
        if let omittedIssues, omittedIssues > 0 { text += "\n  … and \(omittedIssues) more" }
        return text
    }

    public var errorDescription: String? { description }
}

/// A failure on the client's side, before a request was sent or after an answer came back.
public enum TapTraceClientError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// A JSON document given as `Data` does not parse; `argument` names the parameter.
    case malformedJSON(argument: String, detail: String)
    /// A successful answer whose body is not the document the API promises.
    case unexpectedAnswer(operation: String, status: Int, detail: String)
    /// The bearer token holds a space, a comma or a character other than visible ASCII, which
    /// the server's token file never holds (the token is not repeated here).
    case invalidToken

    public var description: String {
        switch self {
        case let .malformedJSON(argument, detail): "\(argument) is not JSON: \(detail)"
        case let .unexpectedAnswer(operation, status, detail): "\(operation) answered \(status) with an unexpected body: \(detail)"
        case .invalidToken: "the bearer token must be visible ASCII without spaces or commas"
        }
    }

    public var errorDescription: String? { description }
}

/// Turns every 4xx and 5xx answer into a `TapTraceProblem` before the generated client decodes
/// it, so that `TapTrace`'s methods throw one error type for every operation instead of
/// switching over each operation's documented error cases.
struct ProblemMiddleware: ClientMiddleware {
    /// Problem documents are small; a larger body is cut here rather than buffered whole.
    static let maximumProblemBytes = 1 << 20

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status.code >= 400 else { return (response, responseBody) }
        throw TapTraceProblem(status: response.status, body: try await collect(responseBody))
    }

    private func collect(_ body: HTTPBody?) async throws -> Data {
        guard let body else { return Data() }
        var data = Data()
        for try await chunk in body {
            data.append(contentsOf: chunk.prefix(Self.maximumProblemBytes - data.count))
            if data.count >= Self.maximumProblemBytes { break }
        }
        return data
    }
}
