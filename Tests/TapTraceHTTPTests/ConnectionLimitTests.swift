import Foundation
import TestSupport
import Testing

@testable import TapTraceHTTP

/// Connections per client address are limited, so that one client cannot hold them all
/// (issue 34, item 2). Loopback offers 127.0.0.0/8, so each test client has an address of its own.
@Suite struct ConnectionLimitTests {
    struct ConnectFailed: Error {
        let source: String
        let errno: Int32
    }

    /// A TCP connection to the server from `source` (e.g. "127.0.0.9").
    final class SourceConnection {
        let fd: Int32

        init(from source: String, to port: UInt16) throws {
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

        func send(_ text: String) {
            _ = Array(text.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        /// Everything until the server closes the connection or 5 s pass.
        func readToEnd() -> String {
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
        func hello() -> String {
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

    @Test func oneAddressGetsAtMostItsShare() throws {
        let configuration = testConfiguration { $0.connectionsPerAddress = 4; $0.connectionLimit = 64 }
        try withServer(configuration) { server in
            let held = try (0..<4).map { _ in try SourceConnection(from: "127.0.0.21", to: server.port) }
            for connection in held { #expect(connection.hello().hasPrefix("HTTP/1.1 200")) }
            // The fifth from the same address: a 503 naming the limit, then closed.
            let refused = try SourceConnection(from: "127.0.0.21", to: server.port).readToEnd()
            #expect(refused.hasPrefix("HTTP/1.1 503"), "\(refused)")
            #expect(refused.contains("Connection: close"))
            #expect(refused.contains("already has 4 connections open"))
            // Other addresses are served meanwhile.
            for last in 22...27 {
                #expect(try SourceConnection(from: "127.0.0.\(last)", to: server.port).hello().hasPrefix("HTTP/1.1 200"))
            }
            // A connection closed makes room again.
            _ = held.first.map { Glibc.shutdown($0.fd, Int32(SHUT_RDWR)) }
            #expect(eventually { server.openConnections(from: [127, 0, 0, 21]) == 3 })
            #expect(try SourceConnection(from: "127.0.0.21", to: server.port).hello().hasPrefix("HTTP/1.1 200"))
            withExtendedLifetime(held) {}
        }
    }

    @Test func closedConnectionsAreCountedOut() throws {
        let configuration = testConfiguration { $0.connectionsPerAddress = 2 }
        try withServer(configuration) { server in
            // Far more connections in turn than the limit: each is counted out when it closes.
            for _ in 0..<20 {
                let connection = try SourceConnection(from: "127.0.0.31", to: server.port)
                #expect(connection.hello().hasPrefix("HTTP/1.1 200"))
                Glibc.shutdown(connection.fd, Int32(SHUT_RDWR))
                #expect(eventually { server.openConnections(from: [127, 0, 0, 31]) == 0 })
            }
        }
    }
}
