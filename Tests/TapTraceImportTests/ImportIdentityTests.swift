import Foundation
import Testing
import TapTraceCore
import TapTraceFormats
@testable import TapTraceImport

/// Ids that survive a relaunch (issue 30, item 1), on every sample that imports: the same dump
/// gives the same scene byte for byte, new addresses and an unrelated move give the same ids.
struct ImportIdentityTests {
    static var importable: [String] {
        Fixtures.names.filter { ($0.hasPrefix("recursiveDescription_") || $0.hasPrefix("appium_")) && !$0.contains("malformed") }
    }

    static func parse(_ name: String, _ bytes: [UInt8], ids: ImportOptions.Identity = .stable) throws -> ImportResult {
        let format: ImportFormat = name.hasPrefix("appium_") ? .appium : .recursiveDescription
        return try format.parse(bytes, ImportOptions(ids: ids))
    }

    /// Every `0x…` address replaced by another of the same length (a relaunch).
    static func relaunched(_ text: String) -> String {
        let regex = try! NSRegularExpression(pattern: "0x([0-9a-fA-F]+)")
        var out = text
        for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
            let range = Range(match.range(at: 1), in: text)!
            let digits = String(text[range])
            let changed = String(digits.map { $0 == "1" ? "2" : $0 == "2" ? "1" : $0 == "7" ? "9" : $0 == "9" ? "7" : $0 })
            out.replaceSubrange(Range(match.range(at: 1), in: out)!, with: changed)
        }
        return out
    }

    @Test(arguments: importable)
    func sameDumpSameSceneByteForByte(_ name: String) throws {
        let bytes = try Fixtures.bytes(name)
        let a = try Self.parse(name, bytes), b = try Self.parse(name, bytes)
        #expect(a.json() == b.json())
        let ids = a.scene.views.map(\.id)
        #expect(Set(ids).count == ids.count)
    }

    @Test(arguments: importable.filter { $0.hasPrefix("recursiveDescription_") })
    func newAddressesKeepEveryId(_ name: String) throws {
        let text = String(decoding: try Fixtures.bytes(name), as: UTF8.self)
        let again = Self.relaunched(text)
        let first = try Self.parse(name, Array(text.utf8)), second = try Self.parse(name, Array(again.utf8))
        #expect(first.scene.views.map(\.id) == second.scene.views.map(\.id))
        // The addresses are kept, as they were printed, and are what changed.
        if first.scene.views.contains(where: { $0.address != nil }) {
            #expect(first.scene.views.map(\.address) != second.scene.views.map(\.address))
        }
        // With address ids the same relaunch renames every view that has an address.
        let byAddress = try Self.parse(name, Array(text.utf8), ids: .address)
        let byAddressAgain = try Self.parse(name, Array(again.utf8), ids: .address)
        let renamed = zip(byAddress.scene.views, byAddressAgain.scene.views).filter { $0.id != $1.id }.count
        #expect(renamed == byAddress.scene.views.filter { $0.address != nil }.count)
    }

    /// The first frame of the dump moved by 10 pt: no id changes.
    @Test(arguments: importable)
    func aMovedViewKeepsEveryId(_ name: String) throws {
        let text = String(decoding: try Fixtures.bytes(name), as: UTF8.self)
        let moved: String
        if name.hasPrefix("appium_") {
            let regex = try NSRegularExpression(pattern: #" x="(-?[0-9.]+)""#)
            let match = try #require(regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).last)
            let range = Range(match.range(at: 1), in: text)!
            moved = text.replacingCharacters(in: range, with: String(Double(text[range])! + 10))
        } else {
            let regex = try NSRegularExpression(pattern: #"frame = \((-?[0-9.]+) "#)
            let match = try #require(regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).last)
            let range = Range(match.range(at: 1), in: text)!
            moved = text.replacingCharacters(in: range, with: String(Double(text[range])! + 10))
        }
        let a = try Self.parse(name, Array(text.utf8)), b = try Self.parse(name, Array(moved.utf8))
        #expect(a.scene.views.map(\.id) == b.scene.views.map(\.id))
        #expect(a.scene != b.scene)
    }

    @Test func identifierThenLabelThenPosition() throws {
        let xml = """
            <XCUIElementTypeApplication name="Shop" label="Shop" x="0" y="0" width="100" height="100">
              <XCUIElementTypeWindow x="0" y="0" width="100" height="100">
                <XCUIElementTypeButton name="buy" label="Buy now" x="0" y="0" width="50" height="20"/>
                <XCUIElementTypeButton name="Cancel" label="Cancel" x="0" y="20" width="50" height="20"/>
                <XCUIElementTypeImage x="0" y="40" width="10" height="10"/>
                <XCUIElementTypeImage x="10" y="40" width="10" height="10"/>
              </XCUIElementTypeWindow>
            </XCUIElementTypeApplication>
            """
        let scene = try AppiumSourceParser.parse(Array(xml.utf8)).scene
        #expect(scene.views.map(\.id) == ["Window", "buy", "Button:Cancel", "Window/Image", "Window/Image[2]"])
        #expect(scene.views[1].accessibilityIdentifier == "buy")
        #expect(scene.views[2].accessibilityIdentifier == nil)   // name == label: no identifier
    }

    @Test func repeatedIdentifiersAreMadeUniqueInDocumentOrder() throws {
        let text = """
            <UIWindow: 0x1; frame = (0 0; 100 100)>
               | <UILabel: 0x2; frame = (0 0; 10 10); text = 'Row'; userInteractionEnabled = NO>
               | <UILabel: 0x3; frame = (0 10; 10 10); text = 'Row'; userInteractionEnabled = NO>
               | <UIView: 0x4; frame = (0 20; 10 10)>
               |    | <UIView: 0x5; frame = (0 0; 5 5)>
               |    | <UIView: 0x6; frame = (5 0; 5 5)>
               | <UIScrollView: 0x7; frame = (0 30; 10 10); contentOffset: {0, 0}>
            """
        let scene = try RecursiveDescriptionParser.parse(Array(text.utf8)).scene
        #expect(scene.views.map(\.id) == ["UIWindow", "UILabel:Row", "UILabel:Row-2", "UIWindow/UIView",
                                          "UIWindow/UIView/UIView", "UIWindow/UIView/UIView[2]", "UIWindow/UIScrollView"])
        #expect(scene.views.map(\.address) == ["0x1", "0x2", "0x3", "0x4", "0x5", "0x6", "0x7"])
    }

    /// Warnings name a view by its final id and its address.
    @Test func warningsNameTheIdAndTheAddress() throws {
        let text = "<UIView: 0x7faa1; frame = (0 0; 10 10)>\n   | <UILabel: 0x7faa2; frame = (0 0; 5 5)>\n"
        let result = try RecursiveDescriptionParser.parse(Array(text.utf8))
        #expect(result.warnings.contains { $0.contains("imported as interactive: UIWindow/UIView/UILabel (0x7faa2)") })
        let byAddress = try RecursiveDescriptionParser.parse(Array(text.utf8), ImportOptions(ids: .address))
        #expect(byAddress.warnings.contains { $0.hasSuffix("imported as interactive: UILabel-0x7faa2") })
    }

    /// Warnings that change what a tap does come first, the ignored-fields tally last.
    @Test func warningsInOrderOfConsequence() throws {
        let result = try RecursiveDescriptionParser.parse(try Fixtures.named("recursiveDescription_01"))
        let w = result.warnings
        let ignored = try #require(w.firstIndex { $0.hasPrefix("fields ignored") })
        #expect(ignored == w.count - 1)
        let synthesized = w.firstIndex { $0.contains("animations in flight") }
        #expect(synthesized.map { $0 < ignored } == true)
    }

    /// A page source 20,000 elements deep: path ids grew with depth, so the import cost time
    /// and memory by the square of it (28 s in a debug build). Past `maxPathBytes` a path starts
    /// over from its parent's digest: every id stays short, the ids stay unique, and a
    /// relaunch (new addresses) gives the same ones.
    @Test func deepPathsStayShortAndStable() throws {
        let depth = 20_000
        var text = #"<?xml version="1.0" encoding="UTF-8"?><AppiumAUT>"#
        text += #"<XCUIElementTypeApplication type="XCUIElementTypeApplication" x="0" y="0" width="400" height="800">"#
        for _ in 0..<depth { text += #"<XCUIElementTypeOther type="XCUIElementTypeOther" x="0" y="0" width="400" height="800">"# }
        text += String(repeating: "</XCUIElementTypeOther>", count: depth) + "</XCUIElementTypeApplication></AppiumAUT>"
        let start = ContinuousClock.now
        let a = try AppiumSourceParser.parse(Array(text.utf8), ImportOptions(ids: .stable))
        let elapsed = ContinuousClock.now - start
        let ids = a.scene.views.map(\.id)
        #expect(ids.count >= depth)
        #expect(Set(ids).count == ids.count)
        let longest = ids.map(\.utf8.count).max() ?? 0
        #expect(longest <= ImportIdentity.maxPathBytes + 64, "an id of \(longest) bytes")
        #expect(ids.contains { $0.hasPrefix("…") && $0.hasSuffix("/Other") })
        let b = try AppiumSourceParser.parse(Array(text.utf8), ImportOptions(ids: .stable))
        #expect(b.scene.views.map(\.id) == ids)
        // Linear: well under the 28 s the squared paths took in a debug build.
        #expect(elapsed < .seconds(15), "\(elapsed)")
    }
}
