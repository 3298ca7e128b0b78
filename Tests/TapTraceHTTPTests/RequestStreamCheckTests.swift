import Testing

@_spi(Fuzzing) @testable import TapTraceHTTP

/// The relay's reading of a request stream by itself, without sockets (decision 145).
@Suite struct RequestStreamCheckTests {
    static let limits = RequestStreamCheck.Limits(maxHeaderBytes: 1024, maxURILength: 256, maxBodyBytes: 4096)
    static let nonce = "0123456789abcdef0123456789abcdef"

    /// Feeds `stream` in pieces of `piece` bytes: what is passed on, and the refusal.
    static func check(_ stream: [UInt8], piece: Int = .max) -> (output: [UInt8], refusal: RelayRefusal?) {
        var check = RequestStreamCheck(limits: limits, nonce: nonce)
        var output: [UInt8] = []
        var refusal: RelayRefusal?
        var offset = 0
        while offset < stream.count {
            let end = offset + min(piece, stream.count - offset)
            let found = stream[offset..<end].withUnsafeBytes { check.consume($0, into: &output) }
            refusal = refusal ?? found
            offset = end
        }
        return (output, refusal)
    }

    static func check(_ text: String, piece: Int = .max) -> (output: String, refusal: RelayRefusal?) {
        let (output, refusal) = check(Array(text.utf8), piece: piece)
        return (String(decoding: output, as: UTF8.self), refusal)
    }

    static let wellFormed = "GET /a HTTP/1.1\r\nHost: a\r\n\r\n"
        + "POST /b HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello"
        + "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\nA\r\n0123456789\r\n0\r\nT: 1\r\n\r\n"
        + "GET /d HTTP/1.0\n\n"

    @Test(arguments: [1, 2, 3, 7, 64, Int.max])
    func wellFormedStreamsPassUnchanged(piece: Int) {
        let (output, refusal) = Self.check(Self.wellFormed, piece: piece)
        #expect(refusal == nil)
        #expect(output == Self.wellFormed)
    }

    @Test func emptyLinesBeforeARequestAreSkipped() {
        let (output, refusal) = Self.check("\r\n\r\nGET /a HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(refusal == nil)
        #expect(output == "GET /a HTTP/1.1\r\nHost: a\r\n\r\n")
    }

    @Test func aBodyIsNotReadAsAHead() {
        // The body looks like a request that would be refused; it is only a body.
        let body = "GET / HTTP/9.9\r\n\r\n"
        let stream = "POST /b HTTP/1.1\r\nHost: a\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        #expect(Self.check(stream, piece: 1).refusal == nil)
    }

    @Test func aRefusedHeadBecomesAStandIn() throws {
        let (output, refusal) = Self.check("GET /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/2.0\r\nHost: a\r\n\r\nGET /c HTTP/1.1\r\n\r\n",
                                           piece: 5)
        #expect(refusal == RelayRefusal(status: 505, detail: "HTTP/2.0 is not supported; send HTTP/1.1"))
        let mark = try #require(refusal).fieldLine(nonce: Self.nonce)
        #expect(output == "GET /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: localhost\r\n\(mark)\r\n\r\n",
                "the earlier request passes, the refused one is replaced, nothing after it passes")
    }

    @Test func aRefusalPartWayThroughAChunkedBodyEndsTheBody() throws {
        let head = "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
        let cases: [(stream: String, passed: String, ending: String)] = [
            (head + "3\r\nabc\r\nzz\r\n", head + "3\r\nabc\r\n", "0\r\n"),
            (head + "3\r\nabcd\r\n", head + "3\r\nabc", "\r\n0\r\n"),
            (head + "3\r\nabc\r\n0\r\nbad trailer\r\n\r\n", head + "3\r\nabc\r\n0\r\n", ""),
        ]
        for (stream, passed, ending) in cases {
            let (output, refusal) = Self.check(stream, piece: 1)
            let mark = try #require(refusal).fieldLine(nonce: Self.nonce)
            #expect(output == passed + ending + mark + "\r\n\r\n", "\(stream.debugDescription)")
        }
    }

