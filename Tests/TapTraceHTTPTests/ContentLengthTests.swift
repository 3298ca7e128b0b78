import Testing

@testable import TapTraceHTTP

/// `Content-Length` is read byte by byte (the 413 check before any body is read).
@Suite struct ContentLengthTests {
    @Test(arguments: [
        ("0", 0), ("20480", 20_480), (" 42", 42), ("42\t", 42), (" \t7 \t", 7),
        ("18446744073709551615", UInt64.max), ("0000012", 12),
    ] as [(String, UInt64)])
    func valid(_ text: String, _ expected: UInt64) {
        #expect(HTTPHeaders.contentLength(text) == expected)
    }

    @Test(arguments: ["", " ", "-1", "+1", "1 2", "12a", "0x10", "1.0", "18446744073709551616", "99999999999999999999", "١٢"])
    func invalid(_ text: String) {
        #expect(HTTPHeaders.contentLength(text) == nil)
    }

    @Test("every value up to 100,000 reads back as Swift's own parser reads it")
    func agreesWithUInt64() {
        for n in 0...100_000 {
            #expect(HTTPHeaders.contentLength(String(n)) == UInt64(n))
        }
    }
}
