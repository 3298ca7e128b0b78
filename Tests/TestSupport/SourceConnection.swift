import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection to a server on 127.0.0.1 from a chosen loopback address (e.g. "127.0.0.9"):
/// loopback offers all of 127.0.0.0/8, so tests can be many clients (issue 34, item 2).
public struct ConnectFailed: Error {
    public let source: String
    public let errno: Int32
}

/// A TCP connection to the server from `source` (e.g. "127.0.0.9").
public final class SourceConnection {
    public let fd: Int32

    public init(from source: String, to port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, source, &local.sin_addr)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr)
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, connected == 0 else {
            Glibc.close(fd)
            throw ConnectFailed(source: source, errno: errno)
        }
    }

    deinit { Glibc.close(fd) }

    public func send(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Everything until the server closes the connection or 5 s pass.
    public func readToEnd() -> String {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            out += buffer[..<count]
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// One complete response to GET /hello (the connection stays open).
    public func hello() -> String {
        send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: out, as: UTF8.self).hasSuffix("hello") {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            out += buffer[..<count]
        }
        return String(decoding: out, as: UTF8.self)
    }
}

