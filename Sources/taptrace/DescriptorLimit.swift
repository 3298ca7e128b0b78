#if canImport(Glibc)
import Glibc
#endif

/// The open-file limit of `taptrace serve`, raised to what the system allows (decision 146).
///
/// Each connection takes three descriptors with the request relay (the client's socket and a
/// socket pair, decision 145), and the soft limit is often 1,024 (systemd's default for
/// services) while the hard limit is far higher: a limit that held 1,000 connections before
/// would hold about 330. A process may raise its soft limit up to the hard one by itself, as
/// nginx (`worker_rlimit_nofile`) and Go's runtime do; `serve` does so at start, and warns when
/// even the hard limit is short of what the connection limit needs.
enum DescriptorLimit {
    /// Descriptors a connection takes: its socket, and the relay's socket pair.
    static let perConnection = 3
    /// Descriptors for everything else: the database, the log, epoll sets, libmicrohttpd's
    /// signalling pipes, the listening socket, some slack.
    static let reserve = 64

    /// Raises the soft limit to the hard one; the soft limit now in force (nil when unknown).
    @discardableResult
    static func raise() -> UInt64? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { return UInt64(raised.rlim_cur) }
        }
        return UInt64(limit.rlim_cur)
    }

    /// The warning for a limit of `available` descriptors and `connections` allowed at once, or
    /// nil when they fit.
    static func warning(available: UInt64, connections: Int, relayed: Bool) -> String? {
        let needed = UInt64(connections * (relayed ? perConnection : 1) + reserve)
        guard available < needed else { return nil }
        return "warning: the open-file limit (\(available)) is below the \(needed) descriptors that \(connections) connections"
            + " need\(relayed ? " (three each with the request relay)" : ""); raise it (ulimit -n, LimitNOFILE=) or lower --connection-limit"
    }
}
