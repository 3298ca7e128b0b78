import CMicroHTTPD
import Foundation

/// An HTTP/1.1 server on libmicrohttpd: one thread accepts connections and hands each to the
/// least-busy of `threads` libmicrohttpd daemons (`ConnectionAcceptor`), each with its own
/// epoll thread that reads requests (bodies up to `maxBodyBytes`) and calls the router's
/// handlers.
///
/// `start()` binds and returns; `stop()` stops accepting, lets in-flight requests finish and
/// shuts the daemon down. A running server keeps itself alive until `stop()`.
///
///     let router = Router()
///     router.get("/scenes/{id}") { request, parameters in
///         .json("{\"id\":\"\(parameters["id"]!)\"}")
///     }
///     var configuration = HTTPServerConfiguration(port: 8080)
///     configuration.requestLogger = { method, path, status, seconds in
///         FileHandle.standardError.write(Data("\(method) \(path) \(status) \(seconds)s\n".utf8))
///     }
///     let server = HTTPServer(configuration: configuration, router: router)
///     let shutdown = ShutdownSignal()
///     try server.start()
///     shutdown.wait()
///     server.stop()
public final class HTTPServer: Sendable {
    public let configuration: HTTPServerConfiguration
    public let router: Router

    let cors: CORSPolicy
    /// Deadlines, shedding at the connection limit, and clients that hang up.
    let watch: ConnectionWatch
    /// Whether connections go through the `ConnectionRelay` (`relaysRequests`, never with TLS).
    var relaysConnections: Bool { configuration.relaysRequests && configuration.tls == nil }
    /// The secret that marks the relay's stand-ins for refused requests (`RelayRefusal`).
    let refusalNonce = RelayRefusal.makeNonce()

    private struct State {
        /// One libmicrohttpd daemon per worker thread.
        var daemons: [OpaquePointer] = []
        var acceptor: ConnectionAcceptor?
        var relay: ConnectionRelay?
        var retained: Unmanaged<HTTPServer>?
        var port: UInt16 = 0
        var starting = false
        var stopping = false
        var inFlight = 0
        /// Connections suspended for a deferred response and not yet picked up again by
        /// their libmicrohttpd thread: libmicrohttpd must not be stopped while there are any.
        var suspended = 0
        /// Requests answered with a deferred response that have not ended yet.
        var deferredUnfinished = 0
        /// libmicrohttpd's messages collected while `start()` runs.
        var startMessages: [String] = []
    }

    private let state = Locked(State())

    public init(configuration: HTTPServerConfiguration = HTTPServerConfiguration(), router: Router) {
        self.configuration = configuration
        self.router = router
        self.cors = CORSPolicy(allowedOrigins: configuration.corsAllowedOrigins,
                               allowedHeaders: configuration.corsAllowedHeaders,
                               maxAgeSeconds: configuration.corsMaxAgeSeconds)
        func duration(_ seconds: Double?) -> Duration? { seconds.map { .milliseconds(Int64(max(0, $0) * 1000)) } }
        self.watch = ConnectionWatch(headTimeout: duration(configuration.requestHeadTimeoutSeconds),
                                     bodyTimeout: duration(configuration.requestBodyTimeoutSeconds))
    }

    /// The port actually bound (useful with port 0), or 0 when not running.
    public var port: UInt16 { state.withLock { $0.port } }

    public var isRunning: Bool { state.withLock { !$0.daemons.isEmpty } }

    /// Open connections per worker thread (empty when not running).
    var openConnectionsPerWorker: [Int] { state.withLock { $0.acceptor }?.openConnections ?? [] }

    /// Connections the relay serves (0 when not running, or with TLS).
    var openRelayLinks: Int { state.withLock { $0.relay }?.openLinks ?? 0 }

    /// Open connections from one client address (its IPv4 or IPv6 bytes); 0 when not running.
    func openConnections(from address: [UInt8]) -> Int {
        state.withLock { $0.acceptor }?.openConnections(from: address) ?? 0
    }

    /// Requests whose request line has arrived and whose response is not yet completely sent.
    public var inFlightRequests: Int { state.withLock { $0.inFlight } }

