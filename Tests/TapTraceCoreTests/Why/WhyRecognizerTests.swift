import SceneTestSupport
@testable import TapTraceCore
import Testing

/// "Why did this recognizer end where it did?" (issue 31, item 2): each cause with its rule and
/// the trace entries that show it.
struct WhyRecognizerTests {
    typealias E = WhyRun

    /// The issue's example: cardTap fails because buyButton's gestureRecognizerShouldBegin:
    /// answers NO (X1), asked because cardTap's tap completed (GP9) and it cancels touches.
    @Test func checkoutCardTapFailsByX1() throws {
        let r = try WhyRun.checkout()
        #expect(r.trace.enumerated().allSatisfy { $0.offset + 1 == $0.element.seq })
        let a = try r.ask(.recognizer("cardTap"))
        #expect(a.answer == "cardTap failed at t=0.08: buyButton's gestureRecognizerShouldBegin: answered NO (X1)")
        let x1 = r.reason(a, "X1", "buyButton, a UIButton, answered NO to gestureRecognizerShouldBegin: for cardTap")
        #expect(r.shows(x1) { $0.receiver?.id == "buyButton" && $0.selector == "gestureRecognizerShouldBegin:" && $0.result == .bool(false) })
        #expect(r.shows(x1, E.state("cardTap", to: .failed, reason: "shouldBeginFalse(buyButton)")))
        #expect(x1?.text.contains("cancelsTouchesInView = YES") == true)
        let attempt = r.reason(a, "GP9", "tried to leave .possible")
        #expect(r.shows(attempt, E.call("cardTap", "touchesEnded:withEvent:")))
        let received = r.reason(a, "G1", "cardTap received T1 (hit-tested to buyButton)")
        #expect(r.shows(received, E.marker(.collect, "buyButton")))
        #expect(r.shows(received, E.call("cardTap", "touchesBegan:withEvent:")))
        // The reasons come in trace order, and the answer is the same every time.
        #expect(a.reasons.map { $0.trace.first ?? 0 } == a.reasons.map { $0.trace.first ?? 0 }.sorted())
        #expect(try r.ask(.recognizer("cardTap")) == a)
    }

    /// SV7: the scroll view's delay recognizer fails at the lift of a quick tap.
    @Test func scrollDelayLiftedEarly() throws {
        let r = try WhyRun.checkout()
        let a = try r.ask(.recognizer("scroll.delay"))
        #expect(a.answer == "scroll.delay failed at t=0.08: the touch ended before scrollDelay = 0.15 s (SV7)")
        let sv7 = r.reason(a, "SV7", "quick tap")
        #expect(r.shows(sv7, E.call("scroll.delay", "touchesEnded:withEvent:")))
        #expect(r.shows(sv7, E.state("scroll.delay", to: .failed, reason: "liftedEarly")))
    }

