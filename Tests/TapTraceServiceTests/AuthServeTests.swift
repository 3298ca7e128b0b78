#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing

/// `taptrace serve` with tokens, Host and Origin checks, the protected mode and TLS
/// (issue 34, items 7 and 8).
@Suite struct AuthServeTests {
    /// A token file with surrounding whitespace, blank lines and CRLF line ends.
    static let tokenFile = "\n  first-token-1234  \r\n\n\tsecond-token-5678\t\n\n"

    func withTokenServer<T>(extraArguments: [String] = [], _ body: (ServerProcess) throws -> T) throws -> T {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("tokens").path
        try Self.tokenFile.write(toFile: file, atomically: true, encoding: .utf8)
        let server = try ServerProcess(database: directory.databasePath,
                                       extraArguments: ["--auth-token-file", file] + extraArguments)
        defer { server.stop() }
        return try body(server)
    }

    /// One request written as is (the test client always adds `Host: 127.0.0.1`).
    func raw(_ port: UInt16, _ head: String, body: String = "") throws -> RawHTTPClient.Response {
        let client = try RawHTTPClient(port: port)
        defer { client.close() }
        try client.send(head.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n" + body)
        return try client.readResponse()
    }

    @Test func everyV1RouteNeedsATokenFromTheFile() throws {
        try withTokenServer { server in
            let missing = try server.client().call("GET", "/v1/scenes")
            let problem = try missing.problem(401)
            #expect((problem["detail"] as? String)?.contains("Authorization: Bearer") == true)
            #expect(missing.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            try server.client().call("GET", "/v1/scenes", headers: [("Authorization", "Bearer first-token-12345")]).problem(401)
            try server.client().call("POST", "/v1/scenes", body: try Fixtures.checkoutScene()).problem(401)
            for token in ["first-token-1234", "second-token-5678"] {
                #expect(try server.client().call("GET", "/v1/scenes", headers: [("Authorization", "Bearer \(token)")]).status == 200)
            }
            // Blank lines are not tokens: "Bearer" with nothing after it is refused.
            try server.client().call("GET", "/v1/scenes", headers: [("Authorization", "Bearer ")]).problem(401)
            // Open: health for orchestration, and the viewer, which must load to ask for the token.
            #expect(try server.client().call("GET", "/health").status == 200)
            #expect(try server.client().call("GET", "/").status == 200)
            #expect(try server.client().call("GET", "/openapi.yaml").status == 200)
        }
    }

    @Test func tokensFromTheEnvironmentAreCommaSeparated() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try ServerProcess(database: directory.databasePath,
                                       environment: ["TAPTRACE_AUTH_TOKENS": " env-token-a , ,env-token-b "])
        defer { server.stop() }
        try server.client().call("GET", "/v1/scenes").problem(401)
        #expect(try server.client().call("GET", "/v1/scenes", headers: [("Authorization", "Bearer env-token-b")]).status == 200)
        #expect(try server.client().call("GET", "/v1/scenes", headers: [("Authorization", "Bearer env-token-a")]).status == 200)
        try server.client().call("GET", "/v1/scenes", headers: [("Authorization", "Bearer env-token-a , ,env-token-b")]).problem(401)
    }

    @Test func tokensNeverAppearInTheLog() throws {
        let log = try withTokenServer { server -> String in
            _ = try server.client().call("GET", "/v1/scenes", headers: [("Authorization", "Bearer first-token-1234")])
            _ = try server.client().call("GET", "/v1/scenes", headers: [("Authorization", "Bearer wrong-guess-999")])
            _ = try server.client().call("GET", "/v1/scenes?token=query-token-777")
            server.stop()
            return server.stderr
        }
        #expect(log.contains("GET /v1/scenes 200 "))
        #expect(log.contains("GET /v1/scenes 401 "))
        for secret in ["first-token-1234", "second-token-5678", "wrong-guess-999", "query-token-777"] {
            #expect(!log.contains(secret), "\(secret) in the log: \(log)")
        }
    }

    @Test func dnsRebindingIsRefusedWithoutAToken() throws {
        try withServer(extraArguments: ["--allowed-host", "tap.example"]) { server in
            let rebound = try raw(server.port, "GET /v1/scenes HTTP/1.1\nHost: evil.example\n")
            #expect(rebound.status == 403)
            #expect(rebound.header("Content-Type") == "application/problem+json")
            #expect(rebound.bodyText.contains("--allowed-host"))
            for host in ["localhost:\(server.port)", "127.0.0.1", "[::1]:\(server.port)", "tap.example:8080"] {
                #expect(try raw(server.port, "GET /v1/scenes HTTP/1.1\nHost: \(host)\n").status == 200, "\(host)")
            }
            // Health answers whatever the name, for probes that use the container's address.
            #expect(try raw(server.port, "GET /health HTTP/1.1\nHost: 10.1.2.3:8080\n").status == 200)
        }
    }

