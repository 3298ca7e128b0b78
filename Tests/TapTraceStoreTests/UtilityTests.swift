import Foundation
import Testing

@testable import TapTraceStore

@Suite("SHA-256, timestamps, ids and cursors")
struct UtilityTests {
    @Test("SHA-256 matches the FIPS 180-4 / NIST test vectors")
    func sha256Vectors() {
        #expect(ContentHash.sha256Hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(ContentHash.sha256Hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            ContentHash.sha256Hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            ContentHash.sha256Hex(
                Array("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu".utf8))
                == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
        #expect(
            ContentHash.sha256Hex(Data(repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // 768 bytes: several blocks, padding in a block of its own.
        #expect(
            ContentHash.sha256Hex(Array((0..<768).map { UInt8($0 % 256) }))
                == "f3a25aa93aa2fbba28d79260535bbd6a5eb0fc1c24a8b0f04e12b484c1dfe363")
        // Lengths around the 55/56/64-byte padding boundaries.
        #expect(ContentHash.sha256Hex(Array(repeating: UInt8(ascii: "a"), count: 55)) == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        #expect(ContentHash.sha256Hex(Array(repeating: UInt8(ascii: "a"), count: 56)) == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        #expect(ContentHash.sha256Hex(Array(repeating: UInt8(ascii: "a"), count: 64)) == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }

    @Test("timestamps are RFC 3339 UTC with milliseconds", arguments: [
        (1_795_327_262.345, "2026-11-22T06:01:02.345Z"),
        (0, "1970-01-01T00:00:00.000Z"),
        (951_868_799.999, "2000-02-29T23:59:59.999Z"),
        (-0.5, "1969-12-31T23:59:59.500Z"),
        // Rounding to the nearest millisecond carries into the next day (leap year), never to ":60".
        (1_709_251_199.9996, "2024-03-01T00:00:00.000Z"),
    ])
    func timestamps(_ seconds: Double, _ expected: String) {
        #expect(Timestamp.rfc3339(Date(timeIntervalSince1970: seconds)) == expected)
    }

    @Test("ids are a prefix and 12 lowercase base32 characters from the generator")
    func ids() {
        struct Fixed: RandomNumberGenerator {
            var value: UInt64
            mutating func next() -> UInt64 { value }
        }
        var zeros = Fixed(value: 0)
        #expect(StoreID.make(prefix: "scn_", using: &zeros) == "scn_aaaaaaaaaaaa")
        var ones = Fixed(value: .max)
        #expect(StoreID.make(prefix: "run_", using: &ones) == "run_777777777777")
        let many = (0..<1000).map { _ in StoreID.make(prefix: "scn_") }
        #expect(Set(many).count == many.count)
        #expect(many.allSatisfy { StoreID.isWellFormed($0, prefix: "scn_") })
        #expect(!StoreID.isWellFormed("scn_ABCDEFGHIJKL", prefix: "scn_"))
        #expect(!StoreID.isWellFormed("run_aaaaaaaaaaaa", prefix: "scn_"))
    }

    @Test("a well-formed id is the prefix and 12 characters of the alphabet, compared as characters would be",
          arguments: ["scn_abcdefghijkl", "scn_234567zzzzzz", "scn_abcdefghijk", "scn_abcdefghijklm", "scn_abcdefghijk1",
                      "scn_abcdefghijk8", "scn_abcdefghijkL", "scn_abcdefghijk_", "scn_abcdefghijk\u{0301}",
                      "scn_abcdefghijk\u{0301}l", "scn_\u{0430}bcdefghijkl", "scn_abcdefghijké", "sc\u{0301}n_abcdefghijkl",
                      "scn_\u{0301}abcdefghijkl", "SCN_abcdefghijkl", "scnabcdefghijkl", "", "scn_", "run_abcdefghijkl",
                      "scn_abc\u{0}efghijkl", "scn_abcdefghijkl\n", " scn_abcdefghijkl"])
    func wellFormedIDs(_ id: String) {
        // The definition the byte check replaced, on characters: the two must agree.
        let reference = id.hasPrefix("scn_") && id.dropFirst(4).count == 12
            && id.dropFirst(4).allSatisfy { Array("abcdefghijklmnopqrstuvwxyz234567").contains($0) }
        #expect(StoreID.isWellFormed(id, prefix: "scn_") == reference)
    }

    @Test("the alphabet's bytes are the 32 characters of both alphabets and no others")
    func alphabetBytes() {
        let accepted = (0...255).map(UInt8.init).filter(StoreID.isAlphabetByte)
        #expect(accepted == Array("234567abcdefghijklmnopqrstuvwxyz".utf8))
        #expect(Set(accepted) == Set(StoreID.alphabet.map { $0.asciiValue! }))
        #expect(accepted == StoreID.sortedAlphabet)
    }

    @Test("cursors round-trip and reject foreign or malformed text")
    func cursors() throws {
        let cursor = PageCursor(listing: .runs, seq: 123_456_789)
        #expect(!cursor.encoded.contains("="))
        #expect(try PageCursor(decoding: cursor.encoded, for: .runs) == cursor)
        #expect(throws: StoreError.invalidCursor(cursor.encoded)) { try PageCursor(decoding: cursor.encoded, for: .scenes) }
        for bad in ["", "!!", "djE6cnVuczp4", "djE6cnVuczotMQ"] {  // "v1:runs:x", "v1:runs:-1"
            #expect(throws: StoreError.invalidCursor(bad)) { try PageCursor(decoding: bad, for: .runs) }
        }
    }

    @Test("StoreLocation maps :memory: to an in-memory database")
    func locations() {
        #expect(StoreLocation(path: ":memory:") == .inMemory)
        #expect(StoreLocation(path: "/tmp/x.sqlite") == .file("/tmp/x.sqlite"))
    }
}
