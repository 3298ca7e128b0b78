import SceneTestSupport
import TapTraceCore
import TapTraceFormats
import TapTraceRuns
import Testing

/// A stored run whose gestures named elements reads back with its `elements` (issue 32).
struct ElementResultRoundTripTests {
    static let scene = Scenes.scene("""
        {"id": "B", "class": "UIButton", "frame": [20, 100, 200, 50], "accessibilityIdentifier": "buy"},
        {"id": "cover", "class": "UIView", "frame": [0, 0, 390, 120]},
        {"id": "ok", "class": "UIButton", "frame": [20, 300, 100, 40], "label": "OK \\"quoted\\""}
        """)

    @Test func elementsRoundTrip() throws {
        let result = try Scenes.run(Self.scene, #"{"gestures": [{"tap": {"view": "buy"}}, {"drag": {"from": {"view": "OK \"quoted\""}, "to": [5, 5]}}]}"#)
        #expect(result.elements.count == 2)
        #expect(result.elements[0].hittable && result.elements[0].hitTestView == "B")
        let bytes = ResultEncoder.encode(result)
        let decoded = try ResultDecoder.decode(bytes)
        #expect(decoded.elements == result.elements)
        #expect(ResultEncoder.encode(decoded) == bytes)
        #expect(ResultEncoder.encode(decoded, indent: 2) == ResultEncoder.encode(result, indent: 2))
    }

    @Test func aNotHittableElementRoundTripsWithItsReasons() throws {
        let scene = Scenes.scene("""
            {"id": "B", "class": "UIButton", "frame": [20, 100, 200, 50]},
            {"id": "cover", "class": "UIView", "frame": [0, 0, 390, 400]}
            """)
        let result = try Scenes.run(scene, #"{"gestures": [{"tap": {"view": "B"}}]}"#)
        #expect(result.elements.first?.hittable == false)
        #expect(result.elements.first?.reasons.isEmpty == false)
        let decoded = try ResultDecoder.decode(ResultEncoder.encode(result))
        #expect(decoded.elements == result.elements)
    }

    @Test func aResultWithoutElementsIsUnchanged() throws {
        let result = try Scenes.run(Self.scene, #"{"gestures": [{"tap": [30, 110]}]}"#)
        let bytes = ResultEncoder.encode(result)
        #expect(!String(decoding: bytes, as: UTF8.self).contains("elements"))
        #expect(try ResultDecoder.decode(bytes).elements.isEmpty)
    }
}
