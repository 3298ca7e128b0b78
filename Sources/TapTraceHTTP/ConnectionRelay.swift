import CEventPoll
import CMicroHTTPD  // <sys/socket.h>: SHUT_WR, MSG_NOSIGNAL
import Foundation

/// Stands between each client connection and libmicrohttpd, so that libmicrohttpd only ever reads
/// requests that frame unambiguously (issue 34, decision 145).
///
/// libmicrohttpd answers some malformed requests itself, in HTML, before any code of ours runs:
/// an HTTP version other than 1.x (505), a field line without a colon or a bad chunk (400), a
/// `Content-Length` it cannot parse (400 or 413, with its status line sent twice), and a
/// malformed request line (the connection simply closed). It has no hook for them. So the
/// acceptor hands libmicrohttpd one end of a socket pair instead of the client's socket, and this
/// relay copies between the client and the pair's other end: requests through a
/// `RequestStreamCheck`, which passes on only what it has checked and replaces the first thing
/// wrong with a stand-in that the access handler answers as a problem document
/// (`RelayRefusal`); responses as they are.
///
/// One thread serves every connection with one epoll set (level-triggered). Each direction
/// keeps at most what one read brought in while its receiver is full, and stops reading until
/// that is sent, so a connection holds a bounded amount of memory here. A half-close travels
/// on: a client that hangs up shuts the pair's input to libmicrohttpd (which then sees the
/// client gone, and `ConnectionWatch` cancels its work); libmicrohttpd closing its end closes
/// the client's connection once the last response bytes are sent. With TLS the bytes are
/// encrypted, and libmicrohttpd is handed the client's socket as before.
final class ConnectionRelay: @unchecked Sendable {
    /// One client connection and the relay's end of its socket pair.
    final class Link {
        let client: Int32
        let inner: Int32
        var check: RequestStreamCheck
        /// Checked request bytes not yet taken by libmicrohttpd.
        var toInner = Outbox()
        /// Response bytes not yet taken by the client.
        var toClient = Outbox()
        /// The client may still send (it has not closed its side).
        var clientReadOpen = true
        /// libmicrohttpd may still send (it has not closed its end).
        var innerReadOpen = true
        /// libmicrohttpd still reads (a write to it has not failed).
        var innerWriteOpen = true
        /// The client closed its side while checked bytes were still on their way: shut the
        /// pair's input once they are taken.
        var shutInnerWhenSent = false
        /// The request stream was refused: what the client sends from now on is dropped.
        var refused = false
        var discardedBytes = 0
        var clientEvents: UInt32 = 0
        var innerEvents: UInt32 = 0
        /// The pair's end is in the epoll set.
        var innerInSet = true
        var finished = false

        init(client: Int32, inner: Int32, check: RequestStreamCheck) {
            self.client = client
            self.inner = inner
            self.check = check
        }

        var hasBytesForInner: Bool { !toInner.isEmpty }
        var hasBytesForClient: Bool { !toClient.isEmpty }
    }

    struct StartFailure: Error {
        let reason: String
    }

    /// What a connection may send after its stream was refused before it is cut off.
    static let maxDiscardedBytes = 1 << 20
    static let bufferSize = 64 << 10
    /// `taptrace_poll_control`'s operations.
    private static let add: Int32 = 0, change: Int32 = 1, remove: Int32 = 2

    let limits: RequestStreamCheck.Limits
    let nonce: String
    private let epoll: Int32
    private let wake: Int32
    private let errorLog: @Sendable (String) -> Void

    private let lock = NSLock()
    /// Every link not yet finished, so that the pointers in the epoll set stay valid. Guarded
    /// by `lock` (the acceptor adds, the relay's thread removes).
    private var links: [ObjectIdentifier: Link] = [:]
    private var stopping = false
    private var running = false
    private let finishedRunning = DispatchSemaphore(value: 0)