    /// Binds and starts serving. Throws `HTTPServerError` when the host is not numeric, the
    /// server already runs, the address cannot be bound (e.g. the port is in use) or libmicrohttpd
    /// cannot start.
    public func start() throws {
        try state.withLock { state in
            guard state.daemons.isEmpty, !state.starting else { throw HTTPServerError.alreadyRunning }
            state.starting = true
            state.stopping = false
            state.startMessages = []
        }
        defer { state.withLock { $0.starting = false } }

        let config = configuration
        try checkTLSSupport()
        let address = try SocketAddress(host: config.host, port: config.port)
        let listener: ListeningSocket
        do {
            listener = try ListeningSocket(address: address)
        } catch {
            throw HTTPServerError.startFailed(address: Self.display(host: config.host, port: config.port),
                                              reason: error.description)
        }
        let workers = max(1, config.threads)
        let processors = config.pinsWorkerThreads
            ? ThreadAffinity.assignment(workers: workers, allowed: ThreadAffinity.allowedProcessors()) : nil
        // Every connection goes through the relay (decision 145) unless it is turned off; with
        // TLS the bytes are encrypted and libmicrohttpd reads the client's socket itself.
        var relay: ConnectionRelay?
        if relaysConnections {
            do {
                relay = try ConnectionRelay(limits: RequestStreamCheck.Limits(maxHeaderBytes: config.maxHeaderBytes,
                                                                              maxURILength: config.maxURILength,
                                                                              maxBodyBytes: config.maxBodyBytes),
                                            nonce: refusalNonce) { [weak self] message in self?.log(message: message) }
            } catch let failure as ConnectionRelay.StartFailure {
                throw HTTPServerError.startFailed(address: Self.display(host: config.host, port: config.port),
                                                  reason: "the connection relay could not start: \(failure.reason)")
            }
        }
        let acceptor = ConnectionAcceptor(listener: listener, workers: workers, connectionLimit: config.connectionLimit,
                                          perAddressLimit: config.connectionsPerAddress, watch: watch, relay: relay,
                                          refusal: perAddressRefusal(), processors: processors) { [weak self] message in
            self?.log(message: message)
        }
        let retained = Unmanaged.passRetained(self)
        // One daemon per worker thread, each with its own epoll loop; the acceptor hands each
        // connection to one of them (MHD_add_connection).
        var daemons: [OpaquePointer] = []
        for worker in acceptor.workers {
            guard let daemon = startDaemon(context: retained.toOpaque(), worker: worker) else {
                daemons.forEach { MHD_stop_daemon($0) }
                acceptor.stop()
                retained.release()
                let messages = state.withLock { $0.startMessages }
                let reason = messages.isEmpty ? "libmicrohttpd could not start the daemon" : messages.joined(separator: "; ")
                throw HTTPServerError.startFailed(address: Self.display(host: config.host, port: config.port), reason: reason)
            }
            daemons.append(daemon)
        }
        watch.start()
        relay?.start()
        acceptor.start(daemons: daemons)
        state.withLock { state in
            state.daemons = daemons
            state.acceptor = acceptor
            state.relay = relay
            state.retained = retained
            state.port = acceptor.port
        }
    }

    /// The whole 503 answer (head and body) to a connection over `connectionsPerAddress`,
    /// written by the acceptor before it closes the connection.
    private func perAddressRefusal() -> [UInt8] {
        let limit = configuration.connectionsPerAddress
        let response = errorResponse(503, "this client address already has \(limit) connections open, the most "
            + "allowed (connectionsPerAddress, `taptrace serve --connections-per-address`); close one and retry")
        var head = "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\n"
        for field in response.headers where !HTTPHeaders.sameName(field.name, "Content-Length") {
            head += "\(field.name): \(field.value)\r\n"
        }
        head += "Content-Length: \(response.body.count)\r\n\r\n"
        return Array(head.utf8) + response.body
    }

    /// The processor each worker thread is bound to, in worker order, or nil when they are not
    /// bound (`pinsWorkerThreads` off, or not running, or too few processors).
    public var workerProcessors: [Int]? {
        guard let workers = state.withLock({ $0.acceptor })?.workers else { return nil }
        let processors = workers.compactMap(\.processor)
        return processors.count == workers.count ? processors : nil
    }

