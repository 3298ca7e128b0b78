import Foundation

/// A self-signed certificate for 127.0.0.1 and localhost, made with `openssl` in a temporary
/// directory, for the HTTPS tests; and `curl` to talk to a server that uses it.
public struct TestCertificate {
    public struct Failure: Error, CustomStringConvertible { public let description: String }

    public let directory: TemporaryDirectory
    public var certificatePath: String { directory.url.appendingPathComponent("cert.pem").path }
    public var keyPath: String { directory.url.appendingPathComponent("key.pem").path }

    /// Runs `openssl req -x509` (an EC P-256 key, valid for a day).
    public init() throws {
        directory = try TemporaryDirectory()
        let result = try runTool("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                                             "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                                             "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
                                             "-keyout", keyPath, "-out", certificatePath])
        guard result.status == 0 else {
            throw Failure(description: "openssl could not make a certificate (status \(result.status)): \(result.output)")
        }
    }

    public func remove() { directory.remove() }

    /// `curl` over HTTPS trusting only this certificate: the status code and the body.
    public func curl(_ url: String, headers: [String] = []) throws -> (status: Int, body: String, exitStatus: Int32) {
        let bodyPath = directory.url.appendingPathComponent("body-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: bodyPath) }
        let result = try runTool("curl", ["-sS", "--max-time", "20", "--cacert", certificatePath, "-o", bodyPath,
                                          "-w", "%{http_code}"] + headers.flatMap { ["-H", $0] } + [url])
        let body = (try? String(contentsOfFile: bodyPath, encoding: .utf8)) ?? ""
        let status = Int(result.output.suffix(3)) ?? 0
        return (status, body, result.status)
    }
}

/// Runs a tool found on the PATH; returns its exit status and standard output and error together.
public func runTool(_ name: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [name] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
