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
/// Like libmicrohttpd at its limit, the acceptor stops accepting while `connectionLimit`
/// connections are open: new ones wait in the listen backlog instead of being refused.
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
    init(listener: consuming ListeningSocket, workers count: Int, connectionLimit: Int, processors: [Int]? = nil,
         errorLog: @escaping @Sendable (String) -> Void) {
        precondition(processors.map { $0.count == count } ?? true)
        self.listener = listener
        self.connectionLimit = max(1, connectionLimit)
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

    /// A daemon closed one of its connections (MHD_CONNECTION_NOTIFY_CLOSED).
    func connectionClosed(worker index: Int) {
        condition.lock()
        // Never below zero: a connection libmicrohttpd failed to set up after
        // MHD_add_connection returned may be reported closed without having been counted.
        open[index] = max(0, open[index] - 1)
        condition.signal()
        condition.unlock()
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
            let (daemon, index) = leastLoaded()
            let added = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { MHD_add_connection(daemon, client, $0, length) }
            }
            // On failure libmicrohttpd has closed the socket and logged why.
            if added != .YES { connectionClosed(worker: index) }
        }
    }

    /// Waits while the limit is reached; false once stopping.
    private func waitForRoom() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !stopping, open.reduce(0, +) >= connectionLimit { condition.wait() }
        return !stopping
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