    /// A libmicrohttpd daemon with one internal epoll thread and no listening socket of its
    /// own, or nil (its messages are in `startMessages`).
    private func startDaemon(context: UnsafeMutableRawPointer, worker: ConnectionAcceptor.Worker) -> OpaquePointer? {
        let config = configuration
        let flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_NO_LISTEN_SOCKET.rawValue | tlsFlags
        let logger: MHD_LogCallback = mhdLog
        let uriLogger: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?)
            -> UnsafeMutableRawPointer? = mhdRequestBegan
        let completed: MHD_RequestCompletedCallback = mhdRequestCompleted
        let notified: MHD_NotifyConnectionCallback = mhdConnectionNotified
        // Options come in pairs (or triples); each value must have the C type the option
        // reads with va_arg: unsigned int, size_t or a pointer. The connection limit is the
        // acceptor's (all workers together); a daemon never refuses one on its own.
        let options: [any CVarArg] = [
            MHD_OPTION.EXTERNAL_LOGGER.rawValue, cFunction(logger), OpaquePointer(context),
            MHD_OPTION.CONNECTION_TIMEOUT.rawValue, CUnsignedInt(clamping: max(0, config.connectionTimeoutSeconds)),
            MHD_OPTION.CONNECTION_LIMIT.rawValue, CUnsignedInt(clamping: max(1, config.connectionLimit)),
            MHD_OPTION.CONNECTION_MEMORY_LIMIT.rawValue, Int(config.effectiveConnectionMemoryLimit),
            MHD_OPTION.URI_LOG_CALLBACK.rawValue, cFunction(uriLogger), OpaquePointer(context),
            MHD_OPTION.NOTIFY_COMPLETED.rawValue, cFunction(completed), OpaquePointer(context),
            MHD_OPTION.NOTIFY_CONNECTION.rawValue, cFunction(notified),
            OpaquePointer(Unmanaged.passUnretained(worker).toOpaque()),
        ] + tlsOptions + [MHD_OPTION.END.rawValue]
        return withVaList(options) { arguments in
            MHD_start_daemon_va(flags, 0, nil, nil, mhdAccessHandler, context, arguments)
        }
    }

    /// Stops accepting connections, waits up to `timeout` seconds (default
    /// `shutdownTimeoutSeconds`) for in-flight requests to finish, then stops the daemon,
    /// closing idle keep-alive connections. Returns false when the wait timed out and requests
    /// were cut off. Blocks the calling thread; a no-op when not running.
    @discardableResult
    public func stop(timeout: Double? = nil) -> Bool {
        let taken: ([OpaquePointer], ConnectionAcceptor?, ConnectionRelay?, Unmanaged<HTTPServer>?)? = state.withLock { state in
            guard !state.daemons.isEmpty, !state.stopping else { return nil }
            state.stopping = true
            return (state.daemons, state.acceptor, state.relay, state.retained)
        }
        guard let (daemons, acceptor, relay, retained) = taken else { return true }

        acceptor?.stop()
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, timeout ?? configuration.shutdownTimeoutSeconds) * 1000))
        var drained = false
        while true {
            if state.withLock({ $0.inFlight }) == 0 { drained = true; break }
            if ContinuousClock.now >= deadline { break }
            usleep(2_000)
        }
        // Stopping the daemon with a suspended connection is undefined behaviour
        // (libmicrohttpd): deferred responses are always waited for, past the timeout too,
        // until their threads have picked them up; then they get a moment to be sent.
        var waitedForDeferred = false
        while state.withLock({ $0.suspended }) > 0 {
            if !waitedForDeferred { log(message: "waiting for deferred responses before stopping") }
            waitedForDeferred = true
            usleep(2_000)
        }
        let grace = ContinuousClock.now + .seconds(1)
        while state.withLock({ $0.deferredUnfinished }) > 0, ContinuousClock.now < max(deadline, grace) {
            usleep(2_000)
        }
        daemons.forEach { MHD_stop_daemon($0) }
        relay?.stop()
        watch.stop()

        state.withLock { state in
            state.daemons = []
            state.acceptor = nil
            state.relay = nil
            state.retained = nil
            state.port = 0
            state.stopping = false
        }
        retained?.release()
        return drained
    }

    // MARK: - Called from the libmicrohttpd callbacks

    /// True while `stop()` drains: responses then carry `Connection: close`.
    var isStopping: Bool { state.withLock { $0.stopping } }

    func requestBegan(target: String) -> RequestContext {
        state.withLock { $0.inFlight += 1 }
        return RequestContext(target: target)
    }

    func deferredBegan() {
        state.withLock { state in
            state.suspended += 1
            state.deferredUnfinished += 1
        }
    }

    func deferredPickedUp() { state.withLock { $0.suspended -= 1 } }

    func requestEnded(_ context: RequestContext, status: Int) {
        // The response has been handed to the kernel: its client may be waiting for this core.
        defer { yieldIfConfigured() }
        state.withLock { state in
            state.inFlight -= 1
            if context.wasDeferred { state.deferredUnfinished -= 1 }
            // Resumed, but the client had gone: libmicrohttpd closed the connection without
            // calling the access handler again, so the response was never picked up.
            if context.deferred != nil { state.suspended -= 1 }
        }
        context.deferred = nil
        guard status > 0, let logger = configuration.requestLogger else { return }
        let seconds = context.startedAt.duration(to: .now) / .seconds(1)
        logger(context.method.isEmpty ? "-" : LogEscaping.escape(context.method), context.logPath, status, seconds)
    }

    /// See `HTTPServerConfiguration.yieldsAfterResponse`.
    private func yieldIfConfigured() {
        if configuration.yieldsAfterResponse { sched_yield() }
    }

    func log(message: String) {
        state.withLock { state in
            if state.starting { state.startMessages.append(message) }
        }
        configuration.errorLogger?(message)
    }

    /// A C function pointer as a variadic argument (pointer-sized, like `void *`).
    private func cFunction<Function>(_ function: Function) -> OpaquePointer {
        OpaquePointer(unsafeBitCast(function, to: UnsafeRawPointer.self))
    }

    private static func display(host: String, port: UInt16) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
