#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A numeric IPv4 or IPv6 address and port, in `sockaddr` form for `bind`.
enum SocketAddress {
    case v4(sockaddr_in)
    case v6(sockaddr_in6)

    init(host: String, port: UInt16) throws {
        let host = host == "localhost" ? "127.0.0.1" : host
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            self = .v4(v4)
            return
        }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, bare, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            self = .v6(v6)
            return
        }
        throw HTTPServerError.invalidHost(host)
    }

    var isIPv6: Bool {
        if case .v6 = self { return true }
        return false
    }

    /// The size of the `sockaddr` `withSockAddr` passes.
    var length: socklen_t {
        switch self {
        case .v4: return socklen_t(MemoryLayout<sockaddr_in>.size)
        case .v6: return socklen_t(MemoryLayout<sockaddr_in6>.size)
        }
    }

    /// Calls `body` with a pointer valid only during the call.
    func withSockAddr<Result>(_ body: (UnsafePointer<sockaddr>) throws -> Result) rethrows -> Result {
        switch self {
        case .v4(var address):
            return try withUnsafePointer(to: &address) {
                try $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
            }
        case .v6(var address):
            return try withUnsafePointer(to: &address) {
                try $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
            }
        }
    }
}
