import Foundation

/// A complete response: status, header fields and body bytes.
///
/// `Content-Length` is computed by the server; a `Content-Length` or `Transfer-Encoding`
/// field set here is ignored.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// Set by `deferred(_:)`: the response is produced later by this work.
    public private(set) var deferredWork: DeferredWork?
    /// Set by `building(status:headers:_:)`: produces `body` on the connection's thread.
    public private(set) var bodyBuilder: (@Sendable () -> [UInt8])?

    /// Work that answers later, on any thread, by calling `complete` once.
    public typealias DeferredWork = @Sendable (_ complete: @escaping @Sendable (HTTPResponse) -> Void) -> Void

    public init(status: Int = 200, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }

    /// An `application/json` response from already encoded JSON text.
    public static func json(_ json: String, status: Int = 200) -> HTTPResponse {
        jsonBytes(Array(json.utf8), status: status)
    }

    /// An `application/json` response from already encoded JSON bytes.
    public static func jsonBytes(_ bytes: [UInt8], status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: bytes)
    }

    /// An `application/json` response encoding `value` with `JSONEncoder`.
    public static func json<Value: Encodable>(encoding value: Value, status: Int = 200,
                                              sortedKeys: Bool = true) throws -> HTTPResponse {
        let encoder = JSONEncoder()
        if sortedKeys { encoder.outputFormatting = [.sortedKeys] }
        return jsonBytes(Array(try encoder.encode(value)), status: status)
    }

    /// `{"error": message, "status": status}` as JSON.
    public static func error(_ status: Int, _ message: String) -> HTTPResponse {
        json("{\"error\":\(jsonString(message)),\"status\":\(status)}", status: status)
    }

    /// A response that another thread produces: the server suspends the connection (its
    /// worker thread goes on serving others), runs `work`, and sends what `work` passes to
    /// `complete`, with the same CORS decoration and logging as any response. For work that
    /// waits on something shared, such as a database writer committing many requests at once.
    /// Calls to `complete` after the first are ignored; `work` must call it eventually:
    /// `HTTPServer.stop()` waits for every deferred response before stopping the daemon.
    public static func deferred(_ work: @escaping DeferredWork) -> HTTPResponse {
        var response = HTTPResponse(status: 0)
        response.deferredWork = work
        return response
    }

    /// A response whose body is produced by `body` on the connection's own thread, when the
    /// response is handed to libmicrohttpd. For deferred responses completed on a thread that
    /// serves many requests (a database writer): building a large body there would make all
    /// of them wait for it.
    public static func building(status: Int = 200, headers: HTTPHeaders = [:],
                                _ body: @escaping @Sendable () -> [UInt8]) -> HTTPResponse {
        var response = HTTPResponse(status: status, headers: headers)
        response.bodyBuilder = body
        return response
    }

    /// A response with no body (e.g. 204).
    public static func empty(status: Int = 204) -> HTTPResponse {
        HTTPResponse(status: status)
    }

    /// `text` as a JSON string literal.
    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
