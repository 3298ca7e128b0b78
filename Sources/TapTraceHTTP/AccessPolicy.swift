/// Who may use the server: bearer tokens, the Host names it answers to, and cross-site origins.
///
/// Consulted once the request head has arrived and before any body is read or any route runs,
/// so a refused request costs nothing (a cross-site `text/plain` POST, which a browser sends
/// without a preflight, never reaches its handler).
///
/// - **Tokens**: when `tokens` is not empty, every request whose path is under one of
///   `protectedPrefixes` must carry `Authorization: Bearer <token>` with one of them (401
///   otherwise). Preflights (`OPTIONS`) are exempt: browsers never send credentials with them.
/// - **Host** (DNS rebinding): when `tokens` is empty, only loopback names (`localhost`,
///   `*.localhost`, 127.0.0.0/8, `::1`) and `allowedHosts` are answered (403 otherwise). A page
///   on a rebound name reaches the server under that name, so the name is what gives it away.
///   With tokens the token is the guard: a rebound page cannot read it.
/// - **Origin**: a request carrying an `Origin` that is neither the server's own (the same
///   host and port as `Host`) nor one CORS allows is refused with 403, preflight or not.
///
/// `openPaths` (e.g. `/health`) skip all three checks.
public struct AccessPolicy: Sendable {
    /// Accepted bearer tokens (as UTF-8 bytes); empty means no authentication.
    public var tokens: [[UInt8]]
    /// Host names (without port, lowercase) answered besides the loopback ones when there are
    /// no tokens.
    public var allowedHosts: Set<String>
    /// Path prefixes (segment-wise: "/v1" covers "/v1" and "/v1/…") that need a token.
    public var protectedPrefixes: [String]
    /// Paths answered to anyone.
    public var openPaths: Set<String>

    public init(tokens: [String] = [], allowedHosts: [String] = [], protectedPrefixes: [String] = ["/v1"],
                openPaths: [String] = ["/health"]) {
        self.tokens = tokens.map { Array($0.utf8) }
        self.allowedHosts = Set(allowedHosts.map { Self.hostName(of: $0) })
        self.protectedPrefixes = protectedPrefixes
        self.openPaths = Set(openPaths)
    }

    public var requiresToken: Bool { !tokens.isEmpty }

    /// Why a request is refused, or nil when it may proceed.
    public enum Refusal: Equatable, Sendable {
        /// No or a wrong token (401).
        case unauthorized(String)
        /// A Host or Origin not allowed (403).
        case forbidden(String)

        public var status: Int {
            switch self {
            case .unauthorized: return 401
            case .forbidden: return 403
            }
        }

        public var detail: String {
            switch self {
            case .unauthorized(let detail), .forbidden(let detail): return detail
            }
        }
    }

    /// The decision for one request head. `allowsOrigin` is the CORS policy's verdict.
    /// Messages never repeat the token sent.
    public func check(method: String, path: String, headers: HTTPHeaders,
                      allowsOrigin: (String) -> Bool) -> Refusal? {
        if openPaths.contains(path) { return nil }
        let host = headers["Host"]
        if !requiresToken, let host {
            let name = Self.hostName(of: host)
            if !Self.isLoopback(name) && !allowedHosts.contains(name) {
                return .forbidden("The host name '\(Self.printable(name))' is not one this server answers to without a token;"
                    + " use a loopback address, or start the server with --allowed-host \(Self.printable(name)) or a token.")
            }
        }
        if let origin = headers["Origin"], !isSameOrigin(origin, host: host), !allowsOrigin(origin) {
            return .forbidden("The origin '\(Self.printable(origin))' is not allowed to call this server;"
                + " start it with --cors-origin for that origin.")
        }
        if requiresToken, method != "OPTIONS", isProtected(path) {
            guard let presented = Self.bearerToken(headers["Authorization"]) else {
                return .unauthorized("This server needs a bearer token: send 'Authorization: Bearer <token>'.")
            }
            if !matches(presented) {
                return .unauthorized("The bearer token is not one this server accepts.")
            }
        }
        return nil
    }

