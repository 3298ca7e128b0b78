import TapTraceCore
import TapTraceFormats
@testable import TapTraceImport
import TapTraceJSON
import Testing

/// The result document and the problem document an import produces.
struct ImportResultTests {
    @Test func resultDocumentHoldsFormatSceneAndWarnings() throws {
        let result = try ImportFormat.recursiveDescription.parse(Array("""
        <UIView: 0x1; frame = (0 0; 10 10); layer = <CALayer: 0x2>>
        """.utf8))
        let tape = try JSONTape(parsing: result.json(indent: 2))
        let keys = tape.members(tape.root).map { tape.string($0.key) }
        #expect(keys == ["format", "scene", "warnings"])
        #expect(tape.members(tape.root).map { tape.string($0.value) }.first == "recursive-description")
        let sceneNode = try #require(tape.members(tape.root).first { tape.string($0.key) == "scene" }?.value)
        let scene = try InputDecoder.scene(Array(tape.rawBytes(sceneNode)))
        #expect(scene == result.scene)
        let warningsNode = try #require(tape.members(tape.root).first { tape.string($0.key) == "warnings" }?.value)
        #expect(tape.elements(warningsNode).map { tape.string($0) } == result.warnings)
        #expect(result.warnings.contains { $0.contains("layer") })
        #expect(result.sceneJSON() == SceneEncoder.encode(result.scene))
    }

    @Test func formatsByTheirCommandNames() throws {
        #expect(ImportFormat(rawValue: "recursive-description") == .recursiveDescription)
        #expect(ImportFormat(rawValue: "appium") == .appium)
        let appium = try ImportFormat.appium.parse(Array("<XCUIElementTypeWindow x=\"0\" y=\"0\" width=\"5\" height=\"5\"/>".utf8))
        #expect(appium.scene.views.count == 1)
    }

    @Test func problemDocumentNamesLineAndColumn() throws {
        let error = try #require(importError { () throws(ImportError) in
            try ImportFormat.appium.parse(Array("<A>\n  <B x=“1”/>\n</A>".utf8))
        })
        let tape = try JSONTape(parsing: error.problem.json(status: 422))
        func member(_ key: String) -> Int? { tape.member(tape.root, key) }
        #expect(tape.number(try #require(member("status"))) == 422)
        #expect(tape.number(try #require(member("line"))) == 2)
        #expect(tape.number(try #require(member("column"))) == 8)
        #expect(tape.string(try #require(member("type"))) == "https://taptrace.dev/problems/import-syntax")
        #expect(tape.string(try #require(member("detail")))?.hasPrefix("Line 2, column 8: ") == true)
    }
}