    init(limits: RequestStreamCheck.Limits, nonce: String, errorLog: @escaping @Sendable (String) -> Void) throws {
        self.limits = limits
        self.nonce = nonce
        self.errorLog = errorLog
        epoll = taptrace_poll_create()
        guard epoll >= 0 else { throw StartFailure(reason: "no epoll set: \(String(cString: strerror(errno)))") }
        wake = taptrace_event_descriptor()
        guard wake >= 0 else {
            let reason = String(cString: strerror(errno))
            Foundation.close(epoll)
            throw StartFailure(reason: "no event descriptor: \(reason)")
        }
        _ = taptrace_poll_control(epoll, Self.add, wake, taptrace_poll_in, 0)
    }

    deinit {
        Foundation.close(wake)
        Foundation.close(epoll)
    }

    func start() {
        lock.withLock {
            stopping = false
            running = true
        }
        let thread = Thread { [self] in
            Thread.current.name = "TapTrace-relay"
            run()
            finishedRunning.signal()
        }
        thread.start()
    }

    /// Stops the thread and closes every connection still open. Call it once libmicrohttpd has
    /// stopped: the responses it sent have then been passed on.
    func stop() {
        let wasRunning: Bool = lock.withLock {
            stopping = true
            return running
        }
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
        if wasRunning { finishedRunning.wait() }
    }

    /// Open connections (for tests and diagnostics).
    var openLinks: Int { lock.withLock { links.count } }

    // MARK: the acceptor's side

    /// A socket pair for `client`: the link to `register` and the descriptor to hand to
    /// libmicrohttpd; nil when no pair can be made (out of descriptors).
    func open(_ client: Int32) -> (link: Link, handOver: Int32)? {
        var pair: [Int32] = [-1, -1]
        guard taptrace_socket_pair(&pair) == 0 else {
            errorLog("relay: no socket pair for a connection: \(String(cString: strerror(errno)))")
            return nil
        }
        for descriptor in [client, pair[0]] {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        // Responses are passed on as they come: do not hold small ones back (Nagle).
        var on: Int32 = 1
        _ = setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        let link = Link(client: client, inner: pair[0], check: RequestStreamCheck(limits: limits, nonce: nonce))
        return (link, pair[1])
    }

    /// Starts relaying `link`.
    func register(_ link: Link) {
        lock.withLock { links[ObjectIdentifier(link)] = link }
        add(link)
    }

    /// Closes a link that was never registered (its connection was refused), `handOver` included.
    func discard(_ link: Link, handOver: Int32) {
        Foundation.close(link.inner)
        Foundation.close(handOver)
    }

    // MARK: the relay's thread

    private func run() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        let capacity: Int32 = 64
        let events = UnsafeMutablePointer<taptrace_poll_event>.allocate(capacity: Int(capacity))
        defer { events.deallocate() }
        var retired: [Link] = []
        while true {
            let count = taptrace_poll_wait(epoll, events, capacity, -1)
            if count < 0 {
                if errno == EINTR { continue }
                errorLog("relay: epoll_wait failed: \(String(cString: strerror(errno)))")
                break
            }
            var stop = false
            for index in 0..<Int(count) {
                let event = events[index]
                let data = event.data
                if data == 0 {
                    stop = lock.withLock { stopping }
                    continue
                }
                // The link stays alive until the batch is done (`retired`), however it ends.
                let link = Unmanaged<Link>.fromOpaque(UnsafeRawPointer(bitPattern: UInt(data & ~1))!).takeUnretainedValue()
                guard !link.finished else { continue }
                if data & 1 == 0 {
                    clientReady(link, events: event.events, buffer: buffer)
                } else {
                    innerReady(link, events: event.events, buffer: buffer)
                }
                if link.finished { retired.append(link) } else { update(link) }
            }
            if !retired.isEmpty {
                lock.withLock { for link in retired { links.removeValue(forKey: ObjectIdentifier(link)) } }
                retired.removeAll(keepingCapacity: true)
            }
            if stop { break }
        }
        let remaining: [Link] = lock.withLock {
            defer { links = [:]; running = false }
            return Array(links.values)
        }
        // libmicrohttpd has stopped: pass on what it sent last, as far as the clients take it
        // without waiting, then close.
        for link in remaining where !link.finished {
            flushToClient(link)
            if !link.finished && !link.hasBytesForClient && link.innerReadOpen { drainInner(link, buffer: buffer) }
            if !link.finished { finish(link) }
        }
    }