    func isProtected(_ path: String) -> Bool {
        protectedPrefixes.contains { prefix in
            path == prefix || path.hasPrefix(prefix.hasSuffix("/") ? prefix : prefix + "/")
        }
    }

    /// Whether `presented` equals one of the tokens. Every token is compared, each in time
    /// that depends on the lengths only, so the answer's timing does not reveal how much of a
    /// guess was right or which token it was close to.
    func matches(_ presented: [UInt8]) -> Bool {
        var found = false
        for token in tokens {
            found = Self.constantTimeEqual(presented, token) || found
        }
        return found
    }

    /// Byte-wise equality whose running time depends on the lengths, not on where the first
    /// difference is: every byte of the longer operand is visited and differences are OR-ed.
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count) | (a.count == b.count ? 0 : 1)
        let length = max(a.count, b.count)
        var index = 0
        while index < length {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            difference |= x ^ y
            index += 1
        }
        return difference == 0
    }

    /// The token of `Bearer <token>` (scheme in any case, RFC 9110 §11.1), or nil.
    static func bearerToken(_ field: String?) -> [UInt8]? {
        guard let field else { return nil }
        let trimmed = field.trimmingSpaces
        guard trimmed.count > 7, trimmed.prefix(7).lowercased() == "bearer " else { return nil }
        let token = String(trimmed.dropFirst(7)).trimmingSpaces
        return token.isEmpty ? nil : Array(token.utf8)
    }

    /// `Origin` is the server's own when its host and port are those of `Host` (the viewer
    /// served by this server). Its scheme is not compared: the server does not know whether a
    /// proxy in front of it speaks HTTPS.
    func isSameOrigin(_ origin: String, host: String?) -> Bool {
        guard let host, let separator = origin.range(of: "://") else { return false }
        let authority = origin[separator.upperBound...]
        return authority.lowercased() == host.trimmingSpaces.lowercased()
    }

    /// The name of a `Host` value: without the port, brackets kept for IPv6, lowercase and
    /// without a trailing dot.
    static func hostName(of host: String) -> String {
        var value = Substring(host.trimmingSpaces.lowercased())
        if value.hasPrefix("[") {
            if let close = value.firstIndex(of: "]") { value = value[...close] }
        } else if let colon = value.lastIndex(of: ":") {
            value = value[..<colon]
        }
        if value.hasSuffix(".") { value = value.dropLast() }
        return String(value)
    }

    /// `localhost`, `*.localhost` (RFC 6761 keeps them on this machine), 127.0.0.0/8 and `[::1]`.
    static func isLoopback(_ name: String) -> Bool {
        if name == "localhost" || name.hasSuffix(".localhost") || name == "[::1]" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber)
                && (Int(part) ?? 256) < 256
        }
    }

    /// A header value as it may appear in a message: printable ASCII, at most 100 characters.
    static func printable(_ text: String) -> String {
        let shown = text.unicodeScalars.prefix(100).map { scalar in
            scalar.value >= 0x20 && scalar.value < 0x7F ? String(scalar) : "?"
        }.joined()
        return text.unicodeScalars.count > 100 ? shown + "…" : shown
    }
}

extension HTTPServer {
    /// The access policy's answer to a request head, in the configured error format and with
    /// the CORS fields (so that a page of an allowed origin can read a 401). nil lets it pass.
    func accessRejection(_ context: RequestContext) -> HTTPResponse? {
        guard let policy = configuration.accessPolicy else { return nil }
        // The path the router sees, decoded; not the log's form, which is escaped for printing.
        let path = PercentDecoding.decode(HTTPRequest.split(context.target).rawPath)
        guard let refusal = policy.check(method: context.method, path: path, headers: context.headers,
                                         allowsOrigin: { cors.allows(origin: $0) }) else { return nil }
        var response = errorResponse(refusal.status, refusal.detail)
        if case .unauthorized = refusal {
            response.headers["WWW-Authenticate"] = "Bearer realm=\"taptrace\""
        }
        cors.decorate(&response, origin: context.headers["Origin"])
        return response
    }
}

private extension StringProtocol {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
