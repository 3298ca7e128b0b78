import Foundation
import TestSupport
import Testing

@testable import TapTraceHTTP

/// Connections per client address are limited, so that one client cannot hold them all
/// (issue 34, item 2). Loopback offers 127.0.0.0/8, so each test client has an address of its own.
@Suite struct ConnectionLimitTests {
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