    @Test func aCrossSiteTextPlainImportStoresNothing() throws {
        try withServer { server in
            let document = String(decoding: try Paths.example("checkout.scene.json"), as: UTF8.self)
            let crossSite = try server.client().call("POST", "/v1/import?store=true", body: Array(document.utf8), headers: [
                ("Origin", "https://evil.example"), ("Content-Type", "text/plain")])
            try crossSite.problem(403)
            let list = try server.client().call("GET", "/v1/scenes").object()
            #expect((list["items"] as? [Any])?.isEmpty == true, "\(list)")
        }
    }

    @Test func protectedModeRefusesANonLoopbackAddressWithoutAToken() throws {
        func start(_ arguments: [String], _ environment: [String: String] = [:]) throws -> (status: Int32, errors: String) {
            try refusedServe(arguments: arguments, environment: environment)
        }
        for (arguments, environment) in [(["--host", "0.0.0.0"], [:]), ([], ["TAPTRACE_HOST": "::"]),
                                         (["--host", "192.0.2.1"], ["TAPTRACE_ALLOW_UNAUTHENTICATED": "0"])] {
            let refused = try start(arguments, environment)
            #expect(refused.status == 1, "\(arguments) \(environment)")
            #expect(refused.errors.contains("refusing to listen"), "\(refused.errors)")
            #expect(refused.errors.contains("--allow-unauthenticated"), "\(refused.errors)")
        }
        let half = try start(["--tls-cert", "/nonexistent.pem"])
        #expect(half.status != 0)
        #expect(half.errors.contains("--tls-key"), "\(half.errors)")
    }

    @Test func aTokenOrTheFlagLetsItListenOnEveryInterface() throws {
        try withTokenServer(extraArguments: ["--host", "0.0.0.0"]) { server in
            #expect(server.listeningLine.contains("http://0.0.0.0:"))
            let response = try raw(server.port, "GET /v1/scenes HTTP/1.1\nHost: tap.example\nAuthorization: Bearer second-token-5678\n")
            #expect(response.status == 200)
        }
        try withServer(extraArguments: ["--host", "0.0.0.0", "--allow-unauthenticated"]) { server in
            let response = try server.client().call("GET", "/v1/scenes")
            #expect(response.status == 200)
        }
    }

    @Test func servesHTTPSWithTLSCertAndKey() throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        let process = Process()
        process.executableURL = try ServerProcess.binary()
        process.arguments = ["serve", "--port", "0", "--db", ":memory:", "--tls-cert", certificate.certificatePath,
                             "--tls-key", certificate.keyPath, "--auth-token-file", certificate.certificatePath + ".tokens"]
        try "tls-token-42\n".write(toFile: certificate.certificatePath + ".tokens", atomically: true, encoding: .utf8)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        defer {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        let (text, listened) = ServerProcess.listeningLine(output.fileHandleForReading)
        #expect(text.contains("https://127.0.0.1:"), "\(text)")
        let base = "https://127.0.0.1:\(try #require(listened, "\(text)"))"
        let health = try certificate.curl(base + "/health")
        #expect(health.status == 200, "curl exit \(health.exitStatus)")
        #expect(health.body.contains("\"status\":\"ok\""))
        #expect(try certificate.curl(base + "/v1/scenes").status == 401)
        let scenes = try certificate.curl(base + "/v1/scenes", headers: ["Authorization: Bearer tls-token-42"])
        #expect(scenes.status == 200)
        #expect(scenes.body.contains("\"items\""))

        // `taptrace health` (the image's HEALTHCHECK) speaks HTTPS when the server's certificate
        // is configured in its environment, or with --tls; plain HTTP gets no answer it reads.
        let port = String(base.split(separator: ":").last!)
        func runHealth(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
            let check = Process()
            check.executableURL = try ServerProcess.binary()
            check.arguments = ["health", "--port", port, "--timeout", "5"] + arguments
            check.environment = environment
            let out = Pipe()
            check.standardOutput = out
            check.standardError = Pipe()
            try check.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            check.waitUntilExit()
            return (check.terminationStatus, String(decoding: data, as: UTF8.self))
        }
        let byVariable = try runHealth([], environment: ["TAPTRACE_TLS_CERT": certificate.certificatePath])
        #expect(byVariable.status == 0)
        #expect(byVariable.output.contains("\"status\":\"ok\""))
        #expect(try runHealth(["--tls"]).status == 0)
        #expect(try runHealth([]).status == 1)
    }
}
