import Foundation

/// A complete response: status, header fields and body bytes.
///
/// `Content-Length` is computed by the server; a `Content-Length` or `Transfer-Encoding`
/// field set here is ignored.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]

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
