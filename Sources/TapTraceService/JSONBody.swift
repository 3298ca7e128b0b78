import Foundation
import TapTraceCore
import TapTraceHTTP

/// Request bodies are JSON and say so: anything but `Content-Type: application/json`
/// (`; charset=utf-8` allowed) is 415, a body that does not parse is 400 with line and column.
enum JSONBody {
    /// Whether a Content-Type field value is `application/json`, optionally with a UTF-8 charset.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let parts = contentType.split(separator: ";", omittingEmptySubsequences: false)
        guard parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "application/json" else { return false }
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            guard pair.count == 2 else { return false }
            if pair[0] == "charset", pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) != "utf-8" {
                return false
            }
        }
        return true
    }

    /// Checks the media type; returns the body bytes.
    static func bytes(of request: HTTPRequest) throws(Problem) -> [UInt8] {
        guard isJSON(request.header("Content-Type")) else {
            let given = request.header("Content-Type").map { "\"\($0)\"" } ?? "no Content-Type"
            throw Problem.unsupportedMediaType("The body must be JSON sent as Content-Type: application/json (got \(given)).")
        }
        return request.body
    }

    /// Checks the media type and parses the body.
    static func tape(of request: HTTPRequest) throws(Problem) -> JSONTape {
        let body = try bytes(of: request)
        do throws(InputError) { return try InputDecoder.parse(body) } catch { throw Problem(error) }
    }
}
