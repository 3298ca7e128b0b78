import SceneTestSupport
@testable import TapTraceCore
import TapTraceFormats
import Testing

/// `explain`: ordered reasons with rule ids (issue 2, item 9).
struct ExplainTests {
    func explain(_ scene: String, _ x: Double, _ y: Double, _ target: String) throws -> Explanation {
        try Explainer.explain(InputDecoder.sceneIndex(Array(scene.utf8)), point: Point(x, y), target: target)
    }

    @Test func hitView() throws {
        let e = try explain(Scenes.scene(Scenes.touchView + "}"), 50, 150, "V")
        #expect(e.isHitTestView)
        #expect(e.reasons.map(\.rule) == ["H1"])
        #expect(e.reasons[0].views.map(\.id) == ["W", "R", "V"])
    }

    @Test func outsideParentWithClipsRemark() throws {
        let e = try explain(HitTestScenarioTests.overflowScene.replacingOccurrences(of: "CLIPS", with: "true"), 170, 220, "C")
        #expect(!e.isHitTestView && e.hitTestView?.id == "R")
        #expect(e.reasons.map(\.rule) == ["H6"])
        #expect(e.reasons[0].text.contains("even though C extends there") && e.reasons[0].text.contains("clipsToBounds = YES"))
    }

    @Test func prunedAncestor() throws {
        let e = try explain(Scenes.scene(#"{"id": "P", "class": "UIView", "frame": [0, 0, 200, 200], "alpha": 0.005, "subviews": [{"id": "C", "class": "UIView", "frame": [0, 0, 50, 50]}]}"#), 10, 10, "C")
        #expect(e.reasons.map(\.rule) == ["H3"])
        #expect(e.reasons[0].kind == "pruned" && e.reasons[0].views.map(\.id) == ["P"])
    }

    @Test func coveredByFrontSibling() throws {
        let e = try explain(HitTestScenarioTests.pruningScene.replacingOccurrences(of: "ALPHA", with: "0.5"), 100, 120, "B")
        #expect(e.reasons.map(\.kind) == ["covered"])
        #expect(e.reasons[0].views.first?.id == "Q")
    }

    @Test func higherWindow() throws {
        let e = try explain(HitTestScenarioTests.windows(), 50, 720, "B1")
        #expect(e.reasons.map(\.rule) == ["W1"])
        #expect(e.reasons[0].text.contains("W2 (level 2000)"))
    }

    @Test func passThroughOverride() throws {
        let e = try explain(HitTestScenarioTests.passThroughScene, 300, 700, "O")
        #expect(e.reasons.contains { $0.rule == "H8" && $0.kind == "override" })
    }

    @Test func deeperViewAndDisabledControl() throws {
        let scene = Scenes.scene(#"{"id": "B", "class": "UIButton", "frame": [40, 200, 120, 44], "enabled": false, "subviews": [{"id": "Icon", "class": "UIView", "frame": [0, 0, 20, 20]}]}"#)
        let deeper = try explain(scene, 45, 205, "B")
        #expect(deeper.reasons.map(\.rule) == ["H11", "H13"])
        let disabled = try explain(scene, 100, 230, "B")
        #expect(disabled.isHitTestView && disabled.reasons.map(\.rule) == ["H13", "H1"])
    }

    @Test func recognizerScope() throws {
        let scene = Scenes.scene(#"{"id": "A", "class": "UIView", "frame": [0, 0, 100, 100], "gestureRecognizers": [{"id": "tapA", "class": "UITapGestureRecognizer", "targets": []}]}, {"id": "B", "class": "UIView", "frame": [200, 0, 100, 100]}"#)
        #expect(try explain(scene, 10, 10, "tapA").receivesTouch == true)
        let no = try explain(scene, 250, 10, "tapA")
        #expect(no.receivesTouch == false && no.reasons.first?.rule == "G1")
    }

    @Test func unknownTarget() throws {
        let index = try InputDecoder.sceneIndex(Array(Scenes.scene().utf8))
        do throws(ValidationIssue) {
            _ = try Explainer.explain(index, point: Point(1, 1), target: "Nope")
            Issue.record("expected an issue")
        } catch {
            #expect(error.pointer == "/target")
        }
    }
}
