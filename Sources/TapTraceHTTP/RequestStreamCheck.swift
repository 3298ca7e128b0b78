/// Reads what a client sends on one connection, request after request, and passes on only what
/// frames unambiguously (RFC 9112): each request head once it is complete and well formed,
/// bodies by their `Content-Length` or their chunks. The first thing wrong ends the stream with a
/// stand-in that carries the refusal (`RelayRefusal`), and nothing after it is passed on.
///
/// It is as strict as libmicrohttpd or stricter, everywhere, so that libmicrohttpd never meets
/// a request it would refuse by itself (in HTML); what it checks:
/// - the request line: a token method, one space, a target of visible ASCII or non-ASCII
///   bytes, one space, `HTTP/1.x` (another major version is 505); empty lines before it are
///   skipped (RFC 9112 §2.2);
/// - field lines: a token name directly followed by `:`, a value without control characters;
///   no obsolete line folding, no bare CR (§5.1, §5.2, §2.2);
/// - the head's size (431), the target's length (414), the declared body size (413);
/// - the framing of `HTTPServer.framingRejection` (Host, Content-Length, Transfer-Encoding);
/// - chunks: a hexadecimal size directly followed by an extension or CRLF, the data followed by
///   CRLF, trailer fields as field lines (§7.1).
///
/// Linear in the input however it is split: each byte is looked at a bounded number of times.
/// Public for the fuzz target only (`@_spi(Fuzzing)`, docs/fuzzing.md).
@_spi(Fuzzing) public struct RequestStreamCheck {
    public struct Limits: Sendable {
        public var maxHeaderBytes: Int
        public var maxURILength: Int
        public var maxBodyBytes: Int

        public init(maxHeaderBytes: Int, maxURILength: Int, maxBodyBytes: Int) {
            self.maxHeaderBytes = maxHeaderBytes
            self.maxURILength = maxURILength
            self.maxBodyBytes = maxBodyBytes
        }
    }

    public enum State: Equatable, Sendable {
        /// Reading a request head (or the empty lines before one).
        case head
        /// Passing on a body of known length: this many bytes are left.
        case body(remaining: UInt64)
        /// Reading a chunk-size line.
        case chunkSize
        /// Passing on chunk data: this many bytes are left.
        case chunkData(remaining: UInt64)
        /// Reading the CRLF after chunk data.
        case chunkEnd
        /// Reading the trailer section after the last chunk.
        case trailer
        /// Refused: the rest of the stream is dropped.
        case refused
    }

    /// Longest chunk-size line accepted, extensions included.
    static let maxChunkLineBytes = 4096

    public let limits: Limits
    public let nonce: String
    public private(set) var state: State = .head

    /// The bytes of the head, chunk-size line, chunk end or trailer section being read, not yet
    /// passed on.
    private var pending: [UInt8] = []
    /// Where the line being read starts in `pending`.
    private var lineStart = 0
    /// Whether the request line of the head being read has arrived.
    private var requestLineRead = false
    /// Method and target of the request being read, once known to be well formed: the stand-in
    /// of a refused head repeats them byte for byte, so that the request log shows what was
    /// refused.
    private var standIn: (method: [UInt8], target: [UInt8])?
    private var httpVersion = "HTTP/1.1"
    /// What decides the framing, of the head being read: how many `Host` fields, and the
    /// values of `Content-Length` and `Transfer-Encoding` (`HTTPServer.framingRejection`).
    private var hostFields = 0
    private var contentLengths: [String] = []
    private var transferEncodings: [String] = []
    /// Field lines read so far in the head or trailer section being read, for messages.
    private var fieldLines = 0
    /// Empty lines skipped before the request line, in bytes.
    private var skippedBytes = 0

    public init(limits: Limits, nonce: String) {
        self.limits = limits
        self.nonce = nonce
    }