    /// The client's socket is readable, writable or hung up.
    private func clientReady(_ link: Link, events: UInt32, buffer: UnsafeMutableRawBufferPointer) {
        if events & taptrace_poll_out != 0 { flushToClient(link) }
        guard !link.finished else { return }
        let readable = events & (taptrace_poll_in | taptrace_poll_read_hang_up | taptrace_poll_hang_up | taptrace_poll_error) != 0
        if readable, link.clientReadOpen, !link.hasBytesForInner {
            readClient(link, buffer: buffer)
        } else if events & (taptrace_poll_hang_up | taptrace_poll_error) != 0 {
            // Reset, or gone both ways, while nothing could be read: nobody to answer.
            finish(link)
        }
    }

    /// The pair's end is readable, writable or closed by libmicrohttpd.
    private func innerReady(_ link: Link, events: UInt32, buffer: UnsafeMutableRawBufferPointer) {
        if events & taptrace_poll_out != 0 { flushToInner(link) }
        guard !link.finished, link.innerReadOpen else { return }
        if events & (taptrace_poll_hang_up | taptrace_poll_error) != 0 {
            // libmicrohttpd closed its end: what it sent before is all there is (at most a
            // socket buffer's worth), so keep all of it for the client.
            drainInner(link, buffer: buffer)
        } else if events & taptrace_poll_in != 0, !link.hasBytesForClient {
            readInner(link, buffer: buffer)
        }
    }

    private func readClient(_ link: Link, buffer: UnsafeMutableRawBufferPointer) {
        let received = recv(link.client, buffer.baseAddress, buffer.count, 0)
        if received > 0 {
            if link.refused {
                link.discardedBytes += received
                if link.discardedBytes > Self.maxDiscardedBytes { finish(link) }
                return
            }
            link.toInner.clear()
            if link.check.consume(UnsafeRawBufferPointer(rebasing: buffer[0..<received]), into: &link.toInner.bytes) != nil {
                link.refused = true
            }
            flushToInner(link)
        } else if received == 0 {
            link.clientReadOpen = false
            // After a refusal libmicrohttpd must still read the stand-in and answer it.
            guard !link.refused else { return }
            if link.hasBytesForInner { link.shutInnerWhenSent = true } else { _ = shutdown(link.inner, Int32(SHUT_WR)) }
        } else if errno != EAGAIN && errno != EINTR {
            finish(link)
        }
    }

    private func readInner(_ link: Link, buffer: UnsafeMutableRawBufferPointer) {
        let received = recv(link.inner, buffer.baseAddress, buffer.count, 0)
        if received > 0 {
            sendToClient(link, UnsafeRawBufferPointer(rebasing: buffer[0..<received]))
        } else if received == 0 || (errno != EAGAIN && errno != EINTR) {
            innerClosed(link)
        }
    }

