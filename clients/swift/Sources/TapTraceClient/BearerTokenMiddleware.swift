import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends `Authorization: Bearer <token>` with every request, for a server started with
/// `--auth-token-file` (or `TAPTRACE_AUTH_TOKENS`). The token is kept out of `description`
/// so that it does not end up in a test's log.
public struct BearerTokenMiddleware: ClientMiddleware, CustomStringConvertible {
    private let fieldValue: String
    /// Whether the token is visible ASCII without commas (what the server's token file accepts).
    /// Checked here and reported by the first request, so that `TapTrace.init` need not throw.
    private let isValid: Bool

    public init(token: String) {
        isValid = !token.isEmpty && token.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F && $0 != "," }
        fieldValue = "Bearer " + token
    }

    public var description: String { "BearerTokenMiddleware(token: <hidden>)" }

    /// Adds the field to a request sent without the generated client; throws
    /// `TapTraceClientError.invalidToken` for a token that cannot be sent.
    func authorize(_ request: inout HTTPRequest) throws {
        guard isValid else { throw TapTraceClientError.invalidToken }
        request.headerFields[.authorization] = fieldValue
    }

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        try authorize(&request)
        return try await next(request, body, baseURL)
    }

    /// `TAPTRACE_TOKEN` from the environment, when set and not blank.
    static var environmentToken: String? {
        guard let value = ProcessInfo.processInfo.environment["TAPTRACE_TOKEN"]?
            .trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }
}
