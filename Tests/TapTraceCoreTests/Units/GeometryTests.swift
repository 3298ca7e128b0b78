import SceneTestSupport
@testable import TapTraceCore
import TapTraceFormats
import Testing

/// H5 geometry: frame, bounds origin, center and transform, and conversions both ways.
struct GeometryTests {
    @Test func frameWithTransformSolvesTheBoundsSize() throws {
        // A 100×50 view scaled by 2 reports a 200×100 frame.
        let size = ViewGeometryResolver.solveSize(frame: Rect(0, 0, 200, 100), transform: AffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0))
        #expect(size == Size(100, 50))
        // The sentry sample's 22.5° rotation of a 100×100 square: bounding box 130.656.
        let c = 0.92387953251128674, s = 0.38268343236508978
        let solved = ViewGeometryResolver.solveSize(frame: Rect(-15.3281, -15.3281, 130.656, 130.656), transform: AffineTransform(a: c, b: s, c: -s, d: c, tx: 0, ty: 0))!
        #expect(abs(solved.width - 100) < 0.01 && abs(solved.height - 100) < 0.01)
        // 45°: not determined.
        let k = 0.7071067811865476
        #expect(ViewGeometryResolver.solveSize(frame: Rect(0, 0, 10, 10), transform: AffineTransform(a: k, b: k, c: -k, d: k, tx: 0, ty: 0)) == nil)
    }

    @Test func conversionsAreInverse() {
        let g = ViewGeometry(center: Point(100, 200), bounds: Rect(5, 7, 40, 20), transform: AffineTransform(a: 0.5, b: 0.2, c: -0.3, d: 1.5, tx: 3, ty: -4))
        for p in [Point(0, 0), Point(100, 200), Point(-33.5, 12.25)] {
            let back = g.convertToSuperview(g.convertFromSuperview(p))
            #expect(abs(back.x - p.x) < 1e-9 && abs(back.y - p.y) < 1e-9)
        }
        let plain = ViewGeometry(frame: Rect(20, 100, 200, 200), boundsOrigin: Point(0, 50))
        #expect(plain.convertFromSuperview(Point(50, 150)) == Point(30, 100))
        #expect(plain.frame == Rect(20, 100, 200, 200))
    }

    @Test func translationMovesTheView() throws {
        // transform tx/ty moves the view; "frame" includes the translation, "center" does not.
        let r = try Scenes.run(Scenes.scene(#"{"id": "T", "class": "UIView", "center": [50, 50], "bounds": [0, 0, 20, 20], "transform": [1, 0, 0, 1, 100, 0]}"#),
                               Scenes.tap(150, 50))
        #expect(r.firstResponder?.id == "T")
        let viaFrame = try Scenes.run(Scenes.scene(#"{"id": "T", "class": "UIView", "frame": [140, 40, 20, 20], "transform": [1, 0, 0, 1, 100, 0]}"#),
                                      Scenes.tap(150, 50))
        #expect(viaFrame.firstResponder?.id == "T")
        let hit = viaFrame.trace.first { $0.receiver?.id == "T" && $0.selector == "hitTest:withEvent:" }!
        #expect(hit.args[0].value == .point(Point(10, 10)))
    }

    @Test func singularTransformIsNeverHit() throws {
        let r = try Scenes.run(Scenes.scene(#"{"id": "Z", "class": "UIView", "center": [50, 50], "bounds": [0, 0, 20, 20], "transform": [0, 0, 0, 0, 0, 0]}"#),
                               Scenes.tap(50, 50))
        #expect(r.firstResponder?.id == "R")
        #expect(ResultEncoder.encode(r).count > 0)   // NaN points are written as null
    }
}
