/// Called once per answered request, after the response was sent (or the connection ended).
/// `method` and `path` (decoded, without query) are escaped by `LogEscaping`: whatever a client
/// sends, they hold no control or format character and no space but the ASCII one;
/// `durationSeconds` runs from the request line's arrival to completion.
public typealias HTTPRequestLogger = @Sendable (_ method: String, _ path: String, _ status: Int,
                                                _ durationSeconds: Double) -> Void

/// Builds an error response from a status code and a one-sentence detail.
public typealias HTTPErrorResponder = @Sendable (_ status: Int, _ detail: String) -> HTTPResponse

/// Everything `HTTPServer` needs to know before it starts.
public struct HTTPServerConfiguration: Sendable {
    /// Numeric IPv4 or IPv6 address to bind ("localhost" means 127.0.0.1).
    public var host: String
    /// TCP port; 0 picks a free one (read `HTTPServer.port` after `start()`).
    public var port: UInt16
    /// Worker threads: libmicrohttpd daemons, each with its own epoll loop, sharing the
    /// connections evenly (`ConnectionAcceptor`).
    public var threads: Int
    /// Idle seconds before a connection is closed (0 = never; libmicrohttpd's own default).
    public var connectionTimeoutSeconds: Int
    /// Concurrent connections served. At the limit the connection that has waited longest for
    /// a request head is closed to make room, idle keep-alive connections first
    /// (`ConnectionWatch`); only when every connection is busy do new ones wait in the listen
    /// backlog.
    public var connectionLimit: Int
    /// Seconds within which a request's whole head must arrive, counted from when the
    /// connection is ready for it (accepted, or the previous response sent), however the bytes
    /// trickle in; an idle keep-alive connection is closed after as long. nil: no deadline.
    public var requestHeadTimeoutSeconds: Double? = 20
    /// Seconds within which a request's whole body must arrive after its head. nil: no deadline.
    public var requestBodyTimeoutSeconds: Double? = 120
    /// Concurrent connections from one client address (IPv4 or IPv6, port aside); one more gets
    /// a 503 and is closed at once, so that one client cannot hold every connection.
    public var connectionsPerAddress: Int = 128
    /// Largest request body accepted; larger ones get 413 and the connection is closed.
    public var maxBodyBytes: Int
    /// Largest request line + header block accepted; larger ones get 431.
    public var maxHeaderBytes: Int
    /// Longest request target accepted; longer ones get 414.
    public var maxURILength: Int
    /// Per-connection memory pool of libmicrohttpd; nil derives it from the header and URI
    /// limits so that those limits, not the pool, decide (libmicrohttpd's default is 32 KiB).
    public var connectionMemoryLimit: Int?
    /// Origins allowed by CORS (exact match, e.g. "https://app.example"; "*" allows any).
    /// Empty disables CORS headers.
    public var corsAllowedOrigins: [String]
    /// Request headers a CORS preflight may ask for.
    public var corsAllowedHeaders: [String]
    /// `Access-Control-Max-Age` of preflight answers.
    public var corsMaxAgeSeconds: Int
    /// How long `stop()` waits for in-flight requests by default.
    public var shutdownTimeoutSeconds: Double
    /// Whether a worker thread gives up the processor (`sched_yield`) after each response it
    /// has sent, so that the client it woke, if it waits for this core, runs at once instead of
    /// at the scheduler's next tick. On Linux without kernel preemption and at 250 Hz, a worker
    /// serving back-to-back requests otherwise keeps the core up to 4 ms past its time slice,
    /// and every connection of the waiting client waits as long: that was the tail of the
    /// latency under load (docs/performance.md). When no other
    /// thread waits for the core, the call returns at once.
    public var yieldsAfterResponse: Bool
    /// Whether each worker thread is bound to a processor of its own (the first ones the
    /// process may use), when there are at least two and no fewer than workers; see
    /// `ThreadAffinity` for why. Other threads (the acceptor, the application's) float.
    public var pinsWorkerThreads: Bool
    /// Per-request log hook (see `HTTPRequestLogger`).
    public var requestLogger: HTTPRequestLogger?
    /// Receives libmicrohttpd's own diagnostic messages while running.
    public var errorLogger: (@Sendable (String) -> Void)?
    /// Builds the error responses the server produces itself (404 no route, 405 wrong method,
    /// 413 body too large, 414 target too long, 431 header too large) from the status and a
    /// sentence, so that an application can answer them in its own error format (TapTrace:
    /// RFC 9457 problem documents). nil keeps `HTTPResponse.error`. The server adds `Allow`
    /// to a 405 and the CORS fields afterwards.
    public var errorResponder: HTTPErrorResponder?
    /// Whether every request goes through the `ConnectionRelay` before libmicrohttpd reads it,
    /// so that malformed requests are answered by `errorResponder` rather than by libmicrohttpd
    /// in HTML (decision 145). It costs a socket pair and a thread crossing per request in each
    /// direction; behind a proxy that refuses malformed requests itself it may be turned off.
    /// Never with TLS, whose bytes the relay cannot read.
    public var relaysRequests = true
    /// Tokens, Host names and origins allowed (`AccessPolicy`); nil answers every request.
    public var accessPolicy: AccessPolicy? = nil
    /// Certificate and key: serves HTTPS instead of HTTP (`TLSCredentials`).
    public var tls: TLSCredentials? = nil

