import CMicroHTTPD
import Foundation

/// Accepts connections on the listening socket and hands each to the libmicrohttpd daemon
/// (one per worker thread) that serves the fewest connections at that moment.
///
/// Why not libmicrohttpd's own accepting: in its thread pool every worker accepts for itself,
/// up to ten connections in a row, whichever wakes first. Measured with wrk's 32 connections
/// opened together (two workers): 32/0, 22/10, 22/10, 22/10. A worker with 22 connections
/// answers each of them about twice as late as one with 10, and with 32/0 one core sat idle
/// (docs/performance.md). Here each connection goes to the least-loaded worker (the
/// lowest-numbered on a tie), so 32 connections split 16/16.
///
/// At `connectionLimit` open connections the acceptor makes room before it accepts: it has
/// the `ConnectionWatch` close the connection that has waited longest for a request head (idle
/// keep-alive connections first), so that idle or slow clients cannot hold every connection.
/// Only while every connection is busy with a request do new ones wait in the listen backlog.
/// A client address with `perAddressLimit` connections open gets a 503 on its next one, which
/// is closed at once: one client cannot take every connection for itself.
final class ConnectionAcceptor: @unchecked Sendable {
    /// The context of one daemon's connection notifications (MHD_OPTION_NOTIFY_CONNECTION).
    final class Worker: @unchecked Sendable {
        let index: Int
        unowned let acceptor: ConnectionAcceptor
        /// The processor the daemon's thread is bound to, if any (`pinsWorkerThreads`).
        let processor: Int?
        /// Whether the daemon's thread has been bound. Only that thread reads or writes it.
        private var bound = false

        init(index: Int, acceptor: ConnectionAcceptor, processor: Int?) {
            self.index = index
            self.acceptor = acceptor
            self.processor = processor
        }

        /// Called on the daemon's own thread for each connection it takes up: the first call
        /// binds the thread to its processor. (libmicrohttpd starts the thread itself and
        /// tells nobody; its connection notifications are the first code of ours it runs.)
        func daemonThreadTookConnection() {
            guard !bound else { return }
            bound = true
            if let processor { ThreadAffinity.pinCurrentThread(to: processor) }
        }
    }

    private let listener: ListeningSocket
    private let connectionLimit: Int
    private let perAddressLimit: Int
    let watch: ConnectionWatch
    /// Where each connection goes before libmicrohttpd (without TLS), or nil.
    private let relay: ConnectionRelay?
    /// The bytes of the 503 a connection over `perAddressLimit` gets.
    private let refusal: [UInt8]
    /// Open connections per client address (its IPv4 or IPv6 bytes), guarded by `condition`.
    private var openPerAddress: [[UInt8]: Int] = [:]
    /// The address of each socket handed to a daemon and not yet taken up by its thread
    /// (`connectionStarted`), guarded by `condition`.
    private var pendingAddress: [Int32: [UInt8]] = [:]
    private let errorLog: @Sendable (String) -> Void
    private(set) var workers: [Worker] = []

    private let condition = NSCondition()
    private var daemons: [OpaquePointer] = []
    /// Open connections per worker, guarded by `condition`.
    private var open: [Int] = []
    private var stopping = false
    private let finished = DispatchSemaphore(value: 0)
    private var running = false

    var port: UInt16 { listener.port }

    /// `processors`, when given, names the processor of each worker's thread.
    init(listener: consuming ListeningSocket, workers count: Int, connectionLimit: Int, perAddressLimit: Int = .max,
         watch: ConnectionWatch, relay: ConnectionRelay? = nil, refusal: [UInt8] = [], processors: [Int]? = nil,
         errorLog: @escaping @Sendable (String) -> Void) {
        precondition(processors.map { $0.count == count } ?? true)
        self.listener = listener
        self.watch = watch
        self.relay = relay
        self.connectionLimit = max(1, connectionLimit)
        self.perAddressLimit = max(1, perAddressLimit)
        self.refusal = refusal
        self.errorLog = errorLog
        self.open = Array(repeating: 0, count: count)
        self.workers = (0..<count).map { Worker(index: $0, acceptor: self, processor: processors?[$0]) }
    }

    /// Starts accepting for `daemons` (one per worker, in worker order).
    func start(daemons: [OpaquePointer]) {
        precondition(daemons.count == workers.count)
        condition.lock()
        self.daemons = daemons
        running = true
        condition.unlock()
        let thread = Thread { [self] in
            // Set from the thread itself, within Linux's 15 bytes: `top -H` and perf show it.
            Thread.current.name = "TapTrace-accept"
            acceptLoop()
        }
        thread.start()
    }

    /// Stops accepting and waits for the accepting thread to end; the daemons stay untouched.
    func stop() {
        condition.lock()
        stopping = true
        let wasRunning = running
        condition.broadcast()
        condition.unlock()
        listener.shutDown()
        if wasRunning { finished.wait() }
    }

    /// Open connections per worker (for tests and diagnostics).
    var openConnections: [Int] {
        condition.lock()
        defer { condition.unlock() }
        return open
    }

    /// A daemon closed one of its connections (MHD_CONNECTION_NOTIFY_CLOSED); `address` is what
    /// `connectionStarted` returned for it.
    func connectionClosed(worker index: Int, address: [UInt8]? = nil) {
        condition.lock()
        // Never below zero: a connection libmicrohttpd failed to set up after
        // MHD_add_connection returned may be reported closed without having been counted.
        open[index] = max(0, open[index] - 1)
        if let address { releaseAddress(address) }
        condition.signal()
        condition.unlock()
    }

