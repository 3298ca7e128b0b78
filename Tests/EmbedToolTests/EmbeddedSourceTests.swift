import Testing
@testable import taptrace_embed

/// The literals `taptrace-embed` writes must hold any text exactly: a raw string ends at the
/// first `"""` followed by its number of `#`s, and `\` followed by them is an escape.
struct EmbeddedSourceTests {
    /// The value Swift gives a multi-line raw literal that contains no escape: the lines
    /// between the delimiter lines.
    static func value(of literal: String, hashes: Int) -> String? {
        let h = String(repeating: "#", count: hashes)
        let open = h + "\"\"\"\n", close = "\n\"\"\"" + h
        guard literal.hasPrefix(open), literal.hasSuffix(close) else { return nil }
        let inner = literal.dropFirst(open.count).dropLast(close.count)
        // Nothing inside may end the literal or start an escape.
        guard !inner.contains("\"\"\"" + h), !inner.contains("\\" + h) else { return nil }
        return String(inner)
    }

    @Test(arguments: [
        ("plain", "let x = 1;\n", 1),
        ("backslashes", #"a\nb \t "quoted" \\"#, 1),
        ("a raw delimiter", "x = #\"\"\"\ny\n\"\"\"#\n", 2),
        ("an escape with one hash", ##"\#(x)"##, 2),
        ("both, with two hashes", "\"\"\"## and \\##", 3),
        ("empty", "", 1),
        ("no final newline", "last line", 1),
    ])
    func literalHoldsTheTextExactly(_ name: String, _ text: String, _ hashes: Int) throws {
        let literal = try EmbeddedSource.literal(text, name: name)
        #expect(Self.value(of: literal, hashes: hashes) == text, "\(name): \(literal)")
    }

    @Test func carriageReturnsAreRefused() {
        #expect(throws: EmbedError.self) { try EmbeddedSource.literal("a\r\nb", name: "crlf.txt") }
    }

    @Test func namesThatWouldBreakTheSourceAreRefused() {
        #expect(throws: EmbedError.self) { try EmbeddedSource.render(type: "T", files: [("a\"b.js", "x")]) }
    }

    @Test func theSourceDeclaresTheTypeWithEveryFileInOrder() throws {
        let source = try EmbeddedSource.render(type: "EmbeddedThings", files: [("b.sql", "B"), ("a.sql", "A")])
        #expect(source.contains("enum EmbeddedThings {"))
        let b = try #require(source.range(of: "(\"b.sql\", #\"\"\"\nB\n\"\"\"#),"))
        let a = try #require(source.range(of: "(\"a.sql\", #\"\"\"\nA\n\"\"\"#),"))
        #expect(b.lowerBound < a.lowerBound)
    }
}