    public init(host: String = "127.0.0.1", port: UInt16 = 0, threads: Int = 2,
                connectionTimeoutSeconds: Int = 30, connectionLimit: Int = 256,
                maxBodyBytes: Int = 8 << 20, maxHeaderBytes: Int = 16 << 10, maxURILength: Int = 8 << 10,
                connectionMemoryLimit: Int? = nil,
                corsAllowedOrigins: [String] = [], corsAllowedHeaders: [String] = ["Content-Type"],
                corsMaxAgeSeconds: Int = 600, shutdownTimeoutSeconds: Double = 10,
                yieldsAfterResponse: Bool = true, pinsWorkerThreads: Bool = true,
                requestLogger: HTTPRequestLogger? = nil, errorLogger: (@Sendable (String) -> Void)? = nil,
                errorResponder: HTTPErrorResponder? = nil) {
        self.host = host
        self.port = port
        self.threads = threads
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.connectionLimit = connectionLimit
        self.maxBodyBytes = maxBodyBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxURILength = maxURILength
        self.connectionMemoryLimit = connectionMemoryLimit
        self.corsAllowedOrigins = corsAllowedOrigins
        self.corsAllowedHeaders = corsAllowedHeaders
        self.corsMaxAgeSeconds = corsMaxAgeSeconds
        self.shutdownTimeoutSeconds = shutdownTimeoutSeconds
        self.yieldsAfterResponse = yieldsAfterResponse
        self.pinsWorkerThreads = pinsWorkerThreads
        self.requestLogger = requestLogger
        self.errorLogger = errorLogger
        self.errorResponder = errorResponder
    }

    /// The pool size handed to MHD_OPTION_CONNECTION_MEMORY_LIMIT: the largest head allowed
    /// (request line and headers, which libmicrohttpd keeps in the pool's read buffer) plus
    /// 16 KiB for its bookkeeping and the response header, and at least libmicrohttpd's own
    /// 32 KiB; 32 KiB with the default limits. With those, a head of up to about 30 KB still
    /// gets the server's own 431 or 414; beyond, libmicrohttpd answers by itself.
    ///
    /// Why no larger: libmicrohttpd (0.9.75) zeroes the whole pool before every request on a
    /// connection and the unused part of the read buffer when it shrinks it, so the pool's
    /// size is paid on every request, in time and in cache. 64 KiB costs 96 KB of `memset` per
    /// request, 32 KiB costs 48 KB (decision 56; the time saved is a few per cent at best,
    /// docs/performance.md).
    var effectiveConnectionMemoryLimit: Int {
        if let connectionMemoryLimit { return connectionMemoryLimit }
        return max(32 << 10, max(maxHeaderBytes, maxURILength) + (16 << 10))
    }
}
