import Testing
import TapTraceCore
@testable import TapTraceImport

/// The real `debugDescription` sample (Appium issue 13681: SpringBoard's main window on a
/// 414×736 device, as `mobile: source` with `format: description` returned it, the query chain
/// cut off) imports as the tree it prints, and the same text pasted differently imports alike.
struct XCUITestDescriptionSampleTests {
    static let window = "XCUIElementTypeWindow-0x2836b42a0"
    static let outer = "XCUIElementTypeOther-0x2836b4380"
    static let middle = "XCUIElementTypeOther-0x2836b4460"
    static let inner = "XCUIElementTypeOther-0x2836b4540"
    static let last = "XCUIElementTypeOther-0x2836b4620"

    static func sample() throws -> [UInt8] { try Fixtures.named("xcuitest_debugDescription_01") }

    @Test func treeShapeFramesAndTheWindow() throws {
        let s = try Imported.xcuitest(try Self.sample())
        // The application's label is a space: no name to give the scene.
        #expect(s.scene.name == "XCUITest debugDescription")
        #expect(s.scene.app == nil)
        #expect(s.scene.views.map(\.id) == [Self.window, Self.outer, Self.middle, Self.inner, Self.last])
        #expect(s.scene.windows.map { s.scene.views[$0].id } == [Self.window])
        func children(_ id: String) throws -> [String] {
            try s.view(id).subviews.map { s.scene.views[$0].id }
        }
        #expect(try children(Self.window) == [Self.outer, Self.last])
        #expect(try children(Self.outer) == [Self.middle])
        #expect(try children(Self.middle) == [Self.inner])
        #expect(try children(Self.inner).isEmpty)
        #expect(try children(Self.last).isEmpty)

        let window = try s.view(Self.window)
        #expect(window.className == "XCUIElementTypeWindow")
        #expect(window.base == .UIWindow)
        #expect(window.explicitBase == false)
        #expect(window.frame == Rect(0, 0, 414, 736))
        // The only window is the main one: it takes touches like any window.
        #expect(window.overrides == nil)
        for id in [Self.outer, Self.middle, Self.inner, Self.last] {
            let view = try s.view(id)
            #expect(view.className == "XCUIElementTypeOther")
            #expect(view.base == .UIView)
            // UIView is what the scene assumes for a class it does not know.
            #expect(view.explicitBase == false)
            // Screen frames made relative to the parent: all of them cover it.
            #expect(view.frame == Rect(0, 0, 414, 736))
            #expect(view.label == nil)
            #expect(view.accessibilityIdentifier == nil)
            #expect(view.address == String(id.dropFirst("XCUIElementTypeOther-".count)))
        }
        // Containers with children pass touches on; the leaves do not.
        #expect(try s.view(Self.outer).overrides?.hitTest == .passThrough)
        #expect(try s.view(Self.middle).overrides?.hitTest == .passThrough)
        #expect(try s.view(Self.inner).overrides == nil)
        #expect(try s.view(Self.last).overrides == nil)
    }

    @Test func hitTestsAtChosenPoints() throws {
        let s = try Imported.xcuitest(try Self.sample())
        // The last full-screen Other is listed last, so it is in front everywhere on screen.
        #expect(s.hit(207, 368) == Self.last)
        #expect(s.hit(0, 0) == Self.last)
        #expect(s.hit(413.5, 735.5) == Self.last)
        // Off the 414×736 screen nothing takes the touch.
        #expect(s.hit(414, 100) == nil)
        #expect(s.hit(100, 736) == nil)
        #expect(s.hit(-1, 10) == nil)
    }

    @Test func warningsReadWeightiestFirst() throws {
        let s = try Imported.xcuitest(try Self.sample())
        #expect(s.warnings == [
            AppiumSceneBuilder.accessibilityTreeWarning,
            "container elements with children were made pass-through (hitTest returns nil where it would return the container itself), because the accessibility tree lists siblings in reading order, not z-order: \(Self.outer), \(Self.middle)",
            "the Query chain: section was skipped (how XCUITest found the element; it describes no views)",
        ])
    }

    @Test func stableIdsFromThePathAndTheAddressKept() throws {
        let s = try Imported.xcuitest(try Self.sample(), ids: .stable)
        // Element types without their prefix, as ImportIdentity writes them.
        #expect(s.scene.views.map(\.id) == ["Window", "Window/Other", "Window/Other/Other", "Window/Other/Other/Other", "Window/Other[2]"])
        #expect(s.scene.views.map(\.address) == ["0x2836b42a0", "0x2836b4380", "0x2836b4460", "0x2836b4540", "0x2836b4620"])
        #expect(s.hit(207, 368) == "Window/Other[2]")
        // Warnings name a view by its id and, where the id does not hold it, its address.
        #expect(s.hasWarning(": Window/Other (0x2836b4380), Window/Other/Other (0x2836b4460)"))
        // The default is stable ids, and the same text gives the same scene every time.
        let again = try XCUITestDescriptionParser.parse(try Self.sample())
        #expect(again.scene == s.scene)
        #expect(again.warnings == s.warnings)
    }

    /// A relaunch prints other addresses: the stable ids stay, the address ids do not.
    @Test func anotherLaunchKeepsTheStableIds() throws {
        let bytes = try Self.sample()
        let relaunched = Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "0x2836b4", with: "0x1c04a1").utf8)
        let first = try Imported.xcuitest(bytes, ids: .stable)
        let second = try Imported.xcuitest(relaunched, ids: .stable)
        #expect(first.scene.views.map(\.id) == second.scene.views.map(\.id))
        #expect(second.scene.views[1].address == "0x1c04a1380")
        let addressIds = try Imported.xcuitest(relaunched)
        #expect(addressIds.scene.views[1].id == "XCUIElementTypeOther-0x1c04a1380")
    }

    /// With or without the `# SOURCE:` line, with blank lines around it, with CRLF: one scene.
    @Test func theSameTextPastedDifferently() throws {
        let bytes = try Self.sample()
        let text = String(decoding: bytes, as: UTF8.self)
        let reference = try XCUITestDescriptionParser.parse(bytes, ImportOptions(ids: .address))
        let withoutSource = String(text.drop { $0 != "\n" }.dropFirst())
        #expect(withoutSource.hasPrefix("Attributes: Window (Main)"))
        let variants = [
            withoutSource,
            "\n\n" + withoutSource + "\n\n\n",
            text.replacingOccurrences(of: "\n", with: "\r\n"),
            "\r\n" + withoutSource.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n",
        ]
        for variant in variants {
            let s = try Imported.xcuitest(variant)
            #expect(s.scene == reference.scene)
            #expect(s.warnings == reference.warnings)
        }
    }

    /// The format by its command name: `taptrace import xcuitest`, `POST /v1/import/xcuitest`.
    @Test func importedThroughTheFormat() throws {
        let bytes = try Self.sample()
        let format = try #require(ImportFormat(rawValue: "xcuitest"))
        #expect(format.mediaType == "text/plain")
        let result = try format.parse(bytes, ImportOptions(ids: .address))
        #expect(result.scene == (try XCUITestDescriptionParser.parse(bytes, ImportOptions(ids: .address))).scene)
        #expect(try ImportFormat.detect(bytes) == format)
    }
}
