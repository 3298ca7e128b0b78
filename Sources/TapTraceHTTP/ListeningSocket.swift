#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bound, listening TCP socket: what libmicrohttpd would otherwise open itself
/// (SO_REUSEADDR, IPv6-only for an IPv6 address, the system's largest backlog), opened by us
/// so that `ConnectionAcceptor` decides which worker serves each connection.
struct ListeningSocket: ~Copyable {
    let descriptor: Int32
    /// The port actually bound (the one the system picked when asked for port 0).
    let port: UInt16

    /// Binds and listens; throws a sentence from the system (e.g. "Address already in use").
    init(address: SocketAddress) throws(ListeningSocketError) {
        let family = address.isIPv6 ? AF_INET6 : AF_INET
        #if os(Linux)
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let descriptor = socket(family, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw ListeningSocketError(operation: "socket", code: errno) }
        var on: Int32 = 1
        let size = socklen_t(MemoryLayout<Int32>.size)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, size)
        if address.isIPv6 { _ = setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, size) }
        let bound = address.withSockAddr { bind(descriptor, $0, address.length) }
        guard bound == 0, listen(descriptor, SOMAXCONN) == 0 else {
            let error = ListeningSocketError(operation: bound == 0 ? "listen" : "bind", code: errno)
            _ = close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.port = Self.boundPort(descriptor)
    }

    /// Wakes a thread blocked in `accept` on this socket (it then fails with EINVAL on Linux)
    /// and refuses new connections from then on.
    func shutDown() {
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
    }

    deinit {
        _ = close(descriptor)
    }

    private static func boundPort(_ descriptor: Int32) -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let found = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard found == 0 else { return 0 }
        let family = Int32(storage.ss_family)
        return withUnsafePointer(to: &storage) { pointer in
            if family == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }
}

/// A system call of `ListeningSocket` failed; `description` is the system's sentence.
struct ListeningSocketError: Error, CustomStringConvertible {
    let operation: String
    let code: Int32

    var description: String { "\(operation): \(String(cString: strerror(code)))" }
}
