import Foundation
import TapTraceCore
import TapTraceFormats
import TapTraceHTTP
import TapTraceJSON

/// Request bodies are JSON and say so: anything but `Content-Type: application/json`
/// (`; charset=utf-8` allowed) is 415, a body that does not parse is 400 with line and column.
enum JSONBody {
    /// Whether a Content-Type field value is `application/json`, optionally with a UTF-8 charset
    /// (`; charset=utf-8`, quoted or not, any case) or other `name=value` parameters.
    ///
    /// Read byte by byte (ASCII, blanks are space and tab): every request with a body asks,
    /// and the Foundation version (`split`, `trimmingCharacters`, `lowercased`) cost about
    /// 2 µs a request, 1.4 % of a stored dispatch (perf).
    static func isJSON(_ contentType: String?) -> Bool {
        guard var contentType else { return false }
        return contentType.withUTF8 { MediaType.matches(Array($0), "application/json") }
    }

    /// The same for a JSON Patch body (`application/json-patch+json`, RFC 6902).
    static func isJSONPatch(_ contentType: String?) -> Bool {
        guard var contentType else { return false }
        return contentType.withUTF8 { MediaType.matches(Array($0), "application/json-patch+json") }
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

/// The bytes of a Content-Type value, for `JSONBody.isJSON` and `isJSONPatch`: `type` in any
/// case, with parameters allowed and a charset, if given, UTF-8.
private enum MediaType {
    static func matches(_ value: [UInt8], _ type: StaticString) -> Bool {
        var parts = value.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)[...]
        guard equalsIgnoringCase(trimmed(parts.removeFirst()), type) else { return false }
        for parameter in parts {
            guard let equals = parameter.firstIndex(of: UInt8(ascii: "=")) else { return false }
            let name = trimmed(parameter[..<equals]), value = trimmed(parameter[(equals + 1)...])
            guard !name.isEmpty, !value.isEmpty else { return false }
            if equalsIgnoringCase(name, "charset") {
                var unquoted = value[...]
                while unquoted.first == UInt8(ascii: "\"") { unquoted.removeFirst() }
                while unquoted.last == UInt8(ascii: "\"") { unquoted.removeLast() }
                guard equalsIgnoringCase(unquoted, "utf-8") else { return false }
            }
        }
        return true
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var bytes = bytes
        while let b = bytes.first, b == 0x20 || b == 0x09 { bytes.removeFirst() }
        while let b = bytes.last, b == 0x20 || b == 0x09 { bytes.removeLast() }
        return bytes
    }

    /// `bytes` equals `lowercase` (ASCII, already lower case) in any case.
    private static func equalsIgnoringCase(_ bytes: ArraySlice<UInt8>, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        return lowercase.withUTF8Buffer { expected in
            zip(bytes, expected).allSatisfy { b, e in (b >= 0x41 && b <= 0x5A ? b | 0x20 : b) == e }
        }
    }
}
