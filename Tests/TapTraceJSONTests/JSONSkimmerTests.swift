@testable import TapTraceJSON
import Testing

/// `JSONSkimmer` finds where values end; it must agree with the parser on every value the
/// parser accepts, and refuse (rather than guess) where the structure is broken.
@Suite struct JSONSkimmerTests {
    /// Skips the value at the start of `text`; returns where it stopped, or nil.
    static func skip(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            var skim = JSONSkimmer(buffer)
            return skim.skipValue() ? skim.pos : nil
        }
    }

    @Test(arguments: [
        #"{"a": [1, 2, {"b": "c"}], "d": null}"#, #"[]"#, #"{}"#, #""plain""#, #""quote \" and \\ and } ]""#,
        #"[" ] } { [", "\\"]"#, #"-12.5e+3"#, #"true"#, #"null"#, #"{"k": "\u007D"}"#,
        #"[[[[[[]]]]]]"#, "{\n\t\"a\" :\r\n 1 }",
    ])
    func endsWhereTheParserSaysTheValueEnds(_ value: String) throws {
        // The parser's view: the raw bytes of the first element of [value, 0].
        let tape = try JSONTape(parsing: "[" + value + ",0]")
        let first = tape.elements(tape.root).first { _ in true }!
        #expect(Self.skip(value + ", 0]") == tape.rawBytes(first).count)
    }

    @Test(arguments: [#"{"a": 1"#, #"["unterminated"#, #""no end"#, #"}"#, #"]"#, "", " 1", #"{"a": "\"}"#])
    func refusesBrokenStructure(_ text: String) {
        #expect(Self.skip(text) == nil)
    }

    @Test func plainStringsOnly() {
        func key(_ text: String) -> (range: Range<Int>?, pos: Int) {
            let bytes = Array(text.utf8)
            return bytes.withUnsafeBufferPointer { buffer in
                var skim = JSONSkimmer(buffer)
                let range = skim.plainString()
                return (range, skim.pos)
            }
        }
        #expect(key(#""scene": 1"#).range == 1..<6)
        #expect(key(#""scene": 1"#).pos == 7)
        #expect(key(#""sc\u0065ne": 1"#).range == nil)
        #expect(key(#""sc\u0065ne": 1"#).pos == 0)
        #expect(key("\"a\nb\"").range == nil)
        #expect(key(#""open"#).range == nil)
        #expect(key("scene").range == nil)
    }

    @Test func whitespaceAndPunctuation() {
        let bytes = Array(" \t\r\n{ }".utf8)
        bytes.withUnsafeBufferPointer { buffer in
            var skim = JSONSkimmer(buffer)
            skim.skipWhitespace()
            #expect(skim.pos == 4)
            let closeFirst = skim.consume(0x7D)
            let open = skim.consume(0x7B)
            skim.skipWhitespace()
            let close = skim.consume(0x7D)
            let end = skim.atEnd
            let closeAgain = skim.consume(0x7D)
            #expect(!closeFirst && open && close && end && !closeAgain)
        }
    }
}
