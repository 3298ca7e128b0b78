import Foundation

/// What each open connection is doing, and since when: the deadlines libmicrohttpd does not
/// have, and the client that goes away while its request is worked on.
///
/// libmicrohttpd's own timeout (`connectionTimeoutSeconds`) starts again with every byte, so a
/// client sending one header byte a second holds a connection for ever (slowloris), and 256 of
/// them held every connection the server had. Here:
/// - a request's whole head must arrive within `headTimeout` of the connection being ready for
///   it (accepted, or the previous response sent): an idle keep-alive connection is closed after
///   as long;
/// - its whole body within `bodyTimeout` of the head;
/// - at the connection limit, the acceptor makes room by closing the connection that has waited
///   longest for a request head, idle keep-alive connections first (`shedIdleConnection`), rather
///   than leaving new clients in the listen backlog;
/// - a request whose client hangs up while it is worked on has its `RequestCancellation` set, so
///   the work stops at its next safe point instead of running to its end for nobody.
///
/// A connection is closed by `shutdown(2)` of its socket: libmicrohttpd, on its own thread, then
/// reads the end of the stream and closes the connection as if the client had. The descriptor is
/// shut only while it is in the table, under the table's lock, and libmicrohttpd removes it
/// (`closed`, from its close notification) before it closes the descriptor, so a descriptor
/// number the kernel has given to a newer connection is never shut by mistake.
///
/// The events come from the daemons' threads; `sweep` runs on a thread of its own every
/// `sweepInterval`.
final class ConnectionWatch: @unchecked Sendable {
    enum Phase: Equatable {
        /// Waiting for the head of a request (the first, or the next on a keep-alive connection).
        case awaitingHead
        /// The head has arrived; the body is being read.
        case readingBody
        /// The request is complete: it is worked on, or its response is being sent.
        case handling
    }

    private struct Entry {
        var phase: Phase
        var since: ContinuousClock.Instant
        /// Whether the connection answered a request before: awaiting a head, it is an idle
        /// keep-alive connection.
        var served = false
        /// Shut down by this watch; closed once libmicrohttpd notices.
        var shut = false
        var cancellation: RequestCancellation?
    }

    let headTimeout: Duration?
    let bodyTimeout: Duration?
    static let sweepInterval: Duration = .milliseconds(100)

    private let lock = NSLock()
    private var entries: [Int32: Entry] = [:]
    private var stopping = false
    private var sweeper: Thread?
    private let swept = DispatchSemaphore(value: 0)
    private var closedByDeadline = 0
    private var shed = 0

    init(headTimeout: Duration?, bodyTimeout: Duration?) {
        self.headTimeout = headTimeout
        self.bodyTimeout = bodyTimeout
    }

    // MARK: events, from the daemons' threads

    /// A daemon took up the connection on `descriptor`.
    func opened(_ descriptor: Int32) {
        lock.withLock { entries[descriptor] = Entry(phase: .awaitingHead, since: .now) }
    }

    /// The head of a request has arrived on `descriptor`.
    func headArrived(_ descriptor: Int32) {
        lock.withLock {
            entries[descriptor]?.phase = .readingBody
            entries[descriptor]?.since = .now
        }
    }

    /// The whole request has arrived: its work may be cancelled through `cancellation`.
    func handling(_ descriptor: Int32, cancellation: RequestCancellation) {
        lock.withLock {
            entries[descriptor]?.phase = .handling
            entries[descriptor]?.cancellation = cancellation
        }
    }

    /// The response was sent (or the request ended otherwise): the connection waits for the
    /// next request.
    func requestEnded(_ descriptor: Int32) {
        lock.withLock {
            guard entries[descriptor] != nil else { return }
            entries[descriptor]!.phase = .awaitingHead
            entries[descriptor]!.since = .now
            entries[descriptor]!.served = true
            entries[descriptor]!.cancellation = nil
        }
    }

    /// libmicrohttpd is closing the connection (its descriptor is still open).
    func closed(_ descriptor: Int32) {
        lock.withLock { _ = entries.removeValue(forKey: descriptor) }
    }

    // MARK: deadlines and shedding

    /// Shuts the connection that has waited longest for a request head, idle keep-alive
    /// connections before those that never sent one; none while an earlier one is still
    /// closing. True when one was shut.
    func shedIdleConnection() -> Bool {
        lock.withLock {
            var victim: (descriptor: Int32, served: Bool, since: ContinuousClock.Instant)?
            for (descriptor, entry) in entries {
                if entry.shut { return false }
                guard entry.phase == .awaitingHead else { continue }
                if let best = victim {
                    let better = entry.served != best.served ? entry.served : entry.since < best.since
                    guard better else { continue }
                }
                victim = (descriptor, entry.served, entry.since)
            }
            guard let victim else { return false }
            shut(victim.descriptor)
            shed += 1
            return true
        }
    }

    /// Closes the connections past a deadline and cancels the work of clients that hung up.
    func sweep(now: ContinuousClock.Instant = .now) {
        lock.withLock {
            for (descriptor, entry) in entries where !entry.shut {
                switch entry.phase {
                case .awaitingHead:
                    if let headTimeout, entry.since.duration(to: now) > headTimeout {
                        shut(descriptor)
                        closedByDeadline += 1
                    }
                case .readingBody:
                    if let bodyTimeout, entry.since.duration(to: now) > bodyTimeout {
                        shut(descriptor)
                        closedByDeadline += 1
                    }
                case .handling:
                    if let cancellation = entry.cancellation, !cancellation.isCancelled, Self.peerHungUp(descriptor) {
                        cancellation.cancel()
                    }
                }
            }
        }
    }

    /// Under `lock`.
    private func shut(_ descriptor: Int32) {
        entries[descriptor]?.shut = true
        _ = Foundation.shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Whether the client closed its side or reset the connection. Data it sent meanwhile
    /// (a pipelined request) is left for libmicrohttpd to read.
    static func peerHungUp(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: readHangUp, revents: 0)
        guard poll(&entry, 1, 0) > 0 else { return false }
        let hungUp: Int16 = readHangUp | Int16(POLLHUP) | Int16(POLLERR)
        return entry.revents & hungUp != 0
    }

    /// Linux's POLLRDHUP: the peer closed its side. <poll.h> defines it only under
    /// _GNU_SOURCE, which the Glibc module is not built with.
    private static let readHangUp: Int16 = 0x2000

    // MARK: the sweeping thread

    func start() {
        lock.withLock { stopping = false }
        let thread = Thread { [self] in
            Thread.current.name = "TapTrace-watch"
            while !lock.withLock({ stopping }) {
                sweep()
                usleep(UInt32(Self.sweepInterval / .microseconds(1)))
            }
            swept.signal()
        }
        lock.withLock { sweeper = thread }
        thread.start()
    }

    func stop() {
        let running: Bool = lock.withLock {
            stopping = true
            defer { sweeper = nil }
            return sweeper != nil
        }
        if running { swept.wait() }
    }

    /// How many connections the deadlines and the shedding closed (for tests and diagnostics).
    var closedCounts: (deadline: Int, shed: Int) { lock.withLock { (closedByDeadline, shed) } }

    /// Open connections in each phase (for tests and diagnostics).
    var phases: [Phase: Int] {
        lock.withLock { entries.values.reduce(into: [:]) { $0[$1.phase, default: 0] += 1 } }
    }
}
