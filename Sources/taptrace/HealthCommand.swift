import ArgumentParser
import CGnuTLS
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `taptrace health`: asks a running server's `GET /health` and exits 0 when it answers 200.
/// The Docker image's HEALTHCHECK uses it, so the image needs no curl.
struct HealthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health",
        abstract: "Check a running taptrace serve: exit 0 when GET /health answers 200, 1 otherwise.",
        discussion: """
            Host and port default to TAPTRACE_HOST (0.0.0.0 means 127.0.0.1) and TAPTRACE_PORT, else 127.0.0.1:8080. \
            HTTPS when --tls is given or TAPTRACE_TLS_CERT is set (as for the server in the same container); the \
            server's certificate is not verified: the check only asks whether it answers.
            """
    )

    @Option(help: "Numeric IPv4 address of the server.")
    var host: String?

    @Option(help: "Port of the server.")
    var port: Int?

    @Option(help: "Seconds to wait for the answer.")
    var timeout: Int = 5

    @Flag(help: "Speak HTTPS (default: when TAPTRACE_TLS_CERT is set).")
    var tls = false

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        var address = host ?? environment["TAPTRACE_HOST"] ?? "127.0.0.1"
        if address == "0.0.0.0" || address == "localhost" { address = "127.0.0.1" }
        guard let portNumber = port ?? environment["TAPTRACE_PORT"].flatMap({ Int($0) }) ?? Optional(8080),
              (1...65535).contains(portNumber) else {
            throw ValidationError("the port must be 1…65535")
        }
        do {
            let secure = tls || !(environment["TAPTRACE_TLS_CERT"] ?? "").trimmingCharacters(in: .whitespaces).isEmpty
            let (status, body) = try Self.get(host: address, port: UInt16(portNumber), path: "/health", timeout: timeout,
                                              tls: secure)
            FileHandle.standardOutput.write(Data((body + "\n").utf8))
            if status != 200 { throw ExitCode(1) }
        } catch let failure as HealthFailure {
            FileHandle.standardError.write(Data("taptrace health: \(failure.message)\n".utf8))
            throw ExitCode(1)
        }
    }

    struct HealthFailure: Error { let message: String }

    /// One HTTP/1.0 GET over a blocking socket, in TLS when `tls`; returns the status and the body.
    static func get(host: String, port: UInt16, path: String, timeout: Int, tls: Bool = false) throws -> (Int, String) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw HealthFailure(message: "\(host) is not a numeric IPv4 address")
        }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HealthFailure(message: "socket() failed") }
        defer { close(fd) }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw HealthFailure(message: "cannot connect to \(host):\(port)") }
        let request = Array("GET \(path) HTTP/1.0\r\nHost: \(host)\r\n\r\n".utf8)
        let response = tls ? try exchangeTLS(fd, request) : try exchange(fd, request, timeout: timeout)
        let text = String(decoding: response, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        let statusLine = parts.first?.split(separator: "\r\n").first ?? ""
        let fields = statusLine.split(separator: " ")
        guard fields.count >= 2, let status = Int(fields[1]) else {
            throw HealthFailure(message: "not an HTTP answer")
        }
        return (status, parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    /// Sends `request` and reads until the server closes the connection.
    static func exchange(_ fd: Int32, _ request: [UInt8], timeout: Int) throws -> [UInt8] {
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            throw HealthFailure(message: "cannot send the request")
        }
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 { throw HealthFailure(message: "no answer within \(timeout) s") }
            if count == 0 { break }
            response += chunk[..<count]
        }
        return response
    }

    /// The same through a TLS session (GnuTLS); the answer of /health is small, 64 KiB at most.
    static func exchangeTLS(_ fd: Int32, _ request: [UInt8]) throws -> [UInt8] {
        var response = [UInt8](repeating: 0, count: 64 << 10)
        let count = request.withUnsafeBytes { sent in
            response.withUnsafeMutableBytes { received in
                taptrace_tls_exchange(fd, sent.baseAddress?.assumingMemoryBound(to: CChar.self), sent.count,
                                      received.baseAddress?.assumingMemoryBound(to: CChar.self), received.count)
            }
        }
        guard count >= 0 else {
            throw HealthFailure(message: "TLS failed: \(String(cString: taptrace_tls_error(count)))")
        }
        return Array(response[..<count])
    }
}
