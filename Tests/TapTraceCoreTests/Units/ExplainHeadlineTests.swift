import Foundation
import SceneTestSupport
@testable import TapTraceCore
import TapTraceFormats
import Testing

/// `explain` leads with the deciding reason (issue 31, item 1): pruned (H2, H3, H9; W3) before
/// outside (H4, H6) before an override (H7, H8) before another view taking the point (W1, H1
/// covered, H11). Each test asserts the first reason's rule, kind and a fragment of its text,
/// and where several reasons hold, the order of all of them.
struct ExplainHeadlineTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func checkout() throws -> SceneIndex {
        let url = packageRoot.appendingPathComponent("examples/checkout.scene.json")
        return try InputDecoder.sceneIndex(Array(try Data(contentsOf: url)))
    }

    func explain(_ scene: String, _ x: Double, _ y: Double, _ target: String) throws -> Explanation {
        try Explainer.explain(InputDecoder.sceneIndex(Array(scene.utf8)), point: Point(x, y), target: target)
    }

    /// The first reason: its rule, its kind and a fragment of its text.
    func expectHeadline(_ e: Explanation, _ rule: String, _ kind: String, _ fragment: String,
                        sourceLocation: SourceLocation = #_sourceLocation) {
        guard let first = e.reasons.first else {
            Issue.record("no reasons", sourceLocation: sourceLocation)
            return
        }
        #expect(first.rule == rule, sourceLocation: sourceLocation)
        #expect(first.kind == kind, sourceLocation: sourceLocation)
        #expect(first.text.contains(fragment), "\(first.text)", sourceLocation: sourceLocation)
    }

    // MARK: - The two examples of the issue (examples/checkout.scene.json at (100, 332))

    /// `title` is a UILabel (H9) 172 pt above the point (H4), and `buyButton` is in front of it
    /// (H1). The old headline was the last of these.
    @Test func checkoutTitleLeadsWithItsClassDefault() throws {
        let e = try Explainer.explain(Self.checkout(), point: Point(100, 332), target: "title")
        #expect(!e.isHitTestView && e.hitTestView?.id == "buyButton")
        expectHeadline(e, "H9", "pruned", "title is a UILabel, whose userInteractionEnabled is NO unless the scene sets it (H9)")
        #expect(e.reasons.map(\.rule) == ["H9", "H4", "H1"])
        #expect(e.reasons.map(\.kind) == ["pruned", "outsideBounds", "covered"])
        #expect(e.reasons[0].views.map(\.id) == ["title"])
        #expect(e.reasons[1].text.contains("(68, 196) in title's coordinates, 172 pt below its bounds (0, 0, 326, 24)"))
        #expect(e.reasons[2].text.contains("buyButton is in front of title inside card"))
        let lines = e.text().split(separator: "\n")
        #expect(lines[0] == "title at (100, 332): is not the hit-test view (it is buyButton)")
        #expect(lines[1].hasPrefix("1. [H9] title is a UILabel"))
    }

    /// `cardTap` receives the touch (G1); whether it recognizes is a question for the run.
    @Test func checkoutCardTapPointsToTheRun() throws {
        let e = try Explainer.explain(Self.checkout(), point: Point(100, 332), target: "cardTap")
        #expect(e.receivesTouch == true)
        expectHeadline(e, "G1", "recognizerScope", "hit-tested to buyButton, which is inside card")
        #expect(e.reasons.map(\.rule) == ["G1", "GS1"])
        #expect(e.reasons[1].kind == "dependsOnRun")
        #expect(e.reasons[1].text.contains("taptrace why REQUEST.json --recognizer cardTap"))
        // Explain states no run facts: it does not claim the recognizer fails or fires.
        #expect(!e.reasons[1].text.contains("X1") && !e.reasons[1].text.contains("gestureRecognizerShouldBegin"))
    }

    /// The view of the README's explain example: buyButton inside card is deeper (H11).
    @Test func checkoutCardLeadsWithTheDeeperButton() throws {
        let e = try Explainer.explain(Self.checkout(), point: Point(100, 332), target: "card")
        expectHeadline(e, "H11", "deeperView", "buyButton inside card accepts the point and is deeper")
        #expect(e.reasons.map(\.rule) == ["H11"])
    }

    // MARK: - Pruned (H2, H3, H9, W3)

    /// H2 hidden, ahead of a front sibling that takes the point.
    @Test func hiddenBeforeCovered() throws {
        let e = try explain(Scenes.scene("""
            {"id": "V", "class": "UIView", "frame": [20, 100, 200, 200], "hidden": true},
            {"id": "F", "class": "UIView", "frame": [0, 0, 390, 400]}
            """), 50, 150, "V")
        #expect(e.hitTestView?.id == "F")
        expectHeadline(e, "H2", "pruned", "V is hidden: hitTest returns nil without asking pointInside")
        #expect(e.reasons.map(\.rule) == ["H2", "H1"])
        #expect(e.reasons[1].kind == "covered" && e.reasons[1].views.first?.id == "F")
    }

    /// H2 userInteractionEnabled = NO set by the scene (not H9, which is the class default).
    @Test func interactionDisabled() throws {
        let e = try explain(Scenes.scene(#"{"id": "V", "class": "UIView", "frame": [20, 100, 200, 200], "userInteractionEnabled": false}"#), 50, 150, "V")
        expectHeadline(e, "H2", "pruned", "V is userInteractionEnabled = NO:")
        #expect(e.reasons.map(\.rule) == ["H2"])
    }

    /// H3: an ancestor at alpha 0.005 decides before the point being outside the target (H4).
    @Test func transparentAncestorBeforeOutside() throws {
        let e = try explain(Scenes.scene(#"{"id": "P", "class": "UIView", "frame": [0, 0, 200, 200], "alpha": 0.005, "subviews": [{"id": "C", "class": "UIView", "frame": [0, 0, 50, 50]}]}"#), 100, 100, "C")
        expectHeadline(e, "H3", "pruned", "its ancestor P is alpha 0.004999999888241291 < 0.01")
        #expect(e.reasons[0].views.map(\.id) == ["P"])
        #expect(e.reasons.map(\.rule) == ["H3", "H4"])
        #expect(e.reasons[1].text.contains("50 pt right of and 50 pt below its bounds (0, 0, 50, 50) (H4)"))
    }

    /// H9 for a UILabel subclass, before H6 (its parent refuses the point too).
    @Test func classDefaultBeforeOutsideAncestor() throws {
        let e = try explain(Scenes.scene("""
            {"id": "P", "class": "UIView", "frame": [0, 0, 100, 100], "subviews": [
              {"id": "L", "class": "PriceLabel", "base": "UILabel", "frame": [0, 0, 300, 300]}]}
            """), 150, 150, "L")
        expectHeadline(e, "H9", "pruned", "L is a PriceLabel (a UILabel), whose userInteractionEnabled is NO unless the scene sets it")
        #expect(e.reasons.map(\.rule) == ["H9", "H6"])
        #expect(e.reasons[1].text.contains("even though L extends there"))
    }

    /// W3: the target's window is hidden; a hidden window ranks as the target's own reason.
    @Test func hiddenWindow() throws {
        let scene = Scenes.scene(windows: """
            {"id": "W2", "class": "UIWindow", "frame": [0, 0, 390, 844], "level": 1, "hidden": true, "subviews": [
              {"id": "N", "class": "UIView", "frame": [0, 0, 390, 200]}]}
            """)
        let e = try explain(scene, 50, 50, "N")
        #expect(e.hitTestView?.id == "R")
        expectHeadline(e, "W3", "pruned", "its window W2 is hidden")
        #expect(e.reasons.map(\.rule) == ["W3"])
        #expect(e.reasons[0].views.map(\.id) == ["W2"])
    }

    // MARK: - Outside (H4, H6)

    /// H4: the point is outside the target; the front sibling that takes it comes second.
    @Test func outsideBeforeCovered() throws {
        let e = try explain(Scenes.scene("""
            {"id": "V", "class": "UIView", "frame": [20, 100, 200, 200]},
            {"id": "F", "class": "UIView", "frame": [0, 0, 390, 400]}
            """), 250, 150, "V")
        expectHeadline(e, "H4", "outsideBounds", "the point is (230, 50) in V's coordinates, 30 pt right of its bounds (0, 0, 200, 200) (H4)")
        #expect(e.reasons.map(\.rule) == ["H4", "H1"])
    }

    /// H4 on the maximum edge: CGRect semantics, said as such.
    @Test func maximumEdge() throws {
        let e = try explain(Scenes.scene(Scenes.touchView + "}"), 220, 150, "V")
        expectHeadline(e, "H4", "outsideBounds", "on the right edge of its bounds (0, 0, 200, 200), and the maximum edges are outside (H4)")
    }

    /// H6: outside the parent (and the target), whatever clipsToBounds says.
    @Test func outsideAncestorBeforeOutsideTarget() throws {
        let scene = HitTestScenarioTests.overflowScene.replacingOccurrences(of: "CLIPS", with: "false")
        let overflow = try explain(scene, 170, 220, "C")
        expectHeadline(overflow, "H6", "outsideBounds", "the point is (120, 120) in P's coordinates, 20 pt right of and 20 pt below its bounds (0, 0, 100, 100) (H4), so none of P's subviews is asked, even though C extends there")
        #expect(overflow.reasons.map(\.rule) == ["H6"])
        #expect(overflow.reasons[0].text.contains("clipsToBounds = NO draws the overflow"))
        let far = try explain(scene, 300, 300, "C")
        expectHeadline(far, "H6", "outsideBounds", "so none of P's subviews is asked")
        #expect(far.reasons.map(\.rule) == ["H6", "H4"])
        #expect(far.reasons[1].text.contains("110 pt right of and 60 pt below"))
    }

    // MARK: - Overrides (H7, H8)

    /// H7: a pointInside override refuses a point the bounds contain; before the front sibling.
    @Test func narrowingPointInsideBeforeCovered() throws {
        let e = try explain(Scenes.scene("""
            {"id": "V", "class": "SmallTargetView", "base": "UIView", "frame": [20, 100, 200, 200], "overrides": {"pointInside": {"insets": [10, 10, 10, 10]}}},
            {"id": "F", "class": "UIView", "frame": [0, 0, 100, 400]}
            """), 25, 105, "V")
        expectHeadline(e, "H7", "override", "V's pointInside override answers NO at (5, 5) in its coordinates, although its bounds (0, 0, 200, 200) contain it")
        #expect(e.reasons.map(\.rule) == ["H7", "H1"])
    }

    /// H7: a widened area that still does not reach the point is an outside reason.
    @Test func widenedPointInsideStillOutside() throws {
        let e = try explain(Scenes.scene(#"{"id": "B", "class": "BigButton", "base": "UIButton", "frame": [100, 300, 24, 24], "overrides": {"pointInside": {"insets": [-10, -10, -10, -10]}}}"#), 50, 310, "B")
        expectHeadline(e, "H7", "outsideBounds", "50 pt left of its bounds (0, 0, 24, 24) (H4); its pointInside override does not accept it either (H7)")
    }

    /// H8: an ancestor returning itself hides the target; the target's pass-through hides itself.
    @Test func hitTestOverrides() throws {
        let hidden = try Explainer.explain(ExplainOverrideTests.index(), point: Point(30, 30), target: "inner")
        expectHeadline(hidden, "H8", "override", "S overrides hitTest to return itself for any point inside it, hiding inner")
        #expect(hidden.reasons.map(\.rule) == ["H8"])
        let passThrough = try explain(HitTestScenarioTests.passThroughScene, 300, 700, "O")
        expectHeadline(passThrough, "H8", "override", "O overrides hitTest to return nil where super returns itself (pass-through)")
        #expect(passThrough.reasons.map(\.rule) == ["H8"])
    }

    /// H8 after H4: the point outside the target decides before an ancestor's override.
    @Test func outsideBeforeOverride() throws {
        let e = try Explainer.explain(ExplainOverrideTests.index(), point: Point(100, 100), target: "inner")
        #expect(e.hitTestView?.id == "S")
        expectHeadline(e, "H4", "outsideBounds", "40 pt right of and 40 pt below its bounds (0, 0, 50, 50)")
        #expect(e.reasons.map(\.rule) == ["H4", "H8"])
    }

    // MARK: - Another view takes the point (W1, H1 covered, H11)

    /// W1: a window in front owns the touch.
    @Test func windowInFront() throws {
        let e = try explain(HitTestScenarioTests.windows(), 50, 720, "B1")
        expectHeadline(e, "W1", "window", "window W2 (level 2000) is offered the touch before W")
        #expect(e.reasons.map(\.rule) == ["W1"])
    }

    /// W1 ranks after the target's own reasons: a hidden button behind an overlay window.
    @Test func ownReasonBeforeWindowInFront() throws {
        let scene = HitTestScenarioTests.windowsScene
            .replacingOccurrences(of: #""frame": [20, 700, 200, 50]}"#, with: #""frame": [20, 700, 200, 50], "hidden": true}"#)
            .replacingOccurrences(of: "W2EXTRA", with: "").replacingOccurrences(of: "R2EXTRA", with: "")
        let e = try explain(scene, 50, 720, "B1")
        expectHeadline(e, "H2", "pruned", "B1 is hidden")
        #expect(e.reasons.map(\.rule) == ["H2", "W1"])
    }

    /// H1 covered: the only reason, a front sibling (alpha 0.5) takes the point.
    @Test func covered() throws {
        let e = try explain(HitTestScenarioTests.pruningScene.replacingOccurrences(of: "ALPHA", with: "0.5"), 100, 120, "B")
        expectHeadline(e, "H1", "covered", "Q is in front of A inside R and its hitTest returns Q")
        #expect(e.reasons.map(\.rule) == ["H1"])
    }

    /// H11: a deeper view inside the target wins; a disabled control's H13 is a remark after it.
    @Test func deeperView() throws {
        let scene = Scenes.scene(#"{"id": "B", "class": "UIButton", "frame": [40, 200, 120, 44], "enabled": false, "subviews": [{"id": "Icon", "class": "UIView", "frame": [0, 0, 20, 20]}]}"#)
        let e = try explain(scene, 45, 205, "B")
        expectHeadline(e, "H11", "deeperView", "Icon inside B accepts the point and is deeper, so it is the hit-test view")
        #expect(e.reasons.map(\.rule) == ["H11", "H13"])
    }

    /// H11 also holds behind an own reason: a pruned target whose subview would be deeper.
    @Test func deeperViewAfterPruned() throws {
        let e = try explain(Scenes.scene(#"{"id": "Photo", "class": "UIImageView", "frame": [0, 100, 200, 200], "subviews": [{"id": "Badge", "class": "UIView", "frame": [0, 0, 50, 50]}]}"#), 10, 110, "Photo")
        expectHeadline(e, "H9", "pruned", "Photo is a UIImageView")
        #expect(e.reasons.map(\.rule) == ["H9", "H11"])
        #expect(e.reasons[1].text.contains("were Photo asked, Badge inside it would accept the point"))
        let subclass = try explain(Scenes.scene(#"{"id": "Tile", "class": "ImageTile", "base": "UIImageView", "frame": [0, 100, 200, 200]}"#), 10, 110, "Tile")
        expectHeadline(subclass, "H9", "pruned", "Tile is an ImageTile (a UIImageView), whose userInteractionEnabled is NO unless the scene sets it")
    }

    // MARK: - Disabled control (H13)

    /// H13 leads when the disabled control is the hit-test view: it is hit, but does not track.
    @Test func disabledControlIsStillHit() throws {
        let e = try explain(Scenes.scene(#"{"id": "B", "class": "UIButton", "frame": [40, 200, 120, 44], "enabled": false}"#), 100, 220, "B")
        #expect(e.isHitTestView)
        expectHeadline(e, "H13", "disabledControl", "B is a disabled control, and disabled controls are still hit-tested")
        #expect(e.reasons.map(\.rule) == ["H13", "H1"])
        #expect(e.reasons[1].kind == "hit")
    }

    // MARK: - Recognizers

    /// A recognizer on a UILabel (G5): out of scope, then its view's deciding reason (H9).
    @Test func recognizerOnALabel() throws {
        let e = try explain(Scenes.scene(#"{"id": "L", "class": "UILabel", "frame": [0, 100, 200, 50], "gestureRecognizers": [{"id": "labelTap", "class": "UITapGestureRecognizer", "targets": []}]}"#), 10, 110, "labelTap")
        #expect(e.receivesTouch == false)
        expectHeadline(e, "G1", "recognizerScope", "this touch goes to R")
        #expect(e.reasons.map(\.rule) == ["G1", "H9"])
        #expect(!e.reasons.contains { $0.kind == "dependsOnRun" })
    }
}