    /// Reads what libmicrohttpd left in the pair after closing its end, then ends its side.
    private func drainInner(_ link: Link, buffer: UnsafeMutableRawBufferPointer) {
        while true {
            let received = recv(link.inner, buffer.baseAddress, buffer.count, 0)
            guard received > 0 else { break }
            if link.hasBytesForClient {
                link.toClient.bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<received]))
            } else {
                sendToClient(link, UnsafeRawBufferPointer(rebasing: buffer[0..<received]))
                if link.finished { return }
            }
        }
        innerClosed(link)
    }

    private func innerClosed(_ link: Link) {
        link.innerReadOpen = false
        link.innerWriteOpen = false
        if !link.hasBytesForClient { finish(link) }
    }

    /// Sends `bytes` to the client, keeping what it cannot take now.
    private func sendToClient(_ link: Link, _ bytes: UnsafeRawBufferPointer) {
        let sent = send(link.client, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        if sent < 0 && errno != EAGAIN && errno != EINTR {
            finish(link)
            return
        }
        let taken = max(0, sent)
        guard taken < bytes.count else { return }
        link.toClient.clear()
        link.toClient.bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[taken...]))
    }

    private func flushToClient(_ link: Link) {
        guard link.hasBytesForClient else { return }
        switch link.toClient.send(to: link.client) {
        case nil: finish(link)
        case true?: if !link.innerReadOpen { finish(link) }
        case false?: break
        }
    }

    private func flushToInner(_ link: Link) {
        guard link.hasBytesForInner else { return }
        guard link.innerWriteOpen else {
            link.toInner.clear()
            return
        }
        switch link.toInner.send(to: link.inner) {
        case nil:
            // libmicrohttpd closed the connection (after answering, say, a 413): its response
            // is still to be read; what the client sends is dropped.
            link.innerWriteOpen = false
            link.toInner.clear()
        case true?:
            if link.shutInnerWhenSent {
                link.shutInnerWhenSent = false
                _ = shutdown(link.inner, Int32(SHUT_WR))
            }
        case false?:
            break
        }
    }

    /// The events `link` waits for now: the client's input only while libmicrohttpd has taken
    /// everything checked so far, libmicrohttpd's output only while the client has taken
    /// everything sent so far, and each side's output while bytes wait for it.
    private func wanted(_ link: Link) -> (client: UInt32, inner: UInt32) {
        var client: UInt32 = 0
        if link.clientReadOpen && !link.hasBytesForInner && (link.innerWriteOpen || link.refused) {
            client |= taptrace_poll_in | taptrace_poll_read_hang_up
        }
        if link.hasBytesForClient { client |= taptrace_poll_out }
        var inner: UInt32 = 0
        if link.innerReadOpen && !link.hasBytesForClient { inner |= taptrace_poll_in }
        if link.hasBytesForInner { inner |= taptrace_poll_out }
        return (client, inner)
    }

    /// Adds a new link to the epoll set: its fields are set before, and the client's socket is
    /// added last, so the relay's thread sees the link only once it is complete.
    private func add(_ link: Link) {
        let (client, inner) = wanted(link)
        link.clientEvents = client
        link.innerEvents = inner
        let pointer = UInt64(UInt(bitPattern: Unmanaged.passUnretained(link).toOpaque()))
        _ = taptrace_poll_control(epoll, Self.add, link.inner, inner, pointer | 1)
        _ = taptrace_poll_control(epoll, Self.add, link.client, client, pointer)
    }

    /// Changes the events `link` waits for, where they changed (on the relay's thread).
    private func update(_ link: Link) {
        let (client, inner) = wanted(link)
        let pointer = UInt64(UInt(bitPattern: Unmanaged.passUnretained(link).toOpaque()))
        if client != link.clientEvents {
            _ = taptrace_poll_control(epoll, Self.change, link.client, client, pointer)
            link.clientEvents = client
        }
        if link.innerInSet && !link.innerReadOpen && !link.hasBytesForInner {
            // libmicrohttpd closed its end: that is reported whatever is asked for (EPOLLHUP),
            // so the end leaves the set.
            _ = taptrace_poll_control(epoll, Self.remove, link.inner, 0, 0)
            link.innerInSet = false
        } else if link.innerInSet && inner != link.innerEvents {
            _ = taptrace_poll_control(epoll, Self.change, link.inner, inner, pointer | 1)
            link.innerEvents = inner
        }
    }

    /// Closes both of the relay's sockets of `link`; libmicrohttpd then reads the end of its
    /// stream and closes its own.
    private func finish(_ link: Link) {
        guard !link.finished else { return }
        link.finished = true
        _ = taptrace_poll_control(epoll, Self.remove, link.client, 0, 0)
        if link.innerInSet { _ = taptrace_poll_control(epoll, Self.remove, link.inner, 0, 0) }
        if link.refused {
            // Read what the client sent after its refused request, so that closing does not
            // reset the connection and take the answer with it.
            var scratch = [UInt8](repeating: 0, count: 16 << 10)
            for _ in 0..<4 where recv(link.client, &scratch, scratch.count, Int32(MSG_DONTWAIT)) > 0 {}
        }
        Foundation.close(link.client)
        Foundation.close(link.inner)
    }
}
