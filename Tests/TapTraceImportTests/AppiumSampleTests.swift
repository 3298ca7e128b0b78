import Testing
import TapTraceCore
@testable import TapTraceImport

/// The real Appium page sources import (or, the malformed ones, are refused at the exact line
/// and column), and points chosen by reading them hit the element a person would expect.
struct AppiumSampleTests {
    @Test func shiratesSignUpScreen() throws {
        let s = try Imported.appium(try Fixtures.named("appium_pagesource_01"))
        #expect(s.scene.name == "Appium page source: App.dev")
        // Three windows, back to front; the hidden keyboard window stays hidden.
        #expect(s.scene.windows.map { s.scene.views[$0].id } == ["Window-1", "Window-2", "Window-3"])
        #expect(try s.view("Window-2").hidden == true)
        // The Skip button in the navigation bar, although a full-screen container comes after
        // the bar in the accessibility order.
        #expect(s.hit(330, 40) == "Skip")
        // The mail text field (its id is its unique label), not the image drawn over it.
        #expect(s.hit(200, 120) == "hoge@example.com")
        // The visibility toggle inside the first password field: its name is used twice, so
        // its id comes from its type.
        #expect(s.hit(333, 218) == "Button-2")
        #expect(try s.view("Button-2").label == "common visibility off")
        // The debug button floating over the scroll view's content.
        #expect(s.hit(330, 75) == "debug")
        // Static text is not interactive: the scroll view takes the touch.
        #expect(s.hit(187, 400) == "ScrollView-1")
        // The status bar's clock, in the front-most window.
        #expect(s.hit(185, 10) == "9:50")
        // Disabled, scrolled-out Register button.
        let register = try s.view("Register")
        #expect(register.enabled == false)
        #expect(register.hidden == true)
        #expect(register.base == .UIButton)
        #expect(register.frame == Rect(16, 943, 343, 56))
        #expect(s.warnings.first?.contains("accessibility tree") == true)
    }

    @Test func legacyAttributesCollapsedMenuCell() throws {
        let s = try Imported.appium(try Fixtures.named("appium_pagesource_03"))
        // No window in the excerpt: a synthesized one of the cell's frame, in screen coordinates.
        let window = try s.view("window")
        #expect(window.frame == Rect(-93.75, 119.75, 464.25, 66))
        let cell = try s.view("Performance Center Menu Item")
        #expect(cell.base == .UITableViewCell)
        #expect(cell.hidden == true)
        #expect(try s.view("Performance Center").frame == Rect(105, 18, 347.25, 30.75))
        // The menu is collapsed (visible="false"): nothing of it takes the touch.
        #expect(s.hit(100, 150) == "window")
        #expect(s.hit(10, 10) == nil)
    }

    @Test func flutterExcerptCutOffIsRefusedAtTheEnd() throws {
        let bytes = try Fixtures.named("appium_pagesource_02")
        let error = try #require(importError { () throws(ImportError) in try AppiumSourceParser.parse(bytes) })
        #expect(error.line == 5)
        #expect(error.column == 1)
        #expect(error.message.contains("<XCUIElementTypeOther> opened at line 2, column 5 is still open"))
    }

    @Test func typographicQuotesAreRefusedWhereTheyStand() throws {
        let bytes = try Fixtures.named("appium_pagesource_04")
        let error = try #require(importError { () throws(ImportError) in try AppiumSourceParser.parse(bytes) })
        #expect(error.line == 2)
        #expect(error.column == 117)
        #expect(error.message.contains("typographic quote “"))
        let problem = error.problem
        #expect(problem.kind == .importSyntax)  // answered with 422 (ImportEndpointTests)
        #expect(problem.type.hasSuffix("import-syntax"))
        #expect(problem.line == 2 && problem.column == 117)
    }

    /// XCUIElement debugDescription sent to the other two importers: refused at its first line,
    /// naming the importer that reads it.
    @Test func debugDescriptionIsRefusedByTheOtherImportersWithAHint() throws {
        let bytes = try Fixtures.named("xcuitest_debugDescription_01")
        let xml = try #require(importError { () throws(ImportError) in try ImportFormat.appium.parse(bytes) })
        #expect((xml.line, xml.column) == (2, 1))
        #expect(xml.suggestedFormat == .xcuitest)
        let text = try #require(importError { () throws(ImportError) in try ImportFormat.recursiveDescription.parse(bytes) })
        #expect((text.line, text.column) == (2, 1))
        #expect(text.message.contains("expected '<'"))
        #expect(text.problem.detail.contains("POST /v1/import/xcuitest"))
        // And the other way round: a page source at the recursiveDescription importer.
        let page = try Fixtures.named("appium_pagesource_01")
        let wrong = try #require(importError { () throws(ImportError) in try ImportFormat.recursiveDescription.parse(page) })
        #expect(wrong.suggestedFormat == .appium)
        #expect(try ImportFormat.detect(bytes) == .xcuitest && ImportFormat.detect(page) == .appium)
    }

    /// Every fixture is accounted for: the malformed ones are refused, the others import.
    @Test(arguments: Fixtures.names)
    func everyFixture(_ name: String) throws {
        let bytes = try Fixtures.bytes(name)
        #expect(String(decoding: bytes.prefix(10), as: UTF8.self) == "# SOURCE: ")
        let importer: ([UInt8]) throws(ImportError) -> ImportResult
        if name.hasPrefix("appium_") { importer = { b throws(ImportError) in try AppiumSourceParser.parse(b) } }
        else if name.hasPrefix("recursiveDescription_") { importer = { b throws(ImportError) in try RecursiveDescriptionParser.parse(b) } }
        else if name.hasPrefix("xcuitest_") { importer = { b throws(ImportError) in try XCUITestDescriptionParser.parse(b) } }
        else { return }  // the debugger's add-ons: AddOnJoinTests and their own suites
        if name.contains("malformed") {
            let error = importError { () throws(ImportError) in try importer(bytes) }
            #expect(error != nil)
            #expect((error?.line ?? 0) > 1)
        } else {
            let s = try Imported(try importer(bytes))
            #expect(!s.scene.views.isEmpty)
        }
    }
}