    /// Checks `input`, the next bytes from the client, and appends to `output` what may be
    /// passed on. Returns the refusal when `input` turned out wrong: `output` then ends with its
    /// stand-in, and later input is ignored.
    public mutating func consume(_ input: UnsafeRawBufferPointer, into output: inout [UInt8]) -> RelayRefusal? {
        var index = 0
        let count = input.count
        while index < count {
            switch state {
            case .refused:
                return nil
            case .body(let remaining), .chunkData(let remaining):
                let taken = Int(min(remaining, UInt64(count - index)))
                output.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[index..<(index + taken)]))
                index += taken
                let left = remaining - UInt64(taken)
                if case .body = state {
                    state = left == 0 ? .head : .body(remaining: left)
                } else {
                    state = left == 0 ? .chunkEnd : .chunkData(remaining: left)
                }
            case .head, .chunkSize, .chunkEnd, .trailer:
                let rest = UnsafeRawBufferPointer(rebasing: input[index...])
                if let newline = rest.firstIndex(of: 0x0A) {
                    pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[..<(newline + 1)]))
                    index += newline + 1
                    // The size first, as when the line arrives in pieces: a line that crosses
                    // the limit is refused for its size whatever else is wrong with it.
                    if let refusal = sizeRefusal() ?? lineRead(output: &output) { return refuse(refusal, into: &output) }
                } else {
                    pending.append(contentsOf: rest)
                    index = count
                    if let refusal = sizeRefusal() { return refuse(refusal, into: &output) }
                }
            }
        }
        return nil
    }

    // MARK: lines

    /// A line (ending with LF) has been added to `pending`.
    private mutating func lineRead(output: inout [UInt8]) -> RelayRefusal? {
        let line = pending[lineStart...]
        switch state {
        case .head:
            let content = Self.content(of: line)
            if content.contains(0x0D) { return RelayRefusal(status: 400, detail: "the request head has a bare CR; lines end with CRLF") }
            if !requestLineRead {
                if content.isEmpty {
                    skippedBytes += line.count
                    pending.removeAll(keepingCapacity: true)
                    return nil
                }
                requestLineRead = true
                if let refusal = readRequestLine(content) { return refusal }
            } else if content.isEmpty {
                return headRead(output: &output)
            } else if let refusal = readField(content, in: .header) {
                return refusal
            }
            lineStart = pending.count
        case .chunkSize:
            guard let content = Self.contentEndingWithCRLF(line) else {
                return RelayRefusal(status: 400, detail: "a chunk-size line ends without CR before its LF")
            }
            switch Self.chunkSize(content, limit: limits.maxBodyBytes) {
            case .failure(let refusal):
                return refusal
            case .success(let size):
                passPending(to: &output)
                state = size == 0 ? .trailer : .chunkData(remaining: size)
            }
        case .chunkEnd:
            guard pending.count == 2, pending[0] == 0x0D else { return chunkEndRefusal }
            passPending(to: &output)
            state = .chunkSize
        case .trailer:
            let content = Self.content(of: line)
            if content.contains(0x0D) { return RelayRefusal(status: 400, detail: "the trailer section has a bare CR; lines end with CRLF") }
            if content.isEmpty {
                passPending(to: &output)
                fieldLines = 0
                state = .head
            } else if let refusal = readField(content, in: .trailer) {
                return refusal
            } else {
                lineStart = pending.count
            }
        case .body, .chunkData, .refused:
            break
        }
        return nil
    }

    /// The refusal once `pending` has grown past what its part of the stream may hold, before
    /// its end has arrived.
    private func sizeRefusal() -> RelayRefusal? {
        switch state {
        case .head:
            if !requestLineRead, pending.count > limits.maxURILength + 32, pending.count > limits.maxHeaderBytes {
                return .targetTooLong(limit: limits.maxURILength)
            }
            if pending.count + skippedBytes > limits.maxHeaderBytes { return .headTooLarge(limit: limits.maxHeaderBytes) }
        case .chunkSize:
            if pending.count > Self.maxChunkLineBytes {
                return RelayRefusal(status: 400, detail: "a chunk-size line is longer than \(Self.maxChunkLineBytes) bytes")
            }
        case .chunkEnd:
            if pending.count > 2 || pending.first.map({ $0 != 0x0D }) == true { return chunkEndRefusal }
        case .trailer:
            if pending.count > limits.maxHeaderBytes { return .headTooLarge(limit: limits.maxHeaderBytes) }
        case .body, .chunkData, .refused:
            break
        }
        return nil
    }

    private var chunkEndRefusal: RelayRefusal {
        RelayRefusal(status: 400, detail: "chunk data is not followed by CRLF; a chunk holds exactly the bytes its size says")
    }

    /// The request line: `method SP target SP HTTP/1.x`.
    private mutating func readRequestLine(_ line: ArraySlice<UInt8>) -> RelayRefusal? {
        let shape = "the request line is not 'METHOD target HTTP/1.1' with one space between each"
        guard let firstSpace = line.firstIndex(of: 0x20) else { return RelayRefusal(status: 400, detail: shape) }
        let method = line[..<firstSpace]
        let afterMethod = line[(firstSpace + 1)...]
        guard let secondSpace = afterMethod.firstIndex(of: 0x20) else { return RelayRefusal(status: 400, detail: shape) }
        let target = afterMethod[..<secondSpace]
        let version = afterMethod[(secondSpace + 1)...]
        guard !method.isEmpty, method.allSatisfy(Self.isTokenByte) else {
            return RelayRefusal(status: 400, detail: "the request method is not a token")
        }
        guard !target.isEmpty else { return RelayRefusal(status: 400, detail: shape) }
        guard target.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else {
            return RelayRefusal(status: 400, detail: "the request target has a control character or a space in it")
        }
        if target.count > limits.maxURILength { return .targetTooLong(limit: limits.maxURILength) }
        standIn = (Array(method), Array(target))
        let bytes = Array(version)
        guard bytes.count == 8, bytes[0..<5].elementsEqual("HTTP/".utf8), bytes[6] == UInt8(ascii: "."),
              Self.isDigit(bytes[5]), Self.isDigit(bytes[7]) else {
            return RelayRefusal(status: 400, detail: shape)
        }
        guard bytes[5] == UInt8(ascii: "1") else {
            return RelayRefusal(status: 505, detail: "\(String(decoding: bytes, as: UTF8.self)) is not supported; send HTTP/1.1")
        }
        // A later HTTP/1 minor version is served as 1.1 (RFC 9110 §6.2), as libmicrohttpd does.
        httpVersion = bytes[7] == UInt8(ascii: "0") ? "HTTP/1.0" : "HTTP/1.1"
        return nil
    }

    /// A field line of the head or the trailer section: `name: value`.
    /// Where a field line is, as messages name it.
    private enum FieldSection: String {
        case header, trailer
    }

    private mutating func readField(_ line: ArraySlice<UInt8>, in section: FieldSection) -> RelayRefusal? {
        fieldLines += 1
        let number = fieldLines
        if line.first == 0x20 || line.first == 0x09 {
            return RelayRefusal(status: 400, detail: "\(section.rawValue) field line \(number) starts with whitespace (obsolete line folding); "
                + "send each field on one line")
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            return RelayRefusal(status: 400, detail: "\(section.rawValue) field line \(number) has no ':'")
        }
        let name = line[..<colon]
        guard !name.isEmpty, name.allSatisfy(Self.isTokenByte) else {
            return RelayRefusal(status: 400, detail: "the name of \(section.rawValue) field line \(number) is not a token "
                + "(no space may come before the ':')")
        }
        var value = line[(colon + 1)...]
        guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
            return RelayRefusal(status: 400, detail: "\(section.rawValue) field '\(String(decoding: name, as: UTF8.self))' has a control character in its value")
        }
        // Only the head's fields that decide the framing are kept: the others, and trailer
        // fields, pass on as they came.
        guard section == .header else { return nil }
        if Self.equalIgnoringCase(name, Self.host) {
            hostFields += 1
            return nil
        }
        let isLength = Self.equalIgnoringCase(name, Self.contentLength)
        guard isLength || Self.equalIgnoringCase(name, Self.transferEncoding) else { return nil }
        while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
        while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
        if isLength {
            contentLengths.append(String(decoding: value, as: UTF8.self))
        } else {
            transferEncodings.append(String(decoding: value, as: UTF8.self))
        }
        return nil
    }

    private static let host = Array("host".utf8)
    private static let contentLength = Array("content-length".utf8)
    private static let transferEncoding = Array("transfer-encoding".utf8)

    /// Whether `name` is `lowercased` in any case (ASCII).
    private static func equalIgnoringCase(_ name: ArraySlice<UInt8>, _ lowercased: [UInt8]) -> Bool {
        name.count == lowercased.count && zip(name, lowercased).allSatisfy { ($0 | 0x20) == $1 }
    }

    /// The blank line after the fields: decides the framing and passes the head on.
    private mutating func headRead(output: inout [UInt8]) -> RelayRefusal? {
        var body: UInt64 = 0
        var lengthIsValid = true
        if contentLengths.count == 1, transferEncodings.isEmpty {
            let lengthField = contentLengths[0]
            if let length = HTTPHeaders.contentLength(lengthField) {
                if length > UInt64(limits.maxBodyBytes) { return .bodyTooLarge(limit: limits.maxBodyBytes) }
                body = length
            } else {
                let digits = lengthField.utf8.filter { $0 != 0x20 && $0 != 0x09 }
                // All digits, but past 2^64.
                if !digits.isEmpty, digits.allSatisfy(Self.isDigit) { return .bodyTooLarge(limit: limits.maxBodyBytes) }
                lengthIsValid = false
            }
        }
        // The common head (one Host, at most one valid length, no coding) needs no more; any
        // other goes by the HTTP server's rules and their messages.
        let plain = (hostFields == 1 || (hostFields == 0 && httpVersion == "HTTP/1.0"))
            && contentLengths.count <= 1 && lengthIsValid && transferEncodings.isEmpty
        if !plain {
            let headers = HTTPHeaders(Array(repeating: ("Host", ""), count: hostFields)
                + contentLengths.map { ("Content-Length", $0) } + transferEncodings.map { ("Transfer-Encoding", $0) })
            if let framing = HTTPServer.framingRejection(headers, httpVersion: httpVersion) {
                return RelayRefusal(status: framing.status, detail: framing.detail)
            }
        }
        let chunked = !transferEncodings.isEmpty
        passPending(to: &output)
        requestLineRead = false
        standIn = nil
        hostFields = 0
        contentLengths = []
        transferEncodings = []
        fieldLines = 0
        skippedBytes = 0
        state = chunked ? .chunkSize : (body > 0 ? .body(remaining: body) : .head)
        return nil
    }

    // MARK: refusing

    /// Ends `output` with the stand-in for what went wrong where the stream is.
    private mutating func refuse(_ found: RelayRefusal, into output: inout [UInt8]) -> RelayRefusal {
        let refusal = found.clipped()
        let mark = refusal.fieldLine(nonce: nonce)
        switch state {
        case .chunkSize:
            // Nothing of this line was passed on: end the body here.
            output.append(contentsOf: "0\r\n\(mark)\r\n\r\n".utf8)
        case .chunkEnd:
            output.append(contentsOf: "\r\n0\r\n\(mark)\r\n\r\n".utf8)
        case .trailer:
            // The last chunk was passed on; none of the trailer section was.
            output.append(contentsOf: "\(mark)\r\n\r\n".utf8)
        case .head, .body, .chunkData, .refused:
            // A whole request in place of the refused head. A target that is too long, or that
            // would make the stand-in's head too large, is not repeated.
            var (method, target) = standIn ?? (Array("-".utf8), Array("*".utf8))
            if refusal.status == 414 || method.count + target.count + mark.utf8.count + 64 > limits.maxHeaderBytes {
                (method, target) = (Array("-".utf8), Array("*".utf8))
            }
            output.append(contentsOf: method + [0x20] + target)
            output.append(contentsOf: " HTTP/1.1\r\nHost: localhost\r\n\(mark)\r\n\r\n".utf8)
        }
        state = .refused
        pending = []
        return refusal
    }

    private mutating func passPending(to output: inout [UInt8]) {
        output.append(contentsOf: pending)
        pending.removeAll(keepingCapacity: pending.capacity <= 16 << 10)
        lineStart = 0
    }

    // MARK: bytes

    /// A line without its LF and the CR before it, if any.
    private static func content(of line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var content = line.dropLast()
        if content.last == 0x0D { content = content.dropLast() }
        return content
    }

    /// A line without its CRLF, or nil when it ends with a bare LF.
    private static func contentEndingWithCRLF(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let content = line.dropLast()
        guard content.last == 0x0D else { return nil }
        return content.dropLast()
    }

    /// The size of a chunk-size line (`1*HEXDIG [ ";" chunk-ext ]`), or its refusal.
    static func chunkSize(_ line: ArraySlice<UInt8>, limit: Int) -> Result<UInt64, RelayRefusal> {
        let digits = line.prefix(while: { PercentDecoding.hexValue($0) != nil })
        let rest = line.dropFirst(digits.count)
        guard !digits.isEmpty, rest.isEmpty || rest.first == UInt8(ascii: ";"),
              rest.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
            return .failure(RelayRefusal(status: 400, detail: "a chunk-size line is not a hexadecimal size (with an optional ';' extension)"))
        }
        let significant = digits.drop(while: { $0 == UInt8(ascii: "0") })
        guard significant.count <= 16 else { return .failure(.bodyTooLarge(limit: limit)) }
        let size = significant.reduce(UInt64(0)) { $0 << 4 | UInt64(PercentDecoding.hexValue($1)!) }
        guard size <= UInt64(limit) else { return .failure(.bodyTooLarge(limit: limit)) }
        return .success(size)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// `tchar` (RFC 9110 §5.6.2).
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
