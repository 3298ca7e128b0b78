import Testing
@testable import TapTraceImport

private func elements(_ text: String) throws(ImportError) -> [XMLElement] {
    try XMLReader.elements(try SourceText(Array(text.utf8)))
}

private func xmlError(_ text: String) -> ImportError? {
    do {
        _ = try elements(text)
        return nil
    } catch {
        return error
    }
}

private func column(of needle: String, in line: String) -> Int {
    line.distance(from: line.startIndex, to: line.range(of: needle)!.lowerBound) + 1
}

/// The small XML reader behind the Appium importer: what it accepts, and where it says the
/// input went wrong.
struct XMLReaderTests {
    @Test func declarationCommentsDoctypeSelfClosingAndBothQuotes() throws {
        let e = try elements("""
        \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
        <!-- page source -->
        <!DOCTYPE AppiumAUT>
        <AppiumAUT>
          <A x='1' y="2" label='say "hi"'/>
          <B><!-- inside --><![CDATA[ <not a tag> ]]></B >
        </AppiumAUT>
        <!-- trailing comment -->
        """)
        #expect(e.map(\.name) == ["AppiumAUT", "A", "B"])
        #expect(e[1].parent == 0 && e[2].parent == 0)
        #expect(e[1].tag.selfClosing)
        #expect(e[1].tag.attribute("label")?.value == "say \"hi\"")
        #expect(e[1].tag.attribute("x")?.value == "1")
    }

    @Test func entitiesAndCharacterReferences() throws {
        let strict = try elements("<A v=\"&amp;&lt;&gt;&quot;&apos;|&#10;|&#x263A;\" w=\"a\tb\r\nc\"/>")
        #expect(strict[0].tag.attribute("v")?.value == "&<>\"'|\n|☺")
        // Literal tabs and line ends in a value are spaces (attribute-value normalization).
        #expect(strict[0].tag.attribute("w")?.value == "a b c")
        // Character references are &#x…; with a lowercase x.
        let upper = try #require(xmlError("<A v=\"&#X41;\"/>"))
        #expect((upper.line, upper.column) == (1, 7))
    }

    @Test func typographicQuotesAreNamedWithTheirPosition() throws {
        let line = "<A name=“app” x=\"1\"/>"
        let e = try #require(xmlError("<?xml version=\"1.0\"?>\n" + line))
        #expect((e.line, e.column) == (2, column(of: "“", in: line)))
        #expect(e.message.contains("typographic quote “ (U+201C)"))
        let single = try #require(xmlError("<A name=‘app’/>"))
        #expect((single.line, single.column) == (1, 9))
        #expect(single.message.contains("‘ (U+2018)"))
    }

    @Test func documentsCutOffMidElement() throws {
        let inTag = try #require(xmlError("<A>\n  <B x=\"1\" y=\"2\""))
        #expect((inTag.line, inTag.column) == (2, 17))
        #expect(inTag.message.contains("inside the start tag <B> begun at line 2, column 3"))
        let inValue = try #require(xmlError("<A>\n  <B x=\"1"))
        #expect((inValue.line, inValue.column) == (2, 10))
        #expect(inValue.message.contains("inside the value of attribute x begun at line 2, column 8"))
        let unclosed = try #require(xmlError("<A>\n  <B/>\n"))
        #expect((unclosed.line, unclosed.column) == (3, 1))
        #expect(unclosed.message.contains("<A> opened at line 1, column 1 is still open"))
        let afterLt = try #require(xmlError("<A><"))
        #expect((afterLt.line, afterLt.column) == (1, 5))
        let comment = try #require(xmlError("<A><!-- never closed"))
        #expect(comment.message.contains("missing -->"))
    }

    @Test func structuralErrorsPointAtTheTag() throws {
        let mismatch = try #require(xmlError("<A>\n  <B>\n  </A>\n</B>"))
        #expect((mismatch.line, mismatch.column) == (3, 3))
        #expect(mismatch.message.contains("</A> does not match <B> opened at line 2, column 3"))
        let twoRoots = try #require(xmlError("<A/>\n<B/>"))
        #expect((twoRoots.line, twoRoots.column) == (2, 1))
        let stray = try #require(xmlError("<A/></A>"))
        #expect((stray.line, stray.column) == (1, 5))
        let text = try #require(xmlError("hello <A/>"))
        #expect((text.line, text.column) == (1, 1))
        let empty = try #require(xmlError("<?xml version=\"1.0\"?>\n"))
        #expect(empty.message.contains("no XML element"))
    }

    @Test func attributeErrors() throws {
        let duplicate = try #require(xmlError("<A x=\"1\" x=\"2\"/>"))
        #expect((duplicate.line, duplicate.column) == (1, 10))
        let unquoted = try #require(xmlError("<A x=1/>"))
        #expect((unquoted.line, unquoted.column) == (1, 6))
        let noValue = try #require(xmlError("<A enabled/>"))
        #expect((noValue.line, noValue.column) == (1, 11))
        let glued = try #require(xmlError("<A x=\"1\"y=\"2\"/>"))
        #expect((glued.line, glued.column) == (1, 9))
        let lt = try #require(xmlError("<A x=\"a<b\"/>"))
        #expect((lt.line, lt.column) == (1, 8))
        let entity = try #require(xmlError("<A label=\"Tom &nbsp; Jerry\"/>"))
        #expect((entity.line, entity.column) == (1, 15))
        #expect(entity.message.contains("unknown entity &nbsp;"))
        let amp = try #require(xmlError("<A label=\"Tom & Jerry\"/>"))
        #expect((amp.line, amp.column) == (1, 15))
        let badRef = try #require(xmlError("<A label=\"&#0;\"/>"))
        #expect((badRef.line, badRef.column) == (1, 11))
        let badName = try #require(xmlError("< A/>"))
        #expect((badName.line, badName.column) == (1, 2))
    }

    @Test func positionsCountCharactersAndSurviveCRLF() throws {
        // Columns count characters, not bytes: "é" and "☺" are one column each.
        let accented = try #require(xmlError("<A label=\"é☺\" x=1/>"))
        #expect((accented.line, accented.column) == (1, 17))
        let crlf = try #require(xmlError("<A>\r\n  <B>\r\n  </C>\r\n</A>\r\n"))
        #expect((crlf.line, crlf.column) == (3, 3))
        let invalid = try #require(importError { () throws(ImportError) in
            try AppiumSourceParser.parse(Array("<A>\n  ab".utf8) + [0xFF] + Array("</A>".utf8))
        })
        #expect((invalid.line, invalid.column) == (2, 5))
        #expect(invalid.message.contains("not valid UTF-8"))
    }

    @Test func deepNestingIsIterative() throws {
        let depth = 100_000
        let text = String(repeating: "<O>", count: depth) + String(repeating: "</O>", count: depth)
        let e = try elements(text)
        #expect(e.count == depth)
        #expect(e.last?.parent == depth - 2)
    }
}
