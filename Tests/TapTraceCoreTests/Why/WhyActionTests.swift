import SceneTestSupport
@testable import TapTraceCore
import Testing

/// "Why was this action sent, or not sent?" (issue 31, item 2).
struct WhyActionTests {
    typealias E = WhyRun

    /// The issue's example: buyTapped: sent by buyButton's touch-up to its target (K8, A1),
    /// its touchesEnded: held back by cardTap until it failed (GV6).
    @Test func checkoutSentToTarget() throws {
        let r = try WhyRun.checkout()
        let a = try r.ask(.action("buyTapped:"))
        #expect(a.answer == "buyTapped: was sent at t=0.08 by buyButton (touchUpInside) to checkoutVC")
        let k8 = r.reason(a, "K8", "(checkoutVC, buyTapped:, {.touchUpInside})")
        #expect(r.shows(k8, E.call("checkoutVC", "buyTapped:")))
        #expect(r.shows(k8) { $0.receiver?.id == "UIApplication" && $0.selector == "sendAction:to:from:forEvent:" && $0.result == .bool(true) })
        #expect(r.shows(k8) { $0.marker == .control && $0.strings("events").contains("touchUpInside") })
        let gv6 = r.reason(a, "GV6", "delivered at t=0.08 when cardTap failed")
        #expect(r.shows(gv6, E.state("cardTap", to: .failed)))
        #expect(r.shows(gv6) { $0.marker == .flush })
    }

