import CMicroHTTPD  // <sys/socket.h>: MSG_NOSIGNAL
import Foundation

extension ConnectionRelay {
    /// The bytes one direction of a link holds while their receiver cannot take them: at most
    /// one read's worth, which the relay sends before it reads that direction again.
    struct Outbox {
        /// What is held; `sent` of it has gone.
        var bytes: [UInt8] = []
        private var sent = 0

        var isEmpty: Bool { sent >= bytes.count }

        /// Drops what is held, keeping up to one read's worth of capacity for the next.
        mutating func clear() {
            bytes.removeAll(keepingCapacity: bytes.capacity <= ConnectionRelay.bufferSize)
            sent = 0
        }

        /// Sends what is held to `descriptor`: true once all of it has gone (it is then
        /// cleared), false while some waits for room, nil when the socket failed otherwise.
        mutating func send(to descriptor: Int32) -> Bool? {
            guard !isEmpty else { return true }
            let count = bytes.withUnsafeBytes { all in
                Foundation.send(descriptor, all.baseAddress! + sent, all.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count < 0 { return errno == EAGAIN || errno == EINTR ? false : nil }
            sent += count
            guard isEmpty else { return false }
            clear()
            return true
        }
    }
}
