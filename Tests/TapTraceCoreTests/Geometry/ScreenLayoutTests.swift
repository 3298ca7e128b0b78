import TapTraceFormats
@testable import TapTraceCore
import TapTraceJSON
import Testing

/// `ScreenLayout`: what the trace viewer draws must be where the hit-test finds things.
struct ScreenLayoutTests {
    static func layout(_ json: String) throws -> ScreenLayout {
        ScreenLayout(try SceneIndex(validating: try InputDecoder.scene(Array(json.utf8))))
    }

    static func placement(_ layout: ScreenLayout, _ id: String) throws -> ScreenLayout.ViewPlacement {
        let v = try #require(layout.index.view(withId: id))
        return layout.placements[v]
    }

    static func close(_ a: [Point]?, _ b: [(Double, Double)]) -> Bool {
        guard let a, a.count == b.count else { return false }
        return zip(a, b).allSatisfy { abs($0.x - $1.0) < 1e-9 && abs($0.y - $1.1) < 1e-9 }
    }

    static let nested = #"""
    {"format": "taptrace/scene@1", "windows": [
      {"id": "W", "class": "UIWindow", "frame": [0, 0, 390, 844], "subviews": [
        {"id": "scroll", "class": "UIScrollView", "frame": [0, 100, 390, 600], "bounds": [0, 250, 390, 600],
         "subviews": [{"id": "row", "class": "UIView", "frame": [10, 300, 100, 40]}]},
        {"id": "rotated", "class": "UIView", "center": [200, 50], "bounds": [0, 0, 40, 20],
         "transform": [0, 1, -1, 0, 0, 0]},
        {"id": "shrunk", "class": "UIView", "center": [50, 50], "bounds": [0, 0, 40, 20], "transform": [0, 0, 0, 0, 0, 0],
         "subviews": [{"id": "insideShrunk", "class": "UIView", "frame": [0, 0, 10, 10]}]}
      ]},
      {"id": "alert", "class": "UIWindow", "frame": [20, 300, 350, 200], "level": 2000},
      {"id": "back", "class": "UIWindow", "frame": [0, 0, 390, 844], "level": -1}
    ]}
    """#

    @Test func scrollOffsetsAndTransformsPlaceViewsWhereTheHitTestFindsThem() throws {
        let layout = try Self.layout(Self.nested)
        // The scroll view's bounds origin (0, 250) is its content offset: row sits 250 higher.
        let row = try Self.placement(layout, "row")
        #expect(Self.close(row.quad, [(10, 150), (110, 150), (110, 190), (10, 190)]))
        // A quarter turn about the center: the 40×20 bounds stand 20 wide and 40 tall on screen.
        let rotated = try Self.placement(layout, "rotated")
        #expect(Self.close(rotated.quad, [(210, 30), (210, 70), (190, 70), (190, 30)]))
        // The quad agrees with the engine's own conversion, corner by corner.
        let index = layout.index
        for id in ["row", "rotated"] {
            let v = try #require(index.view(withId: id))
            let b = index.geometry[v].bounds
            let expected = [Point(b.minX, b.minY), Point(b.maxX, b.minY), Point(b.maxX, b.maxY), Point(b.minX, b.maxY)]
                .map { index.convertToScreen($0, from: v) }
            #expect(Self.close(layout.placements[v].quad, expected.map { ($0.x, $0.y) }))
        }
        // And the hit-test finds row at the middle of its quad.
        let report = HitTestReport.run(index, point: Point(60, 170))
        #expect(report.view?.id == "row")
    }

    @Test func aSingularTransformStillHasAFiniteMapButNoArea() throws {
        let layout = try Self.layout(Self.nested)
        let shrunk = try Self.placement(layout, "shrunk")
        let quad = try #require(shrunk.quad)
        #expect(quad.allSatisfy { $0.x == 50 && $0.y == 50 })
        #expect(try Self.placement(layout, "insideShrunk").quad != nil)
    }

    @Test func windowsAreDrawnBackToFrontByLevel() throws {
        let layout = try Self.layout(Self.nested)
        #expect(layout.windowsBackToFront.map { layout.index.view($0).id } == ["back", "W", "alert"])
        let box = try #require(layout.screenBox)
        #expect(box == Rect(0, 0, 390, 844))
    }

    @Test func outOfPlayNamesTheOutermostPrunedView() throws {
        let layout = try Self.layout(#"""
        {"format": "taptrace/scene@1", "windows": [
          {"id": "W", "class": "UIWindow", "frame": [0, 0, 100, 100], "subviews": [
            {"id": "ghost", "class": "UIView", "frame": [0, 0, 50, 50], "alpha": 0.005, "subviews": [
              {"id": "hiddenChild", "class": "UIView", "frame": [0, 0, 10, 10], "hidden": true}]},
            {"id": "label", "class": "UILabel", "frame": [0, 60, 50, 20]},
            {"id": "plain", "class": "UIView", "frame": [60, 60, 20, 20]}
          ]}
        ]}
        """#)
        let ghost = try #require(try Self.placement(layout, "ghost").outOfPlay)
        #expect(ghost.reason.rule == "H3")
        #expect(layout.index.view(ghost.by).id == "ghost")
        let child = try #require(try Self.placement(layout, "hiddenChild").outOfPlay)
        #expect(layout.index.view(child.by).id == "ghost")
        let label = try #require(try Self.placement(layout, "label").outOfPlay)
        #expect(label.reason == .userInteractionDisabled(classDefault: true))
        #expect(try Self.placement(layout, "plain").outOfPlay == nil)
    }

    @Test func theJSONCarriesWhatTheViewerDraws() throws {
        let layout = try Self.layout(Self.nested)
        let tape = try JSONTape(parsing: layout.json())
        var views: Int?
        var windows: [String] = []
        for (k, v) in tape.members(tape.root) {
            switch tape.string(k) {
            case "views": views = v
            case "windows": windows = tape.elements(v).compactMap { tape.string($0) }
            default: break
            }
        }
        #expect(windows == ["back", "W", "alert"])
        let list = tape.elements(try #require(views))
        #expect(list.count == layout.index.viewCount)
        var row: [String: Int] = [:]
        for element in list {
            var fields: [String: Int] = [:]
            for (k, v) in tape.members(element) { fields[tape.string(k)!] = v }
            if tape.string(fields["id"]!) == "row" { row = fields }
        }
        #expect(tape.string(row["superview"]!) == "scroll")
        #expect(tape.string(row["window"]!) == "W")
        #expect(tape.number(row["depth"]!) == 2)
        #expect(tape.elements(row["toScreen"]!).compactMap { tape.number($0) } == [1, 0, 0, 1, 10, 150])
        #expect(tape.elements(row["bounds"]!).compactMap { tape.number($0) } == [0, 0, 100, 40])
    }
}
