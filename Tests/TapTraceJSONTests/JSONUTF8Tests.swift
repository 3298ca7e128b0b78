@testable import TapTraceJSON
import Testing

/// Strings must be well-formed UTF-8 and their `\u` escapes whole characters: what is not is a
/// syntax error naming its byte offset, never a U+FFFD stored in place of what was sent.
struct JSONUTF8Tests {
    /// `{"k":"ab` + the bytes + `"}`: the bad sequence starts at byte 8.
    @Test(arguments: [
        ("a stray continuation byte", [0x80]),
        ("a lead byte at the end", [0xC3]),
        ("a truncated three-byte sequence", [0xE2, 0x82]),
        ("an overlong '/'", [0xC0, 0xAF]),
        ("an overlong two-byte lead", [0xC1, 0xBF]),
        ("an overlong three-byte NUL", [0xE0, 0x80, 0x80]),
        ("an overlong four-byte sequence", [0xF0, 0x8F, 0xBF, 0xBF]),
        ("an encoded high surrogate", [0xED, 0xA0, 0x80]),
        ("an encoded low surrogate", [0xED, 0xBF, 0xBF]),
        ("past U+10FFFF", [0xF4, 0x90, 0x80, 0x80]),
        ("a byte never in UTF-8", [0xFF]),
        ("a lead byte followed by ASCII", [0xC3, 0x41]),
    ] as [(String, [UInt8])])
    func invalidUTF8IsRefusedWithItsOffset(_ name: String, _ sequence: [UInt8]) {
        let document = Array(#"{"k":"ab"#.utf8) + sequence + Array(#"cd"}"#.utf8)
        do {
            _ = try JSONTape(parsing: document)
            Issue.record("\(name): accepted")
        } catch {
            #expect(error.offset == 8, "\(name): \(error)")
            #expect(error.message == "invalid UTF-8 at byte offset 8", "\(name): \(error)")
        }
    }

    /// Past the eight-bytes-at-a-time scan: the bad byte sits deep in a long string.
    @Test func invalidByteInsideALongStringIsFound() {
        for position in 0..<40 {
            let document = Array("[\"".utf8) + Array(repeating: UInt8(ascii: "x"), count: position) + [0xFE]
                + Array(repeating: UInt8(ascii: "y"), count: 40 - position) + Array("\"]".utf8)
            do {
                _ = try JSONTape(parsing: document)
                Issue.record("accepted with the byte at \(position)")
            } catch {
                #expect(error.offset == 2 + position, "\(error)")
            }
        }
    }

    @Test(arguments: [
        (#"["\ud800"]"#, 2, "high surrogate without a low one"),
        (#"["\ud800x"]"#, 2, "high surrogate without a low one"),
        (#"["ab\udbff\u0041"]"#, 4, "high surrogate without a low one"),
        (#"["\ud800\ud800"]"#, 2, "high surrogate without a low one"),
        (#"["\udc00"]"#, 2, "low surrogate without a high one"),
        (#"["\ud83d\ude00\ude00"]"#, 14, "low surrogate without a high one"),
    ])
    func loneSurrogateEscapesAreRefused(_ text: String, _ offset: Int, _ message: String) {
        do {
            _ = try JSONTape(parsing: text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.offset == offset, "\(text): \(error)")
            #expect(error.message.contains(message) && error.message.contains("byte offset \(offset)"), "\(error.message)")
        }
    }

    @Test func wellFormedTextIsKept() throws {
        // Every length of sequence, at the edges of the ranges Unicode allows, raw and escaped.
        let text = "\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFD}\u{FFFF}\u{10000}\u{10FFFF}é日本😀"
        let raw = try JSONTape(parsing: "[\"" + text + "\"]")
        #expect(raw.string(1) == text)
        let escaped = try JSONTape(parsing: #"["\ud83d\ude00\udbff\udfff\u00e9"]"#)
        #expect(escaped.string(1) == "😀\u{10FFFF}é")
    }
}
