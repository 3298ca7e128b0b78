import Foundation

/// Set when the client of a request has gone away while its work runs (`ConnectionWatch`
/// sees the connection hung up): work that checks it stops early, since nobody will read the
/// answer. Handlers read it from `HTTPRequest.cancellation`; it is set from another thread.
public final class RequestCancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    public init() {}

    public var isCancelled: Bool { lock.withLock { cancelled } }

    public func cancel() { lock.withLock { cancelled = true } }
}
