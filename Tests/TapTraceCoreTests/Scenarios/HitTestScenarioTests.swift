import SceneTestSupport
@testable import TapTraceCore
import TapTraceFormats
import Testing

/// Worked scenarios SC-01 and SC-12 … SC-15, SC-18 of dispatch-rules.md §6 (hit-testing, H and W rules).
struct HitTestScenarioTests {
    /// SC-01: plain tap on a view that implements touches (W1, H1, H4, H5, T1–T4, R2–R4).
    @Test func sc01PlainTap() throws {
        let r = try Scenes.run(Scenes.scene(Scenes.touchView + "}"), Scenes.tap(50, 150))
        #expect(r.firstResponder?.id == "V")
        #expect(r.chainIds == ["V", "R", "VC", "W", "UIApplication", "AppDelegate"])
        #expect(r.events(markers: [.collect, .sequenceEnd]) == [
            "W hitTest:withEvent:", "W pointInside:withEvent:", "R hitTest:withEvent:", "R pointInside:withEvent:",
            "V hitTest:withEvent:", "V pointInside:withEvent:", "[collect] V",
            "UIApplication sendEvent:", "W sendEvent:", "V touchesBegan:withEvent:",
            "UIApplication sendEvent:", "W sendEvent:", "V touchesEnded:withEvent:", "[sequenceEnd] ",
        ])
        // H5: arguments in the receiver's coordinates; nesting by depth/parent.
        let vHit = r.trace.first { $0.receiver?.id == "V" && $0.selector == "hitTest:withEvent:" }!
        #expect(vHit.args.first?.value == .point(Point(30, 50)))
        #expect(vHit.depth == 2)
        #expect(vHit.parent == r.trace.first { $0.receiver?.id == "R" && $0.selector == "hitTest:withEvent:" }!.seq)
        #expect(vHit.result == .object(ObjectRef(id: "V", className: "TouchView")))
        let began = r.trace.first { $0.selector == "touchesBegan:withEvent:" }!
        guard case .touches(let ts) = began.args[0].value else { Issue.record("no touches arg"); return }
        #expect(ts == [TouchSnapshot(id: "T1", phase: .began, tapCount: 1, inWindow: Point(50, 150), inReceiver: Point(30, 50))])
    }

    /// SC-01 with `hitTestPasses = 2` (H12): the identical pass again, marked.
    @Test func sc01TwoPasses() throws {
        let r = try Scenes.run(Scenes.scene(Scenes.touchView + "}"), Scenes.tap(50, 150), knobs: #"{"hitTestPasses": 2}"#)
        let hits = r.calls.prefix { $0 != "UIApplication sendEvent:" }
        #expect(hits.count == 12)
        #expect(Array(hits.prefix(6)) == Array(hits.suffix(6)))
        #expect(r.trace.contains { $0.marker == .hitTestPass })
        #expect(r.firstResponder?.id == "V")
    }

    static let pruningScene = Scenes.scene("""
        {"id": "A", "class": "UIView", "frame": [0, 0, 390, 400], "subviews": [
          {"id": "B", "class": "UIButton", "frame": [40, 100, 200, 60]}]},
        {"id": "L", "class": "UILabel", "frame": [0, 0, 390, 400]},
        {"id": "H", "class": "UIView", "frame": [0, 0, 390, 400], "hidden": true},
        {"id": "Z", "class": "UIView", "frame": [0, 0, 390, 400], "alpha": 0.005},
        {"id": "Q", "class": "UIView", "frame": [0, 0, 390, 400], "alpha": ALPHA},
        {"id": "U", "class": "UIView", "frame": [0, 0, 390, 400], "userInteractionEnabled": false}
        """)

    /// SC-12: hidden, alpha < 0.01 (as Float32), non-interactive and UILabel are pruned without
    /// pointInside (H1, H2, H3, H9).
    @Test func sc12Pruning() throws {
        let r = try Scenes.run(HitTestScenarioTests.pruningScene.replacingOccurrences(of: "ALPHA", with: "0.01"), Scenes.tap(100, 120))
        #expect(r.firstResponder?.id == "B")
        #expect(Array(r.calls.prefix(13)) == [
            "W hitTest:withEvent:", "W pointInside:withEvent:", "R hitTest:withEvent:", "R pointInside:withEvent:",
            "U hitTest:withEvent:", "Q hitTest:withEvent:", "Z hitTest:withEvent:", "H hitTest:withEvent:",
            "L hitTest:withEvent:", "A hitTest:withEvent:", "A pointInside:withEvent:",
            "B hitTest:withEvent:", "B pointInside:withEvent:",
        ])
        #expect(r.chainIds == ["B", "A", "R", "VC", "W", "UIApplication", "AppDelegate"])
        let q = r.trace.first { $0.receiver?.id == "Q" }!
        #expect(q.result == .null)
        #expect(q.note?.contains("H3") == true)
    }

    /// SC-12: `Q.alpha = 0.011` makes Q the hit-test view; 0.010000001 is the smallest hittable
    /// Float32 (H3).
    @Test(arguments: [("0.011", "Q"), ("0.010000001", "Q"), ("0.01", "B"), ("0.0099", "B")])
    func sc12AlphaThreshold(_ alpha: String, _ expected: String) throws {
        let r = try Scenes.run(HitTestScenarioTests.pruningScene.replacingOccurrences(of: "ALPHA", with: alpha), Scenes.tap(100, 120))
        #expect(r.firstResponder?.id == expected)
    }

    /// H3: alpha is not accumulated: a 0.02 child of a 0.02 parent is hittable.
    @Test func alphaIsNotAccumulated() throws {
        let r = try Scenes.run(Scenes.scene("""
            {"id": "P", "class": "UIView", "frame": [0, 0, 200, 200], "alpha": 0.02, "subviews": [
              {"id": "C", "class": "UIView", "frame": [0, 0, 100, 100], "alpha": 0.02}]}
            """), Scenes.tap(10, 10))
        #expect(r.firstResponder?.id == "C")
    }

    static let overflowScene = Scenes.scene("""
        {"id": "P", "class": "UIView", "frame": [50, 100, 100, 100], "clipsToBounds": CLIPS, "subviews": [
          {"id": "C", "class": "UIView", "frame": [80, 80, 60, 60]}]}
        """)

    /// SC-13a: a point on C but outside P never reaches C, whatever clipsToBounds says (H6).
    @Test(arguments: ["false", "true"])
    func sc13OverflowUnreachable(_ clips: String) throws {
        let r = try Scenes.run(HitTestScenarioTests.overflowScene.replacingOccurrences(of: "CLIPS", with: clips), Scenes.tap(170, 220))
        #expect(r.firstResponder?.id == "R")
        #expect(!r.calls.contains("C hitTest:withEvent:"))
        let p = r.trace.first { $0.receiver?.id == "P" && $0.selector == "pointInside:withEvent:" }!
        #expect(p.args[0].value == .point(Point(120, 120)))
        #expect(p.result == .bool(false))
    }

    /// SC-13b: inside P the clipped-away part of C is still hittable (H6).
    @Test func sc13InsideParent() throws {
        let r = try Scenes.run(HitTestScenarioTests.overflowScene.replacingOccurrences(of: "CLIPS", with: "true"), Scenes.tap(140, 190))
        #expect(r.firstResponder?.id == "C")
        let c = r.trace.first { $0.receiver?.id == "C" && $0.selector == "hitTest:withEvent:" }!
        #expect(c.args[0].value == .point(Point(10, 10)))
    }

    /// SC-13c: P's pointInside also accepts points in visible subviews (orSubviews).
    @Test func sc13OrSubviews() throws {
        let scene = Scenes.scene("""
            {"id": "P", "class": "UIView", "frame": [50, 100, 100, 100], "overrides": {"pointInside": {"orSubviews": true}}, "subviews": [
              {"id": "C", "class": "UIView", "frame": [80, 80, 60, 60]}]}
            """)
        let r = try Scenes.run(scene, Scenes.tap(170, 220))
        #expect(r.firstResponder?.id == "C")
        let c = r.trace.first { $0.receiver?.id == "C" && $0.selector == "hitTest:withEvent:" }!
        #expect(c.args[0].value == .point(Point(40, 40)))
    }

    /// SC-14: an enlarged pointInside (insets of −10) takes a tap 5 pt outside the frame (H7);
    /// inside a 24×24 container the container refuses first.
    @Test func sc14PointInsideInsets() throws {
        let button = #"{"id": "B", "class": "BigButton", "base": "UIButton", "frame": FRAME, "overrides": {"pointInside": {"insets": [-10, -10, -10, -10]}}}"#
        let alone = try Scenes.run(Scenes.scene(button.replacingOccurrences(of: "FRAME", with: "[100, 300, 24, 24]")), Scenes.tap(95, 296))
        #expect(alone.firstResponder?.id == "B")
        let hit = alone.trace.first { $0.receiver?.id == "B" && $0.selector == "hitTest:withEvent:" }!
        #expect(hit.args[0].value == .point(Point(-5, -4)))
        let contained = try Scenes.run(Scenes.scene("""
            {"id": "K", "class": "UIView", "frame": [100, 300, 24, 24], "subviews": [\(button.replacingOccurrences(of: "FRAME", with: "[0, 0, 24, 24]"))]}
            """), Scenes.tap(95, 296))
        #expect(contained.firstResponder?.id == "R")
        #expect(!contained.calls.contains("B hitTest:withEvent:"))
    }

    static let passThroughScene = Scenes.scene("""
        {"id": "B", "class": "UIButton", "frame": [40, 600, 200, 50]},
        {"id": "O", "class": "PassThroughView", "frame": [0, 0, 390, 844], "overrides": {"hitTest": "passThrough"}, "subviews": [
          {"id": "K", "class": "UIView", "frame": [20, 100, 350, 200]}]}
        """)

    /// SC-15: a pass-through overlay: the override entry, the nested super entry, then the
    /// button below (H8).
    @Test func sc15PassThrough() throws {
        let r = try Scenes.run(HitTestScenarioTests.passThroughScene, Scenes.tap(60, 620))
        #expect(r.firstResponder?.id == "B")
        let hits = r.trace.prefix { $0.selector != "sendEvent:" && $0.marker != .collect }
        let lines = hits.map { "\(String(repeating: " ", count: $0.depth))\($0.receiver!.id) \($0.selector!) \($0.note == "super" ? "[super] " : "")→ \(TextRenderer.value($0.result ?? .null))" }
        #expect(lines == [
            "W hitTest:withEvent: → B",
            " W pointInside:withEvent: → YES",
            " R hitTest:withEvent: → B",
            "  R pointInside:withEvent: → YES",
            "  O hitTest:withEvent: → nil",
            "   O hitTest:withEvent: [super] → O",
            "    O pointInside:withEvent: → YES",
            "    K hitTest:withEvent: → nil",
            "     K pointInside:withEvent: → NO",
            "  B hitTest:withEvent: → B",
            "   B pointInside:withEvent: → YES",
        ])
        // A tap on the card returns K through the override.
        let card = try Scenes.run(HitTestScenarioTests.passThroughScene, Scenes.tap(100, 150))
        #expect(card.firstResponder?.id == "K")
    }

    /// H8 variants: `self` and `redirect`.
    @Test func hitTestSelfAndRedirect() throws {
        let scene = Scenes.scene("""
            {"id": "T", "class": "TargetView", "frame": [0, 500, 100, 100]},
            {"id": "S", "class": "Shield", "frame": [0, 0, 390, 400], "overrides": {"hitTest": "self"}, "subviews": [
              {"id": "In", "class": "UIView", "frame": [0, 0, 100, 100]}]},
            {"id": "D", "class": "Redirector", "frame": [200, 500, 100, 100], "overrides": {"hitTest": {"redirect": "T"}}}
            """)
        #expect(try Scenes.run(scene, Scenes.tap(10, 10)).firstResponder?.id == "S")
        #expect(try Scenes.run(scene, Scenes.tap(250, 550)).firstResponder?.id == "T")
    }

    /// H4: the minimum edges are inside, the maximum edges outside.
    @Test(arguments: [(20.0, 100.0, "V"), (219.999, 299.999, "V"), (220.0, 150.0, "R"), (50.0, 300.0, "R")])
    func pointInsideEdges(_ x: Double, _ y: Double, _ expected: String) throws {
        let r = try Scenes.run(Scenes.scene(Scenes.touchView + "}"), Scenes.tap(x, y))
        #expect(r.firstResponder?.id == expected)
    }

    /// H5: hit-testing follows transforms (a 45° rotated square) and the parent's bounds origin.
    @Test func transformsAndScrollOffset() throws {
        let c = 0.7071067811865476
        let scene = Scenes.scene("""
            {"id": "Rot", "class": "UIView", "center": [200, 200], "bounds": [0, 0, 100, 100], "transform": [\(c), \(c), \(-c), \(c), 0, 0]},
            {"id": "Scroll", "class": "UIView", "frame": [0, 400, 390, 200], "bounds": [0, 100, 390, 200], "subviews": [
              {"id": "Row", "class": "UIView", "frame": [0, 100, 390, 50]}]}
            """)
        // The rotated square's tip at (200, 200 - 70) is inside; its unrotated corner (155, 155) is not.
        #expect(try Scenes.run(scene, Scenes.tap(200, 131)).firstResponder?.id == "Rot")
        #expect(try Scenes.run(scene, Scenes.tap(155, 155)).firstResponder?.id == "R")
        // Scrolled by 100: the row at content y 100 shows at window y 400.
        let r = try Scenes.run(scene, Scenes.tap(10, 410))
        #expect(r.firstResponder?.id == "Row")
        let row = r.trace.first { $0.receiver?.id == "Row" && $0.selector == "hitTest:withEvent:" }!
        #expect(row.args[0].value == .point(Point(10, 10)))
    }

    static let windowsScene = Scenes.scene("""
        {"id": "B1", "class": "UIButton", "frame": [20, 700, 200, 50]}
        """, windows: """
        {"id": "W2", "class": "OverlayWindow", "base": "UIWindow", "frame": [0, 0, 390, 844], "level": 2000 W2EXTRA, "subviews": [
          {"id": "R2", "class": "UIView", "frame": [0, 0, 390, 844], "viewController": {"id": "VC2", "class": "BannerViewController"} R2EXTRA, "subviews": [
            {"id": "N", "class": "UIView", "frame": [0, 44, 390, 80]}]}]}
        """)

    static func windows(w2: String = "", r2: String = "") -> String {
        windowsScene.replacingOccurrences(of: "W2EXTRA", with: w2).replacingOccurrences(of: "R2EXTRA", with: r2)
    }

    /// SC-18: windows by level (W1), the overlay swallowing (W2), a pass-through window, and a
    /// hidden or non-interactive window (W3).
    @Test func sc18Windows() throws {
        let a = try Scenes.run(HitTestScenarioTests.windows(), Scenes.tap(50, 60))
        #expect(a.firstResponder?.id == "N")
        #expect(a.chainIds == ["N", "R2", "VC2", "W2", "UIApplication", "AppDelegate"])

        let b = try Scenes.run(HitTestScenarioTests.windows(), Scenes.tap(50, 720))
        #expect(b.firstResponder?.id == "R2")
        #expect(!b.calls.contains("W hitTest:withEvent:"))
        let n = b.trace.first { $0.receiver?.id == "N" && $0.selector == "hitTest:withEvent:" }!
        #expect(n.args[0].value == .point(Point(50, 676)))

        let c = try Scenes.run(HitTestScenarioTests.windows(w2: #", "overrides": {"hitTest": "passThrough"}"#,
                                                             r2: #", "overrides": {"hitTest": "passThrough"}"#), Scenes.tap(50, 720))
        #expect(c.firstResponder?.id == "B1")
        #expect(isSubsequence(["W2 hitTest:withEvent:", "W hitTest:withEvent:", "B1 pointInside:withEvent:"], of: c.calls))

        for extra in [#", "hidden": true"#, #", "userInteractionEnabled": false"#] {
            let d = try Scenes.run(HitTestScenarioTests.windows(w2: extra), Scenes.tap(50, 720))
            #expect(d.firstResponder?.id == "B1")
            #expect(!d.calls.contains("W2 pointInside:withEvent:"))
        }
    }

    /// W1: equal levels: the later window (front-most) is asked first.
    @Test func equalLevelsFrontMostFirst() throws {
        let scene = Scenes.scene("", windows: """
            {"id": "W2", "class": "UIWindow", "frame": [0, 0, 390, 844], "level": 0}
            """)
        let r = try Scenes.run(scene, Scenes.tap(10, 10))
        #expect(r.firstResponder?.id == "W2")
        #expect(r.calls.first == "W2 hitTest:withEvent:")
    }

    /// W5: a touch no window claims is dropped: only hit-test calls, no sendEvent.
    @Test func touchOutsideEveryWindow() throws {
        let scene = """
            {"format": "taptrace/scene@1", "windows": [{"id": "W", "class": "UIWindow", "frame": [0, 0, 100, 100]}]}
            """
        let r = try Scenes.run(scene, Scenes.tap(200, 200))
        #expect(r.firstResponder == nil)
        #expect(r.calls == ["W hitTest:withEvent:", "W pointInside:withEvent:"])
        #expect(r.touches[0].window == nil && r.touches[0].hitTestView == nil)
        #expect(r.responderChain.isEmpty)
    }

    /// Z1: an animating view is skipped like a non-interactive one.
    @Test func animatingViewIsPruned() throws {
        let r = try Scenes.run(Scenes.scene(#"{"id": "A", "class": "UIView", "frame": [0, 0, 390, 400], "animating": true}"#), Scenes.tap(10, 10))
        #expect(r.firstResponder?.id == "R")
        #expect(!r.calls.contains("A pointInside:withEvent:"))
    }

    /// H10/H11: a full-screen window whose subviews miss the point returns its root view.
    @Test func rootViewWhenNothingElse() throws {
        let r = try Scenes.run(Scenes.scene(), Scenes.tap(300, 800))
        #expect(r.firstResponder?.id == "R")
    }
}

/// Regression: an untraced hit-test (explain, hit-test without trace) must apply hitTest
/// overrides exactly like a traced one (it skipped them while the trace was off).
struct UntracedHitTestTests {
    @Test func overridesApplyWithoutTrace() throws {
        let index = try InputDecoder.sceneIndex(Array(HitTestScenarioTests.passThroughScene.utf8))
        let tester = HitTester(index: index, knobs: Knobs())
        var quiet = TraceRecorder(enabled: false)
        var traced = TraceRecorder(viewRefs: index.refs)
        for p in [Point(60, 620), Point(300, 700), Point(100, 150)] {
            let a = tester.windowHitTest(screenPoint: p, event: nil, passes: 1, trace: &quiet)
            let b = tester.windowHitTest(screenPoint: p, event: nil, passes: 1, trace: &traced)
            #expect(a?.view == b?.view)
        }
        #expect(tester.quietHitTest(index.view(withId: "W")!, point: Point(300, 700)) == index.view(withId: "R"))
    }
}
