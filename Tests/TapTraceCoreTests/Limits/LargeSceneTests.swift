import SceneTestSupport
@testable import TapTraceCore
import TapTraceFormats
import TapTraceJSON
import Testing

/// Scenes 10,000 levels deep or with 1,000,000 views give a result, never a crash: nothing in
/// decoding, validation, indexing, hit-testing, forwarding, encoding or release recurses with
/// the scene's depth (issue 2, item 2).
struct LargeSceneTests {
    /// A chain of `depth` nested 100×100 views at the origin inside W.
    static func deepScene(depth: Int) -> String {
        var s = #"{"format": "taptrace/scene@1", "windows": [{"id": "W", "class": "UIWindow", "frame": [0, 0, 390, 844], "subviews": ["#
        for i in 0..<depth { s += #"{"id": "v\#(i)", "class": "UIView", "frame": [0, 0, 100, 100], "subviews": ["# }
        s += String(repeating: "]}", count: depth)
        return s + "]}]}"
    }

    @Test func tenThousandLevelsDeep() throws {
        let depth = 10_000
        let r = try Scenes.run(LargeSceneTests.deepScene(depth: depth), Scenes.tap(10, 10))
        #expect(r.firstResponder?.id == "v\(depth - 1)")
        #expect(r.responderChain.count == depth + 2)                       // views, W, UIApplication
        // The touch forwards from the deepest view to the application: depth + 2 calls per phase.
        #expect(r.touchCalls.count == 2 * (depth + 2))
        let deepest = r.trace.filter { $0.selector == "touchesBegan:withEvent:" }.map(\.depth).max()!
        #expect(deepest >= depth)
        // Encoding and the text rendering work too.
        let json = ResultEncoder.encode(r)
        #expect(try JSONTape(parsing: json).kind(0) == .object)
        #expect(TextRenderer.render(r).contains("(depth"))
    }

    @Test func deepSceneRoundTripsAndValidates() throws {
        let scene = try InputDecoder.scene(Array(LargeSceneTests.deepScene(depth: 10_000).utf8))
        #expect(scene.views.count == 10_001)
        let again = try InputDecoder.scene(SceneEncoder.encode(scene))
        #expect(again == scene)
        // An error deep down names its full pointer.
        var broken = LargeSceneTests.deepScene(depth: 3000)
        broken = broken.replacingOccurrences(of: #"{"id": "v2999", "class": "UIView", "frame": [0, 0, 100, 100]"#,
                                             with: #"{"id": "v2999", "class": "UIView", "frame": [0, 0, 100, -1]"#)
        do {
            _ = try InputDecoder.scene(Array(broken.utf8))
            Issue.record("expected an issue")
        } catch {
            guard case .invalid(let f) = error else { Issue.record("\(error)"); return }
            let expected = "/windows/0" + String(repeating: "/subviews/0", count: 3000) + "/frame/3"
            #expect(f.issues.map(\.pointer) == [expected])
        }
    }

    /// A JSON document nested 100,000 arrays deep parses (and is refused as a scene) without
    /// exhausting the stack.
    @Test func absurdNestingIsAnError() {
        let text = #"{"scene": "# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + #", "touches": 1}"#
        do {
            _ = try TapTrace.dispatch(json: Array(text.utf8))
            Issue.record("expected an error")
        } catch {
            guard case .invalid(let f) = error else { Issue.record("\(error)"); return }
            #expect(f.issues.contains { $0.pointer == "/scene" && $0.message.contains("must be an object") })
        }
    }

    /// One million views (1,000 rows of 1,000 cells): decoded, validated, indexed and
    /// hit-tested; the hit-test visits a couple of thousand views, not a million.
    @Test func oneMillionViews() throws {
        var s = #"{"format": "taptrace/scene@1", "windows": [{"id": "W", "class": "UIWindow", "frame": [0, 0, 1000, 1000], "subviews": ["#
        s.reserveCapacity(80_000_000)
        for row in 0..<1000 {
            if row > 0 { s += "," }
            s += #"{"id": "r\#(row)", "class": "UIView", "frame": [0, \#(row), 1000, 1], "subviews": ["#
            for col in 0..<999 {
                if col > 0 { s += "," }
                s += #"{"id": "c\#(row)_\#(col)", "class": "UIView", "frame": [\#(col), 0, 1, 1]}"#
            }
            s += "]}"
        }
        s += "]}]}"
        let scene = try InputDecoder.scene(Array(s.utf8))
        #expect(scene.views.count == 1 + 1000 + 1000 * 999)
        let index = SceneIndex(validated: scene)
        let report = HitTestReport.run(index, point: Point(500.5, 500.5))
        #expect(report.view?.id == "c500_500")
        // Rows are asked front to back (999 … 500), then cells of row 500 (998 … 500).
        let asked = report.trace.filter { $0.selector == "hitTest:withEvent:" }.count
        #expect(asked == 1 + 500 + 499)
    }
}