    /// A2, A3: a nil target walks the chain from the sender to the first implementer.
    @Test func sentUpTheChain() throws {
        let r = try WhyRun(WhyScenes.sc11(vc: #""implements": ["saveDocument:"]"#), Scenes.tap(100, 170))
        let a = try r.ask(.action("saveDocument:"))
        #expect(a.answer == "saveDocument: was sent at t=0.1 by B (touchUpInside) with a nil target and reached VC up the responder chain (A2)")
        let a3 = r.reason(a, "A3", "started at B (no focused responder; the sender; A3)")
        #expect(r.shows(a3) { $0.marker == .chainWalk && ($0.note ?? "").hasPrefix("start = B") })
        let a2 = r.reason(a, "A2", "B, P and R do not implement it; VC is the first responder on the chain that implements saveDocument:")
        #expect(r.shows(a2) { $0.marker == .chainWalk && $0.receiver?.id == "VC" && $0.arg("implements") == .bool(true) })
        #expect(r.shows(a2, E.call("VC", "saveDocument:")))
    }

    /// GS2: a recognizer's action, with why it recognized.
    @Test func sentByRecognizer() throws {
        let r = try WhyRun(WhyScenes.touchView(WhyScenes.tap("tapV")), Scenes.tap(50, 150))
        let a = try r.ask(.action("handleTap:"))
        #expect(a.answer == "handleTap: was sent at t=0.1 by tapV (.ended) to VC")
        let gs2 = r.reason(a, "GS2", "tapV went to .ended at t=0.1 and sent handleTap: to its target VC")
        #expect(r.shows(gs2, E.state("tapV", to: .ended)))
        #expect(r.shows(gs2, E.call("VC", "handleTap:")))
        #expect(r.shows(r.reason(a, "GP9", "its tap lifted"), E.call("tapV", "touchesEnded:withEvent:")))
    }

    /// Not sent: the touch never reached the control (H rules for it, from the hit-test).
    @Test func notSentNeverTracked() throws {
        let r = try WhyRun(WhyScenes.button(), Scenes.tap(300, 600))
        let a = try r.ask(.action("buttonTapped:"))
        #expect(a.answer == "buttonTapped: was not sent: B never tracked a touch: T1 was hit-tested to R, not to B (H4)")
        #expect(r.shows(r.reason(a, "H1", "the hit-test in W returned R"), E.call("W", "hitTest:withEvent:")))
        let h4 = r.reason(a, "H4", "in B's coordinates")
        #expect(r.shows(h4) { $0.receiver?.id == "B" && $0.selector == "pointInside:withEvent:" && $0.result == .bool(false) })
    }

    /// Not sent: an ancestor's tap recognized and cancelled the plain control's touch (X3,
    /// GV2, GV10).
    @Test func notSentCancelledByRecognizer() throws {
        let r = try WhyRun(WhyScenes.sc03(control: #""class": "ToggleControl", "base": "UIControl""#), Scenes.tap(100, 220))
        let a = try r.ask(.action("buttonTapped:"))
        #expect(a.answer == "buttonTapped: was not sent: B's touch was cancelled: tapC cancelled T1 (GV10: cancelsTouchesInView)")
        let gv10 = r.reason(a, "GV10", "tapC recognized at t=0.1 and has cancelsTouchesInView = YES")
        #expect(r.shows(gv10, E.state("tapC", to: .ended)))
        #expect(r.shows(gv10, E.call("B", "touchesCancelled:withEvent:")))
        #expect(r.shows(gv10, E.call("B", "cancelTrackingWithEvent:")))
    }

    /// Not sent: the touch lifted outside the 70 pt slop (K3, K5).
    @Test func notSentOutsideSlop() throws {
        let r = try WhyRun(WhyScenes.button(), Scenes.touches([(0, "T1", "began", 100, 220), (0.05, "T1", "moved", 100, 330), (0.1, "T1", "ended", 100, 330)]))
        let a = try r.ask(.action("buttonTapped:"))
        #expect(a.answer == "buttonTapped: was not sent: T1 lifted outside B's 70 pt tracking slop (K3)")
        let k3 = r.reason(a, "K3", "T1 lifted at (60, 130) in B's coordinates")
        #expect(r.shows(k3) { $0.marker == .control && $0.receiver?.id == "B" && $0.arg("inside") == .bool(false) })
        #expect(r.shows(k3, E.call("B", "endTrackingWithTouch:withEvent:")))
    }

    /// Not sent: the control is disabled; its touches go up the chain (K11).
    @Test func notSentDisabled() throws {
        let r = try WhyRun(WhyScenes.button(#", "enabled": false"#), Scenes.tap(100, 220))
        let a = try r.ask(.action("buttonTapped:"))
        #expect(a.answer == "buttonTapped: was not sent: B is disabled (K11)")
        let k11 = r.reason(a, "K11", "enabled = NO")
        #expect(r.shows(k11, E.call("B", "touchesBegan:withEvent:")))
        #expect(r.shows(k11, E.call("R", "touchesBegan:withEvent:")))
    }

    /// Not sent: beginTrackingWithTouch:withEvent: answered NO (K2).
    @Test func notSentNotTracking() throws {
        let r = try WhyRun(WhyScenes.button(#", "overrides": {"beginTracking": false}"#), Scenes.tap(100, 220))
        let a = try r.ask(.action("buttonTapped:"))
        #expect(a.answer == "buttonTapped: was not sent: B's beginTrackingWithTouch:withEvent: answered NO (K2)")
        let k2 = r.reason(a, "K2", "does not track")
        #expect(r.shows(k2) { $0.selector == "beginTrackingWithTouch:withEvent:" && $0.result == .bool(false) })
    }

    /// Not sent: the control fired other events than the action's (K9).
    @Test func notSentOtherEvents() throws {
        let r = try WhyRun(Scenes.scene(#"{"id": "B", "class": "UIButton", "frame": [40, 200, 120, 44], "targets": [{"events": ["touchUpOutside"], "target": "VC", "action": "upOutside:"}]}"#), Scenes.tap(100, 220))
        let a = try r.ask(.action("upOutside:"))
        #expect(a.answer == "upOutside: was not sent: B fired {.touchDown, .touchUpInside, .primaryActionTriggered}, none of upOutside:'s events {.touchUpOutside} (K9)")
        let k9 = r.reason(a, "K9", "registered for {.touchUpOutside}")
        #expect(r.shows(k9) { $0.marker == .control && $0.strings("events") == ["touchUpInside", "primaryActionTriggered"] })
    }

    /// Not sent: continueTrackingWithTouch:withEvent: answered NO, ending the tracking (K4).
    @Test func notSentTrackingStopped() throws {
        let r = try WhyRun(WhyScenes.button(#", "overrides": {"continueTracking": false}"#),
                           Scenes.touches([(0, "T1", "began", 100, 220), (0.05, "T1", "moved", 102, 222), (0.1, "T1", "ended", 102, 222)]))
        let a = try r.ask(.action("buttonTapped:"))
        #expect(a.answer == "buttonTapped: was not sent: B's continueTrackingWithTouch:withEvent: answered NO at t=0.05 (K4)")
        let k4 = r.reason(a, "K4", "tracking ended there")
        #expect(r.shows(k4) { $0.selector == "continueTrackingWithTouch:withEvent:" && $0.result == .bool(false) })
    }

    /// Delivered nowhere: a nil target and no implementer on the chain (A2).
    @Test func noImplementer() throws {
        let r = try WhyRun(WhyScenes.sc11(), Scenes.tap(100, 170))
        let a = try r.ask(.action("saveDocument:"))
        #expect(a.answer == "saveDocument: was not sent: B sent saveDocument: at t=0.1 with a nil target, but no responder on the chain implements it (A2)")
        let a2 = r.reason(a, "A2", "UIApplication sendAction:to:from:forEvent: returned NO")
        #expect(r.shows(a2) { $0.selector == "sendAction:to:from:forEvent:" && $0.result == .bool(false) })
        #expect(r.shows(a2) { $0.marker == .chainWalk && $0.receiver?.id == "AppDelegate" && $0.arg("implements") == .bool(false) })
    }

    /// Not sent: no control or recognizer in the scene has that action.
    @Test func unknownAction() throws {
        let r = try WhyRun.checkout()
        let a = try r.ask(.action("refundTapped:"))
        #expect(a.answer == "refundTapped: was not sent: no control or recognizer in the scene sends it (K8)")
        #expect(r.reason(a, "K8", "name refundTapped:")?.trace == [])
    }

    /// Not sent: the recognizer that sends it failed (its reasons, X1).
    @Test func notSentRecognizerFailed() throws {
        let r = try WhyRun.checkout()
        let a = try r.ask(.action("cardTapped:"))
        #expect(a.answer == "cardTapped: was not sent: cardTap failed at t=0.08: buyButton's gestureRecognizerShouldBegin: answered NO (X1)")
        #expect(r.shows(r.reason(a, "X1"), E.state("cardTap", to: .failed)))
    }

    /// Not sent: a recognizer's nil target sends nothing (A7).
    @Test func recognizerNilTarget() throws {
        let r = try WhyRun(WhyScenes.touchView(#"{"id": "tapV", "class": "UITapGestureRecognizer", "targets": [{"target": null, "action": "handleTap:"}]}"#), Scenes.tap(50, 150))
        let a = try r.ask(.action("handleTap:"))
        #expect(a.answer.hasSuffix("(A7)"))
        #expect(r.shows(r.reason(a, "A7", "nil target"), E.state("tapV", to: .ended)))
    }
}