    @Test func limits() {
        let long = String(repeating: "a", count: 300)
        #expect(Self.check("GET /\(long) HTTP/1.1\r\nHost: a\r\n\r\n").refusal?.status == 414)
        #expect(Self.check("GET /\(long + long + long + long) HTTP/1.1").refusal?.status == 414,
                "refused before the line ends")
        #expect(Self.check("GET / HTTP/1.1\r\nHost: a\r\nX: \(long + long + long + long)").refusal?.status == 431,
                "refused before the head ends")
        #expect(Self.check("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4097\r\n\r\n").refusal?.status == 413)
        #expect(Self.check("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4096\r\n\r\n").refusal == nil)
        #expect(Self.check("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1001\r\n").refusal?.status == 413)
        #expect(Self.check("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1;\(String(repeating: "x", count: 5000))")
            .refusal?.status == 400, "a chunk-size line is bounded")
    }

    @Test func framingGoesByTheHTTPServersRules() {
        #expect(Self.check("GET / HTTP/1.1\r\n\r\n").refusal?.detail == "the request has no Host header field; HTTP/1.1 requires one")
        #expect(Self.check("GET / HTTP/1.0\r\n\r\n").refusal == nil)
        #expect(Self.check("GET / HTTP/1.2\r\n\r\n").refusal?.status == 400, "1.2 is read as 1.1, which needs a Host")
        #expect(Self.check("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n")
            .refusal?.status == 400)
        #expect(Self.check("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n").refusal?.status == 501)
    }

    /// Found by the fuzz target: a target with invalid UTF-8 came back in the stand-in with
    /// U+FFFD for each bad byte, longer than the limit and not what was sent.
    @Test func aStandInRepeatsTheTargetByteForByte() throws {
        let target: [UInt8] = Array("/v1/sc".utf8) + [UInt8](repeating: 0xE7, count: 200) + Array("nes".utf8)
        let stream = Array("POST ".utf8) + target + Array(" HTTP/2.1\r\nHost: a\r\n\r\n".utf8)
        let (output, refusal) = Self.check(stream)
        #expect(refusal?.status == 505)
        #expect(output.starts(with: Array("POST ".utf8) + target + Array(" HTTP/1.1\r\n".utf8)))
        #expect(Self.check(output).refusal == nil, "the stand-in is read again without a refusal")
    }

    /// Found by the fuzz target: a detail that quotes a long field value made the stand-in's head
    /// larger than the limit (libmicrohttpd would have answered it itself).
    @Test func aLongDetailIsClippedInTheMark() throws {
        let value = String(repeating: "\u{00FF}", count: 150)
        let (output, refusal) = Self.check("POST /v1/scenes HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: \(value)\r\n\r\n")
        let clipped = try #require(refusal)
        #expect(clipped.status == 501)
        #expect(clipped.detail.utf8.count <= RelayRefusal.maxDetailBytes && clipped.detail.hasSuffix("…"))
        #expect(output.count < Self.limits.maxHeaderBytes)
        #expect(Self.check(output).refusal == nil)
    }

    /// Found by the fuzz target: a field line that was both wrong and past the head limit was
    /// refused for what was wrong when it arrived whole, for its size when it arrived in pieces.
    @Test func aLineBothWrongAndTooLargeIsRefusedForItsSizeHoweverItArrives() {
        let stream = "GET / HTTP/1.1\r\nHost: a\r\nX: \(String(repeating: "v", count: 1100))\u{01}\r\n\r\n"
        for piece in [1, 5, Int.max] {
            #expect(Self.check(stream, piece: piece).refusal == .headTooLarge(limit: Self.limits.maxHeaderBytes), "pieces of \(piece)")
        }
    }

    @Test func theMarkCarriesAnyDetailAndOnlyWithItsNonce() {
        let refusal = RelayRefusal(status: 400, detail: "field 'ä%' has\ta value")
        let line = refusal.fieldLine(nonce: Self.nonce)
        #expect(line.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "the field line is plain ASCII")
        let value = String(line.dropFirst("\(RelayRefusal.fieldName): ".count))
        #expect(RelayRefusal(fieldValue: value, nonce: Self.nonce) == refusal)
        #expect(RelayRefusal(fieldValue: value, nonce: String(Self.nonce.reversed())) == nil)
        #expect(RelayRefusal(fieldValue: "\(Self.nonce) 200 fine", nonce: Self.nonce) == nil, "only error statuses")
        #expect(RelayRefusal.makeNonce().count == 32)
        #expect(RelayRefusal.makeNonce() != RelayRefusal.makeNonce())
    }

    /// Every byte is looked at a bounded number of times, however the stream is split: a head
    /// at the limit sent a byte at a time, and a large body, cost no more than a few passes.
    @Test func linearInTheInput() {
        let limits = RequestStreamCheck.Limits(maxHeaderBytes: 1 << 20, maxURILength: 1 << 10, maxBodyBytes: 64 << 20)
        var head = "POST / HTTP/1.1\r\nHost: a\r\n"
        while head.utf8.count < (1 << 20) - 100 { head += "X-Field: \(String(repeating: "v", count: 200))\r\n" }
        let body = [UInt8](repeating: 0x61, count: 32 << 20)
        let stream = Array((head + "Content-Length: \(body.count)\r\n\r\n").utf8)
        var check = RequestStreamCheck(limits: limits, nonce: Self.nonce)
        var output: [UInt8] = []
        output.reserveCapacity(stream.count + body.count)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for byte in stream {
                _ = withUnsafeBytes(of: byte) { check.consume($0, into: &output) }
            }
            _ = body.withUnsafeBytes { check.consume($0, into: &output) }
        }
        #expect(output.count == stream.count + body.count)
        // A quadratic scan of the head alone would take minutes.
        #expect(elapsed < .seconds(20))
    }
}
