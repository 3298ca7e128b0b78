import CMicroHTTPD
import Foundation

// The C callbacks libmicrohttpd calls on its own threads. They are plain global functions
// (nonisolated, no captures, so they convert to C function pointers); the server and the
// per-request context travel through the `cls` / `con_cls` pointers as `Unmanaged` references.

/// MHD_AccessHandlerCallback: called when the headers are complete, for each piece of body
/// and once more when the request is complete.
func mhdAccessHandler(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                      _ url: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?,
                      _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
                      _ uploadDataSize: UnsafeMutablePointer<Int>?,
                      _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> MHD_Result {
    guard let cls, let connection, let conCls else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    let context: RequestContext
    if let existing = conCls.pointee {
        context = Unmanaged<RequestContext>.fromOpaque(existing).takeUnretainedValue()
    } else {
        // The URI log callback normally created it already.
        context = server.requestBegan(target: url.map { String(cString: $0) } ?? "/")
        conCls.pointee = Unmanaged.passRetained(context).toOpaque()
    }
    return server.process(context, connection: connection, method: method, version: version,
                          uploadData: uploadData, uploadDataSize: uploadDataSize)
}

/// MHD_OPTION_URI_LOG_CALLBACK: the request line has arrived; the returned pointer becomes the
/// request's `con_cls`. The URI is the raw target, before libmicrohttpd unescapes it.
func mhdRequestBegan(_ cls: UnsafeMutableRawPointer?, _ uri: UnsafePointer<CChar>?,
                     _ connection: OpaquePointer?) -> UnsafeMutableRawPointer? {
    guard let cls else { return nil }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    let context = server.requestBegan(target: uri.map { String(cString: $0) } ?? "/")
    return Unmanaged.passRetained(context).toOpaque()
}

/// MHD_OPTION_NOTIFY_COMPLETED: the response was sent or the request aborted.
func mhdRequestCompleted(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                         _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                         _ termination: MHD_RequestTerminationCode) {
    guard let cls, let conCls, let raw = conCls.pointee else { return }
    conCls.pointee = nil
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    let context = Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue()
    if let connection { server.watch.requestEnded(taptrace_mhd_connection_fd(connection)) }
    var status = context.status
    if status == 0, let connection {
        // A response libmicrohttpd produced itself (e.g. its own 431 when the pool overflows).
        status = Int(taptrace_mhd_connection_status(connection))
    }
    server.requestEnded(context, status: status)
}

/// MHD_OPTION_EXTERNAL_LOGGER: libmicrohttpd's diagnostics, printf-style.
func mhdLog(_ cls: UnsafeMutableRawPointer?, _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?) {
    guard let cls, let format, let arguments else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    if server.relaysConnections && MHDSocketOptionMessages.matches(format) { return }
    var buffer = [CChar](repeating: 0, count: 1024)
    _ = vsnprintf(&buffer, buffer.count, format, arguments)
    let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    server.log(message: message.trimmingCharacters(in: .whitespacesAndNewlines))
}

/// What libmicrohttpd (0.9.75) says after every response on a socket pair (`ConnectionRelay`):
/// it sets TCP_NODELAY and TCP_CORK on every connection it did not accept itself, a socket pair
/// refuses them with EOPNOTSUPP (not one of the errors after which it stops trying), and it
/// says so, three lines per response. Nothing is wrong: the relay sets TCP_NODELAY on the
/// client's socket. Matched on the format, before anything is formatted.
enum MHDSocketOptionMessages {
    private static let prefixes: [[CChar]] = [
        "Setting %s option to %s state failed", "Failed to push the data from buffers to the network",
    ].map { Array($0.utf8CString.dropLast()) }

    static func matches(_ format: UnsafePointer<CChar>) -> Bool {
        prefixes.contains { prefix in prefix.withUnsafeBufferPointer { strncmp(format, $0.baseAddress!, $0.count) == 0 } }
    }
}

/// MHD_KeyValueIterator over the request headers; `cls` is the RequestContext.
func mhdCollectHeader(_ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind,
                      _ key: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let context = Unmanaged<RequestContext>.fromOpaque(cls).takeUnretainedValue()
    context.headers.add(String(cString: key), value.map { String(cString: $0) } ?? "")
    return .YES
}

/// MHD_OPTION_NOTIFY_CONNECTION: a connection of one daemon opened or closed, told on that
/// daemon's thread; `cls` is the daemon's `ConnectionAcceptor.Worker`. An opened connection
/// lets the worker bind its thread to its processor; a closed one is counted out (the acceptor
/// counted it in when it handed it over).
func mhdConnectionNotified(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                           _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                           _ code: MHD_ConnectionNotificationCode) {
    guard let cls else { return }
    let worker = Unmanaged<ConnectionAcceptor.Worker>.fromOpaque(cls).takeUnretainedValue()
    switch code {
    case .CONNECTION_NOTIFY_STARTED:
        worker.daemonThreadTookConnection()
        guard let connection else { return }
        let descriptor = taptrace_mhd_connection_fd(connection)
        worker.acceptor.watch.opened(descriptor)
        // The client address travels in the connection's socket context until it closes.
        if let socketContext, let address = worker.acceptor.connectionStarted(descriptor: descriptor) {
            socketContext.pointee = Unmanaged.passRetained(AddressBox(address)).toOpaque()
        }
    case .CONNECTION_NOTIFY_CLOSED:
        // Told before libmicrohttpd closes the descriptor (`ConnectionWatch`).
        if let connection { worker.acceptor.watch.closed(taptrace_mhd_connection_fd(connection)) }
        var address: [UInt8]?
        if let socketContext, let raw = socketContext.pointee {
            address = Unmanaged<AddressBox>.fromOpaque(raw).takeRetainedValue().bytes
            socketContext.pointee = nil
        }
        worker.acceptor.connectionClosed(worker: worker.index, address: address)
    default: break
    }
}

/// A client address held by a connection's socket context.
final class AddressBox {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
}