    /// A daemon's thread took up the connection on `descriptor` (MHD_CONNECTION_NOTIFY_STARTED):
    /// its client address, to be passed back to `connectionClosed`. The socket is still open
    /// here, so the descriptor is the one the acceptor handed over.
    func connectionStarted(descriptor: Int32) -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        return pendingAddress.removeValue(forKey: descriptor)
    }

    /// Open connections from one client address (for tests and diagnostics).
    func openConnections(from address: [UInt8]) -> Int {
        condition.lock()
        defer { condition.unlock() }
        return openPerAddress[address] ?? 0
    }

    /// Under `condition`.
    private func releaseAddress(_ address: [UInt8]) {
        let left = (openPerAddress[address] ?? 1) - 1
        openPerAddress[address] = left > 0 ? left : nil
    }

    /// Counts `address` in for `descriptor`, or false when it has `perAddressLimit` open.
    private func admit(_ address: [UInt8], descriptor: Int32) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        // A descriptor still pending was closed without its daemon ever taking it up (the
        // kernel reuses only closed descriptors): that connection is gone.
        if let stale = pendingAddress.removeValue(forKey: descriptor) { releaseAddress(stale) }
        let count = openPerAddress[address] ?? 0
        guard count < perAddressLimit else { return false }
        openPerAddress[address] = count + 1
        pendingAddress[descriptor] = address
        return true
    }

    /// The IP address bytes of a peer (without the port).
    static func addressBytes(_ storage: sockaddr_storage) -> [UInt8] {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafeBytes(of: &storage) { raw in
                let address = raw.load(as: sockaddr_in.self).sin_addr
                return withUnsafeBytes(of: address) { Array($0) }
            }
        case AF_INET6:
            return withUnsafeBytes(of: &storage) { raw in
                let address = raw.load(as: sockaddr_in6.self).sin6_addr
                return withUnsafeBytes(of: address) { Array($0) }
            }
        default:
            return []
        }
    }

    private func acceptLoop() {
        defer { finished.signal() }
        var failuresInARow = 0
        while true {
            guard waitForRoom() else { return }
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Self.accept(listener.descriptor, $0, &length) }
            }
            if client < 0 {
                let code = errno
                if isStopping { return }
                switch code {
                case EINTR, ECONNABORTED, EAGAIN, EPROTO:
                    continue
                default:
                    // Out of descriptors or memory: say so once, then retry calmly; the
                    // connection waits in the backlog.
                    if failuresInARow == 0 { errorLog("accept failed: \(String(cString: strerror(code)))") }
                    failuresInARow += 1
                    usleep(50_000)
                    continue
                }
            }
            failuresInARow = 0
            // libmicrohttpd gets the client's socket, or with the relay its end of a socket pair.
            var handOver = client
            var link: ConnectionRelay.Link?
            if let relay {
                guard let opened = relay.open(client) else {
                    Foundation.close(client)
                    continue
                }
                (link, handOver) = (opened.link, opened.handOver)
            }
            let address = Self.addressBytes(storage)
            guard admit(address, descriptor: handOver) else {
                // Best effort, without waiting: the socket is new, its send buffer empty.
                refusal.withUnsafeBytes { _ = Foundation.send(client, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
                Foundation.shutdown(client, Int32(SHUT_WR))
                Foundation.close(client)
                if let link { relay?.discard(link, handOver: handOver) }
                continue
            }
            if let link { relay?.register(link) }
            let (daemon, index) = leastLoaded()
            let added = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { MHD_add_connection(daemon, handOver, $0, length) }
            }
            // On failure libmicrohttpd has closed the socket (the relay then closes the
            // client's) and logged why.
            if added != .YES { connectionClosed(worker: index, address: connectionStarted(descriptor: handOver)) }
        }
    }

    /// Waits while the limit is reached, shedding an idle connection to make room once a new
    /// one waits in the backlog (never before: idle keep-alive connections are kept while nobody
    /// needs their place); false once stopping.
    private func waitForRoom() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !stopping, open.reduce(0, +) >= connectionLimit {
            // Not under `condition`: the watch's lock is taken by the daemons' threads, which
            // take `condition` too when a connection closes. The poll is also the wait: a
            // connection closing or turning idle is seen within its timeout.
            condition.unlock()
            let waiting = connectionWaiting(milliseconds: 20)
            let shed = waiting && watch.shedIdleConnection()
            condition.lock()
            // A connection waits but none can make room (all busy, or the one shed is still
            // closing): wait for a close rather than poll the backlog again at once.
            if waiting, open.reduce(0, +) >= connectionLimit {
                _ = condition.wait(until: Date(timeIntervalSinceNow: shed ? 0.005 : 0.02))
            }
        }
        return !stopping
    }

    /// Whether a connection waits in the listen backlog, waiting up to `milliseconds` for one.
    private func connectionWaiting(milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: listener.descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) > 0 && entry.revents & Int16(POLLIN) != 0
    }

    /// The worker with the fewest open connections, counted as open from now on.
    private func leastLoaded() -> (OpaquePointer, Int) {
        condition.lock()
        defer { condition.unlock() }
        var best = 0
        for index in open.indices where open[index] < open[best] { best = index }
        open[best] += 1
        return (daemons[best], best)
    }

    /// accept(2); the connection is not inherited by programs the process might start.
    private static func accept(_ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>,
                               _ length: UnsafeMutablePointer<socklen_t>) -> Int32 {
        let client = Foundation.accept(descriptor, address, length)
        if client >= 0 { _ = fcntl(client, F_SETFD, FD_CLOEXEC) }
        return client
    }

    private var isStopping: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopping
    }
}
