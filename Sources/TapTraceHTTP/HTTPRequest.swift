/// One HTTP request as the router's handlers see it: fully received, body included.
public struct HTTPRequest: Sendable {
    /// The method exactly as sent ("GET", "POST", ...).
    public var method: String
    /// The request target as sent, e.g. `/scenes/a%20b?verbose=1`.
    public var target: String
    /// The path part of `target`, still percent-encoded (the router matches on this).
    public var rawPath: String
    /// The percent-decoded path.
    public var path: String
    /// Decoded query parameters in order (`+` is a space); repeated names are kept.
    public var queryItems: [(name: String, value: String)]
    /// Header fields, looked up case-insensitively.
    public var headers: HTTPHeaders
    /// The request body bytes (empty when there is none).
    public var body: [UInt8]
    /// "HTTP/1.1" or "HTTP/1.0".
    public var httpVersion: String
    /// Set once the client has hung up while the request is worked on.
    public var cancellation: RequestCancellation

    public init(method: String, target: String, headers: HTTPHeaders = [:], body: [UInt8] = [],
                httpVersion: String = "HTTP/1.1", cancellation: RequestCancellation = RequestCancellation()) {
        self.cancellation = cancellation
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.httpVersion = httpVersion
        let parts = Self.split(target)
        rawPath = String(parts.rawPath)
        queryItems = parts.query.map { PercentDecoding.queryItems($0) } ?? []
        path = PercentDecoding.decode(parts.rawPath)
    }

    /// The path of `target`, still percent-encoded and "/" when empty, and its query without
    /// the `?`; a fragment is dropped. The server's request log uses it too, so that the
    /// path logged is the path routed, for requests never routed as well (431, 414).
    static func split(_ target: String) -> (rawPath: Substring, query: Substring?) {
        // Found on the bytes: `split` on a String breaks it into Characters first.
        let bytes = target.utf8
        let fragment = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        let mark = bytes[..<fragment].firstIndex(of: UInt8(ascii: "?"))
        let path = target[..<(mark ?? fragment)]
        return (path.isEmpty ? "/" : path, mark.map { target[bytes.index(after: $0)..<fragment] })
    }

    /// Decoded query parameters; for a repeated name the last value wins.
    public var query: [String: String] {
        Dictionary(queryItems.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// The first value of a header, case-insensitively.
    public func header(_ name: String) -> String? {
        headers[name]
    }

    /// The body decoded as UTF-8, or nil when it is not valid UTF-8.
    public var bodyText: String? {
        let text = String(decoding: body, as: UTF8.self)
        return text.utf8.elementsEqual(body) ? text : nil
    }
}
