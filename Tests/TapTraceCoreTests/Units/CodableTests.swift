import Foundation
import SceneTestSupport
@testable import TapTraceCore
import TapTraceFormats
import Testing

/// The documents work with Swift's coders and validate exactly like the CLI path.
struct CodableTests {
    @Test func sceneThroughJSONDecoder() throws {
        let json = Scenes.scene(Scenes.touchView + "}")
        let scene = try JSONDecoder().decode(Scene.self, from: Data(json.utf8))
        #expect(scene == (try InputDecoder.scene(Array(json.utf8))))
        let again = try JSONDecoder().decode(Scene.self, from: try JSONEncoder().encode(scene))
        #expect(again == scene)
    }

    @Test func invalidSceneThrowsWithPointers() {
        let json = Scenes.scene(#"{"id": "A", "class": "UIView", "frame": [0, 0, 10, 10], "hiden": true}"#)
        do {
            _ = try JSONDecoder().decode(Scene.self, from: Data(json.utf8))
            Issue.record("expected an error")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription.contains("/windows/0/subviews/0/subviews/0/hiden"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func resultEncodes() throws {
        let r = try Scenes.run(Scenes.scene(), Scenes.tap(1, 1))
        let data = try JSONEncoder().encode(r)
        let any = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(any?["format"] as? String == "taptrace/result@1")
        let touches = try JSONDecoder().decode(TouchSequence.self, from: Data(Scenes.tap(1, 1).utf8))
        #expect(touches.events.count == 2)
    }
}
