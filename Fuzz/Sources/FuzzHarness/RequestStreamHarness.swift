@_spi(Fuzzing) import TapTraceHTTP

/// The relay's reading of what a client sends (`RequestStreamCheck`, decision 145): the input is
/// the bytes of one connection. Read whole and in pieces (of sizes the input's first byte
/// chooses), it must pass on the same bytes and refuse the same way; what it passes on, stand-in
/// included, must pass a second reading unchanged (so libmicrohttpd only ever reads what the
/// relay accepts, and the stand-ins are well formed); and a refusal's mark must read back as
/// the refusal.
public enum RequestStreamHarness {
    static let limits = RequestStreamCheck.Limits(maxHeaderBytes: 2048, maxURILength: 512, maxBodyBytes: 4096)
    static let nonce = "00112233445566778899aabbccddeeff"

    public static func run(_ bytes: [UInt8]) -> Int32 {
        let whole = read(bytes, piece: bytes.count)
        let piece = 1 + Int(bytes.first ?? 0) % 13
        let pieces = read(bytes, piece: piece)
        Check.that(whole.output == pieces.output, "the bytes passed on depend on how the input is split (pieces of \(piece))")
        Check.that(whole.refusal == pieces.refusal,
                   "the refusal depends on how the input is split: \(String(describing: whole.refusal)) against \(String(describing: pieces.refusal))")

        let again = read(whole.output, piece: whole.output.count)
        Check.that(again.refusal == nil, "what was passed on is refused when read again: \(String(describing: again.refusal))")
        Check.that(again.output == whole.output, "what was passed on changes when read again")

        if let refusal = whole.refusal {
            Check.that((400...599).contains(refusal.status), "a refusal's status is \(refusal.status)")
            let line = refusal.fieldLine(nonce: nonce)
            Check.that(whole.output.ends(with: Array((line + "\r\n\r\n").utf8)), "the stand-in does not end with its mark")
            let value = String(line.dropFirst(RelayRefusal.fieldName.count + 2))
            Check.that(RelayRefusal(fieldValue: value, nonce: nonce) == refusal, "the mark does not read back as its refusal")
        }
        return FuzzVerdict.ran
    }

    static func read(_ bytes: [UInt8], piece: Int) -> (output: [UInt8], refusal: RelayRefusal?) {
        var check = RequestStreamCheck(limits: limits, nonce: nonce)
        var output: [UInt8] = []
        var refusal: RelayRefusal?
        var offset = 0
        while offset < bytes.count {
            let end = offset + min(max(1, piece), bytes.count - offset)
            let found = bytes[offset..<end].withUnsafeBytes { check.consume($0, into: &output) }
            refusal = refusal ?? found
            offset = end
        }
        return (output, refusal)
    }
}

extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
    }
}
