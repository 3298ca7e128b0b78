import Foundation

/// Per-request state libmicrohttpd carries for us in `con_cls`: created when the request line
/// arrives (URI log callback), released in the completion callback.
///
/// Only the libmicrohttpd thread that owns the connection touches it, so it needs no lock.
final class RequestContext {
    /// The request target exactly as received, query included.
    let target: String
    let startedAt: ContinuousClock.Instant

    var method = ""
    var httpVersion = ""
    var headers = HTTPHeaders()
    /// Set once the first access-handler call (headers complete) has been handled.
    var headersReceived = false
    var body: [UInt8] = []
    /// A rejection (413) decided while body data was arriving but not yet queued.
    var pendingRejection: HTTPResponse?
    /// Body bytes read but dropped after `pendingRejection` was decided.
    var discardedBytes = 0
    /// Status of the response we queued, 0 until then.
    var status = 0
    /// Set while the connection is suspended for a deferred response.
    var deferred: DeferredCompletion?
    /// Whether the request was answered by a deferred response (counted until it ends).
    var wasDeferred = false

    init(target: String) {
        self.target = target
        self.startedAt = .now
    }

    /// The decoded path for logging: the path the router sees (`HTTPRequest.split`), escaped
    /// (`LogEscaping`) from its decoded bytes, so that invalid UTF-8 shows as such.
    var logPath: String {
        LogEscaping.escape(PercentDecoding.decodeBytes(HTTPRequest.split(target).rawPath))
    }
}

/// The hand-over of a deferred response from the thread that completes it to the connection's
/// libmicrohttpd thread, which picks it up when the resumed connection calls the access handler.
final class DeferredCompletion: @unchecked Sendable {
    private let lock = NSLock()
    private var response: HTTPResponse?
    private var completed = false

    /// Stores the response; false if one was stored before (a second `complete` call).
    func complete(with response: HTTPResponse) -> Bool {
        lock.withLock {
            guard !completed else { return false }
            completed = true
            self.response = response
            return true
        }
    }

    func take() -> HTTPResponse? { lock.withLock { response.take() } }
}
