import ArgumentParser
import Foundation
import TapTraceHTTP

/// `serve`'s authentication, Host, and TLS settings (issue 34, items 7 and 8). Each flag has an
/// environment variable used when the flag is absent, as the Docker image is configured.
struct AccessOptions: ParsableArguments {
    @Option(name: .customLong("auth-token-file"),
            help: "File of bearer tokens, one a line (surrounding whitespace and blank lines ignored); every /v1 request must send one as 'Authorization: Bearer <token>'. Env TAPTRACE_AUTH_TOKEN_FILE; TAPTRACE_AUTH_TOKENS gives them comma-separated instead.")
    var authTokenFile: String?

    @Option(name: .customLong("allowed-host"),
            help: "A Host name answered without a token besides the loopback ones (repeatable). Env TAPTRACE_ALLOWED_HOSTS, comma-separated.")
    var allowedHosts: [String] = []

    @Flag(name: .customLong("allow-unauthenticated"),
          help: "Listen on a non-loopback address without a token (anyone who reaches the port may use the API). Env TAPTRACE_ALLOW_UNAUTHENTICATED=1.")
    var allowUnauthenticated = false

    @Option(name: .customLong("tls-cert"), help: "PEM certificate (chain) to serve HTTPS with; needs --tls-key. Env TAPTRACE_TLS_CERT.")
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: "PEM private key of --tls-cert. Env TAPTRACE_TLS_KEY.")
    var tlsKey: String?

    /// The settings resolved for a server that listens on `host`.
    struct Resolved {
        var policy: AccessPolicy
        var tls: TLSCredentials?
        var scheme: String { tls == nil ? "http" : "https" }

        /// Sets the policy and TLS, and lets browsers send `Authorization` cross-origin.
        func apply(to configuration: inout HTTPServerConfiguration) {
            configuration.accessPolicy = policy
            configuration.tls = tls
            if policy.requiresToken && !configuration.corsAllowedHeaders.contains("Authorization") {
                configuration.corsAllowedHeaders.append("Authorization")
            }
        }
    }

    /// Reads the tokens and TLS files and applies the protected mode: without a token, a
    /// non-loopback `host` is refused unless `--allow-unauthenticated`.
    func resolved(host: String, environment: [String: String]) throws -> Resolved {
        func env(_ name: String) -> String? { SettingSource.variable(name, in: environment) }
        var tokens: [String] = []
        if let file = authTokenFile ?? env("TAPTRACE_AUTH_TOKEN_FILE") {
            let text: String
            do {
                text = try String(contentsOfFile: file, encoding: .utf8)
            } catch {
                throw ValidationError("cannot read the token file \(file): \(error.localizedDescription)")
            }
            tokens = Self.tokens(fromFile: text)
            guard !tokens.isEmpty else { throw ValidationError("the token file \(file) holds no token") }
        } else if let list = env("TAPTRACE_AUTH_TOKENS") {
            tokens = Self.tokens(fromList: list)
        }
        try Self.validate(tokens)

        let hosts = !allowedHosts.isEmpty ? allowedHosts
            : (env("TAPTRACE_ALLOWED_HOSTS") ?? "").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for name in hosts where name.contains(where: { $0 == "/" || $0 == " " || $0 == "," }) {
            throw ValidationError("--allowed-host takes a host name such as 'tap.example', not '\(name)'")
        }

        var unauthenticated = allowUnauthenticated
        if !unauthenticated, let text = env("TAPTRACE_ALLOW_UNAUTHENTICATED") {
            guard let value = Settings.boolean(text) else {
                throw ValidationError("TAPTRACE_ALLOW_UNAUTHENTICATED must be 1 or 0 (true/false, yes/no, on/off), not \(text)")
            }
            unauthenticated = value
        }
        if tokens.isEmpty && !unauthenticated && !Self.isLoopbackAddress(host) {
            // A refusal to start, not a usage mistake: exit 1 with the reason, like a port in use.
            throw ServeFailure("""
                refusing to listen on \(host) without authentication: anyone who can reach the port could \
                read and change every scene. Give tokens with --auth-token-file (or TAPTRACE_AUTH_TOKEN_FILE, \
                TAPTRACE_AUTH_TOKENS), listen on 127.0.0.1, or pass --allow-unauthenticated \
                (TAPTRACE_ALLOW_UNAUTHENTICATED=1) when something in front of the server guards it.
                """)
        }

        let certificate = tlsCertificate ?? env("TAPTRACE_TLS_CERT")
        let key = tlsKey ?? env("TAPTRACE_TLS_KEY")
        var tls: TLSCredentials?
        switch (certificate, key) {
        case (nil, nil): tls = nil
        case (let certificate?, let key?):
            do {
                tls = try TLSCredentials(certificateFile: certificate, keyFile: key)
            } catch {
                throw ValidationError("\(error)")
            }
        case (nil, _): throw ValidationError("--tls-key needs --tls-cert (TAPTRACE_TLS_CERT) as well")
        case (_, nil): throw ValidationError("--tls-cert needs --tls-key (TAPTRACE_TLS_KEY) as well")
        }
        return Resolved(policy: AccessPolicy(tokens: tokens, allowedHosts: hosts), tls: tls)
    }

    /// One token a line; whitespace around it and blank lines are ignored (a file written by
    /// `echo` or an editor ends with a newline; a secret store may add one).
    static func tokens(fromFile text: String) -> [String] {
        text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Comma-separated; whitespace around each and empty items are ignored.
    static func tokens(fromList text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// A token must be sendable in an `Authorization` field: visible ASCII without spaces or
    /// commas. The message never shows the token itself.
    static func validate(_ tokens: [String]) throws {
        for (index, token) in tokens.enumerated() {
            let ok = token.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F && $0 != "," }
            guard ok else {
                throw ValidationError("token \(index + 1) holds a character other than visible ASCII (or a comma); tokens must be sendable as 'Authorization: Bearer <token>'")
            }
        }
    }

    /// 127.0.0.0/8, ::1 and "localhost": the addresses only this machine can reach.
    static func isLoopbackAddress(_ host: String) -> Bool {
        let trimmed = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if trimmed == "localhost" || trimmed == "::1" { return true }
        let parts = trimmed.split(separator: ".")
        return parts.count == 4 && parts[0] == "127"
    }
}
