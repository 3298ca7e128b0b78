/// A request the relay (`ConnectionRelay`) refuses, carried to the access handler so that the
/// server answers it like any other error: in the application's format, in its turn after the
/// responses to earlier pipelined requests, logged, and with the connection closed after it.
///
/// libmicrohttpd answers malformed framing itself, in HTML, before any code of ours runs, and
/// has no hook for it. So the relay never lets such bytes reach it: where a request goes wrong
/// it sends libmicrohttpd a well-formed stand-in instead, marked with a field that names the
/// status and the detail. In a request head that is a whole stand-in request; inside a chunked
/// body, the end of the body with the mark as a trailer field. The mark carries a secret drawn
/// per server (`nonce`), so no client can forge one. Public for the fuzz target only.
@_spi(Fuzzing) public struct RelayRefusal: Error, Equatable, Sendable {
    public let status: Int
    public let detail: String

    /// The field that carries the mark (in the head, or as a trailer field).
    public static let fieldName = "TapTrace-Refusal"

    /// The mark's field line, without its line end: the nonce, the status and the detail,
    /// percent-encoded so that any detail fits a field value.
    public func fieldLine(nonce: String) -> String {
        var encoded = ""
        for byte in detail.utf8 {
            if byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "%") {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return "\(Self.fieldName): \(nonce) \(status) \(encoded)"
    }

    /// The refusal a field value carries, or nil when it is not a mark with this `nonce`
    /// (a client's own field of that name).
    public init?(fieldValue: String, nonce: String) {
        let parts = fieldValue.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == nonce, let status = Int(parts[1]), (400...599).contains(status) else {
            return nil
        }
        self.status = status
        self.detail = PercentDecoding.decode(parts[2])
    }

    public init(status: Int, detail: String) {
        self.status = status
        self.detail = detail
    }

    /// The longest detail a mark carries, in UTF-8 bytes: a detail may quote a field value of
    /// the client's, and the stand-in must stay well within the head limit.
    static let maxDetailBytes = 300

    /// This refusal with its detail cut to `maxDetailBytes` (on a character boundary, with "…").
    func clipped() -> RelayRefusal {
        guard detail.utf8.count > Self.maxDetailBytes else { return self }
        var kept = "", bytes = 0
        for character in detail {
            bytes += character.utf8.count
            guard bytes <= Self.maxDetailBytes - 3 else { break }
            kept.append(character)
        }
        return RelayRefusal(status: status, detail: kept + "…")
    }

    /// 32 hexadecimal digits from the system's random source.
    static func makeNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let word = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - word.count) + word
        }.joined()
    }

    // The refusals the server gives for its size limits, in the relay and in the access handler
    // alike.

    static func bodyTooLarge(limit: Int) -> RelayRefusal {
        RelayRefusal(status: 413, detail: "request body larger than \(limit) bytes")
    }

    static func targetTooLong(limit: Int) -> RelayRefusal {
        RelayRefusal(status: 414, detail: "request target longer than \(limit) bytes")
    }

    static func headTooLarge(limit: Int) -> RelayRefusal {
        RelayRefusal(status: 431, detail: "request header larger than \(limit) bytes")
    }
}