    /// GS7: the recognizer's delegate answers NO.
    @Test func delegateShouldBeginNo() throws {
        let r = try WhyRun(WhyScenes.touchView(WhyScenes.tap("tapV", #", "delegate": {"id": "VC", "shouldBegin": false}"#)), Scenes.tap(50, 150))
        let a = try r.ask(.recognizer("tapV"))
        #expect(a.answer == "tapV failed at t=0.1: its delegate VC answered NO to gestureRecognizerShouldBegin: (GS7)")
        let gs7 = r.reason(a, "GS7", "its delegate VC answered NO")
        #expect(r.shows(gs7) { $0.receiver?.id == "VC" && $0.selector == "gestureRecognizerShouldBegin:" && $0.result == .bool(false) })
        #expect(r.shows(gs7, E.state("tapV", to: .failed, reason: "shouldBeginFalse(VC)")))
    }

    /// GS7: the hit-test view's own gestureRecognizerShouldBegin: override answers NO.
    @Test func viewOverrideShouldBeginNo() throws {
        let r = try WhyRun(WhyScenes.touchView(WhyScenes.tap("tapV"), extra: #", "implements": []"#)
            .replacingOccurrences(of: #""overrides": {"touches": "handle"}"#,
                                  with: #""overrides": {"touches": "handle", "gestureRecognizerShouldBegin": {"default": false}}"#),
            Scenes.tap(50, 150))
        let a = try r.ask(.recognizer("tapV"))
        #expect(a.answer == "tapV failed at t=0.1: V's gestureRecognizerShouldBegin: override answered NO (GS7)")
        let gs7 = r.reason(a, "GS7", "V's gestureRecognizerShouldBegin: override answered NO")
        #expect(r.shows(gs7) { $0.receiver?.id == "V" && $0.selector == "gestureRecognizerShouldBegin:" && $0.result == .bool(false) })
        #expect(r.shows(gs7, E.state("tapV", to: .failed)))
    }

    static let sc06 = WhyScenes.touchView(#"{"id": "lpV", "class": "UILongPressGestureRecognizer", "targets": [{"target": "VC", "action": "handleLongPress:"}]}, {"id": "tapV", "class": "UITapGestureRecognizer", "requireToFail": ["lpV"], "targets": [{"target": "VC", "action": "handleTap:"}]}"#)

    /// GM6: SC-06b, the long press begins, so the tap that requires it to fail fails.
    @Test func requiredRecognized() throws {
        let r = try WhyRun(Self.sc06, Scenes.tap(50, 150, 0, 0.8))
        let a = try r.ask(.recognizer("tapV"))
        #expect(a.answer == "tapV failed at t=0.5: it requires lpV to fail and lpV began at t=0.5 (GM6)")
        let gm6 = r.reason(a, "GM6", "require(toFail: lpV)")
        #expect(r.shows(gm6, E.state("lpV", to: .began)))
        #expect(r.shows(gm6, E.state("tapV", to: .failed, reason: "requiredRecognized(lpV)")))
        // And the long press: held long enough (GP4, its timer), then lifted (GP4).
        let lp = try r.ask(.recognizer("lpV"))
        #expect(lp.answer == "lpV began at t=0.5 and ended at t=0.8")
        let held = r.reason(lp, "GP4", "held for minimumPressDuration = 0.5 s")
        #expect(r.shows(held) { $0.marker == .timer && $0.receiver?.id == "lpV" && $0.stringArg("action") == "fired" })
        #expect(r.shows(held, E.state("lpV", to: .began)))
        let sent = r.reason(lp, "GS2", "handleLongPress: to VC")
        #expect(r.shows(sent, E.call("VC", "handleLongPress:")))
    }

    /// GP1: the long press lifts early (SC-06a); the tap then recognizes (GP9), its requirement
    /// satisfied (GM6), the view asked (GS7), its action sent (GS2).
    @Test func liftedEarlyAndRecognized() throws {
        let r = try WhyRun(Self.sc06, Scenes.tap(50, 150, 0, 0.1))
        let lp = try r.ask(.recognizer("lpV"))
        #expect(lp.answer == "lpV failed at t=0.1: its touch lifted before minimumPressDuration = 0.5 s (GP1)")
        let gp1 = r.reason(lp, "GP1", "lifted after 0.1 s")
        #expect(r.shows(gp1, E.call("lpV", "touchesEnded:withEvent:")))
        #expect(r.shows(gp1, E.state("lpV", to: .failed, reason: "liftedEarly")))

        let tap = try r.ask(.recognizer("tapV"))
        #expect(tap.answer == "tapV recognized at t=0.1 and sent handleTap: to VC")
        #expect(r.shows(r.reason(tap, "GP9", "its tap lifted"), E.state("tapV", to: .ended, reason: "recognized")))
        #expect(r.shows(r.reason(tap, "GM6", "lpV failed"), E.state("lpV", to: .failed)))
        #expect(r.shows(r.reason(tap, "GS7", "V was asked"), E.call("V", "gestureRecognizerShouldBegin:")))
        #expect(r.shows(r.reason(tap, "GS2", "handleTap: to VC"), E.call("VC", "handleTap:")))
    }

    /// GM2: the inner tap recognizes first and prevents the outer one.
    @Test func prevented() throws {
        let r = try WhyRun(Scenes.scene(#"{"id": "O", "class": "UIView", "frame": [0, 100, 390, 400], "gestureRecognizers": [\#(WhyScenes.tap("outer", action: "outer:"))], "subviews": [{"id": "V", "class": "UIView", "frame": [20, 20, 200, 200], "gestureRecognizers": [\#(WhyScenes.tap("inner", action: "inner:"))]}]}"#),
                           Scenes.tap(50, 150))
        let a = try r.ask(.recognizer("outer"))
        #expect(a.answer == "outer failed at t=0.1: inner recognized at t=0.1 and prevented it (GM2)")
        let gm2 = r.reason(a, "GM2", "the two hold T1, so only one may recognize")
        #expect(r.shows(gm2, E.state("inner", to: .ended)))
        #expect(r.shows(gm2, E.state("outer", to: .failed, reason: "prevented(inner)")))
    }

    static let sc07 = WhyScenes.touchView(#"{"id": "single", "class": "UITapGestureRecognizer", "requireToFail": ["double"], "targets": [{"target": "VC", "action": "handleSingle:"}]}, {"id": "double", "class": "UITapGestureRecognizer", "numberOfTapsRequired": 2, "targets": [{"target": "VC", "action": "handleDouble:"}]}"#)

    /// GP10: the double tap's timer fires; the single tap waited for it (GS10) and then
    /// recognizes.
    @Test func timeoutAndPending() throws {
        let r = try WhyRun(Self.sc07, Scenes.tap(50, 150, 0, 0.08))
        let double = try r.ask(.recognizer("double"))
        #expect(double.answer == "double failed at t=0.43: its tapMaxInterval timer fired (GP10)")
        let gp10 = r.reason(double, "GP10", "within tapMaxInterval = 0.35 s")
        #expect(r.shows(gp10) { $0.marker == .timer && $0.stringArg("action") == "fired" && $0.stringArg("kind") == "tapMaxInterval" })
        #expect(r.shows(gp10) { $0.marker == .timer && $0.stringArg("action") == "scheduled" })
        #expect(r.shows(gp10, E.state("double", to: .failed, reason: "timeout")))

        let single = try r.ask(.recognizer("single"))
        #expect(single.answer == "single recognized at t=0.43 and sent handleSingle: to VC")
        let gs10 = r.reason(single, "GS10", "waited, still .possible, for double to fail")
        #expect(r.shows(gs10, E.marker(.pending, "single")))
        #expect(r.shows(gs10, E.state("double", to: .failed)))
    }

    /// GP12: the tap's touch moves more than 45 pt.
    @Test func movedTooFar() throws {
        let r = try WhyRun(WhyScenes.touchView(WhyScenes.tap("tapV")),
                           Scenes.touches([(0, "T1", "began", 50, 150), (0.05, "T1", "moved", 110, 150), (0.1, "T1", "ended", 110, 150)]))
        let a = try r.ask(.recognizer("tapV"))
        #expect(a.answer == "tapV failed at t=0.05: its touch moved 60 pt, more than tapAllowableMovement = 45 pt (GP12)")
        let gp12 = r.reason(a, "GP12", "moved 60 pt from where it began")
        #expect(r.shows(gp12, E.call("tapV", "touchesMoved:withEvent:")))
        #expect(r.shows(gp12, E.state("tapV", to: .failed, reason: "movedTooFar")))
    }

    /// GP8: a second finger on a one-finger tap.
    @Test func tooManyTouches() throws {
        let r = try WhyRun(WhyScenes.touchView(WhyScenes.tap("tapV")), Scenes.touches([
            (0, "T1", "began", 50, 150), (0.02, "T2", "began", 80, 150), (0.1, "T1", "ended", 50, 150), (0.1, "T2", "ended", 80, 150)]))
        let a = try r.ask(.recognizer("tapV"))
        #expect(a.answer == "tapV failed at t=0.02: more fingers than numberOfTouchesRequired = 1 were down (GP8)")
        let gp8 = r.reason(a, "GP8", "numberOfTouchesRequired = 1")
        #expect(r.shows(gp8) { $0.receiver?.id == "tapV" && $0.selector == "touchesBegan:withEvent:" && $0.touchIDs == ["T2"] })
        #expect(r.shows(gp8, E.state("tapV", to: .failed, reason: "tooManyTouches")))
    }

    /// G1: the touch went to another view; the hit-test reasons for the recognizer's view are
    /// `Explainer`'s, citing the run's hit-test calls on that view.
    @Test func neverReceivedHitElsewhere() throws {
        let r = try WhyRun(WhyScenes.touchView(WhyScenes.tap("tapV")), Scenes.tap(300, 600))
        let a = try r.ask(.recognizer("tapV"))
        #expect(a.answer == "tapV never received a touch: T1 was hit-tested to R, outside V (G1)")
        let g1 = r.reason(a, "G1", "T1 was hit-tested to R, outside V")
        #expect(r.shows(g1) { $0.selector == "hitTest:withEvent:" && $0.parent == nil && $0.result == .object(ObjectRef(id: "R", className: "UIView")) })
        let h4 = r.reason(a, "H4", "in V's coordinates")
        #expect(r.shows(h4) { $0.receiver?.id == "V" && $0.selector == "pointInside:withEvent:" && $0.result == .bool(false) })
    }

    /// G4: a disabled recognizer is left out of the touch's recognizers.
    @Test func neverReceivedDisabled() throws {
        let r = try WhyRun(WhyScenes.touchView(WhyScenes.tap("tapV", #", "enabled": false"#)), Scenes.tap(50, 150))
        let a = try r.ask(.recognizer("tapV"))
        #expect(a.answer == "tapV never received a touch: tapV is disabled (G4)")
        #expect(r.shows(r.reason(a, "G4", "enabled = NO"), E.marker(.collect, "V")))
    }

    /// G6: the delegate refuses the touch.
    @Test func neverReceivedDelegateRefuses() throws {
        let r = try WhyRun(WhyScenes.touchView(WhyScenes.tap("tapV", #", "delegate": {"id": "VC", "shouldReceiveTouch": false}"#)), Scenes.tap(50, 150))
        let a = try r.ask(.recognizer("tapV"))
        #expect(a.answer == "tapV never received a touch: its delegate VC answered NO to gestureRecognizer:shouldReceiveTouch: for T1 (G6)")
        let g6 = r.reason(a, "G6", "never sees that touch")
        #expect(r.shows(g6) { $0.selector == "gestureRecognizer:shouldReceiveTouch:" && $0.result == .bool(false) })
    }

    /// E4: the touch on the recognizer's view was refused because of an exclusive-touch view.
    @Test func neverReceivedExclusiveTouch() throws {
        let r = try WhyRun(Scenes.scene("""
            {"id": "A", "class": "UIView", "frame": [20, 200, 150, 60], "gestureRecognizers": [{"id": "lpA", "class": "UILongPressGestureRecognizer", "targets": [{"target": "VC", "action": "lp:"}]}]},
            {"id": "B", "class": "UIButton", "frame": [200, 200, 150, 60], "exclusiveTouch": true}
            """), Scenes.touches([(0, "T1", "began", 260, 230), (0.1, "T2", "began", 60, 230), (0.2, "T2", "ended", 60, 230), (0.3, "T1", "ended", 260, 230)]))
        let a = try r.ask(.recognizer("lpA"))
        #expect(a.answer == "lpA never received a touch: T2 was refused because of an exclusive-touch view (E4)")
        let e4 = r.reason(a, "E4", "exclusive view B")
        #expect(r.shows(e4) { $0.marker == .gate && $0.touchIDs == ["T2"] })
        #expect(!a.reasons.contains { $0.rule == "G1" })
    }
}
