/// Errors thrown by `HTTPServer.start()`.
public enum HTTPServerError: Error, Equatable, CustomStringConvertible {
    /// `host` is not a numeric IPv4/IPv6 address (or "localhost").
    case invalidHost(String)
    /// `start()` was called on a server that is already running.
    case alreadyRunning
    /// The address could not be bound (e.g. the port is in use; `reason` is the system's
    /// message) or libmicrohttpd refused to start (`reason` carries its own messages).
    case startFailed(address: String, reason: String)

    public var description: String {
        switch self {
        case .invalidHost(let host):
            return "invalid host '\(host)': expected a numeric IPv4 or IPv6 address"
        case .alreadyRunning:
            return "the HTTP server is already running"
        case .startFailed(let address, let reason):
            return "could not start the HTTP server on \(address): \(reason)"
        }
    }
}
