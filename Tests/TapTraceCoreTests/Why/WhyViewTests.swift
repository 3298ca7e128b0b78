import SceneTestSupport
@testable import TapTraceCore
import Testing

/// "Why did this view receive what it received?" (issue 31, item 2).
struct WhyViewTests {
    typealias E = WhyRun

    /// Withheld and flushed: the scroll view's delay held the whole touch until it failed
    /// (GV5); cardTap held the touchesEnded: until it failed (GV6).
    @Test func checkoutButtonWithheldAndFlushed() throws {
        let r = try WhyRun.checkout()
        let a = try r.ask(.view("buyButton"))
        #expect(a.answer == "buyButton received touchesBegan: and touchesEnded: for T1: touchesBegan: was held back and delivered late when scroll.delay failed (GV5)")
        let gv5 = r.reason(a, "GV5", "because scroll.delay has delaysTouchesBegan = YES")
        #expect(r.shows(gv5) { $0.marker == .withhold && $0.receiver?.id == "buyButton" })
        #expect(r.shows(gv5, E.state("scroll.delay", to: .failed)))
        #expect(r.shows(gv5) { $0.marker == .flush && $0.strings("phases") == ["began"] })
        #expect(r.shows(gv5, E.call("buyButton", "touchesBegan:withEvent:")))
        let gv6 = r.reason(a, "GV6", "because cardTap, holding T1 with delaysTouchesEnded = YES, was still .possible")
        #expect(r.shows(gv6, E.state("cardTap", to: .failed)))
        #expect(r.shows(gv6, E.call("buyButton", "touchesEnded:withEvent:")))
    }

    /// Never hit-tested: the headline H1, then `Explainer`'s reasons (H9 for the label).
    @Test func checkoutTitleNeverHit() throws {
        let r = try WhyRun.checkout()
        let a = try r.ask(.view("title"))
        #expect(a.answer.hasPrefix("title received nothing: T1 was hit-tested to buyButton, not to title"))
        let h1 = r.reason(a, "H1", "the hit-test in W returned buyButton")
        #expect(r.shows(h1) { $0.parent == nil && $0.selector == "hitTest:withEvent:" && $0.receiver?.id == "W" })
        #expect(r.reason(a, "H9", "UILabel") != nil)
    }

    /// Kept below: buyButton, a control, does not forward its touches (T7).
    @Test func checkoutCardKeptByControl() throws {
        let r = try WhyRun.checkout()
        let a = try r.ask(.view("card"))
        #expect(a.answer == "card received nothing of T1: T1 went to buyButton and buyButton kept it (T7)")
        #expect(r.shows(r.reason(a, "T7", "does not forward them"), E.call("buyButton", "touchesBegan:withEvent:")))
    }

    /// Cancelled: the tap recognizes and cancels the view's touch (GV2, T9).
    @Test func cancelledByRecognizer() throws {
        let r = try WhyRun(WhyScenes.touchView(WhyScenes.tap("tapV")), Scenes.tap(50, 150))
        let a = try r.ask(.view("V"))
        #expect(a.answer == "V received touchesBegan: and touchesCancelled: for T1: tapV cancelled T1 (GV2: cancelsTouchesInView)")
        let gv2 = r.reason(a, "GV2", "tapV recognized at t=0.1 and has cancelsTouchesInView = YES")
        #expect(r.shows(gv2, E.state("tapV", to: .ended)))
        #expect(r.shows(gv2, E.call("V", "touchesCancelled:withEvent:")))
        let t1 = r.reason(a, "T1", "V received touchesBegan: at t=0")
        #expect(r.shows(t1, E.call("V", "touchesBegan:withEvent:")))
    }

    /// Dropped: delaysTouchesBegan held everything back, and the pan began (GV5, GV2).
    @Test func withheldAndDropped() throws {
        let r = try WhyRun(WhyScenes.touchView(#"{"id": "panV", "class": "UIPanGestureRecognizer", "delaysTouchesBegan": true, "targets": [{"target": "VC", "action": "handlePan:"}]}"#),
                           Scenes.touches([(0, "T1", "began", 50, 150), (0.03, "T1", "moved", 54, 150), (0.06, "T1", "moved", 62, 150), (0.09, "T1", "moved", 90, 150), (0.12, "T1", "ended", 90, 150)]))
        let a = try r.ask(.view("V"))
        #expect(a.answer == "V received nothing of T1: T1 was held back and dropped when panV began (GV2)")
        let gv5 = r.reason(a, "GV5", "so the phases V had not received were dropped")
        #expect(r.shows(gv5, E.marker(.withhold, "V")))
        #expect(r.shows(gv5, E.state("panV", to: .began)))
        #expect(r.shows(gv5, E.marker(.drop, "V")))
    }

    /// Forwarded: a disabled button passes its touches up to R (T5).
    @Test func forwardedUpTheChain() throws {
        let r = try WhyRun(WhyScenes.button(#", "enabled": false"#), Scenes.tap(100, 220))
        let a = try r.ask(.view("R"))
        #expect(a.answer == "R received touchesBegan: and touchesEnded: for T1: forwarded from B up the responder chain (T5)")
        let t5 = r.reason(a, "T5", "forwarded up the responder chain B → R")
        #expect(r.shows(t5, E.call("B", "touchesBegan:withEvent:")))
        #expect(r.shows(t5, E.call("R", "touchesBegan:withEvent:")))
    }

    /// Skipped: V's nextResponder override jumps over R (R7).
    @Test func skippedByNextResponderOverride() throws {
        let r = try WhyRun(Scenes.scene(#"{"id": "V", "class": "UIView", "frame": [20, 100, 200, 200], "overrides": {"nextResponder": "VC"}}"#), Scenes.tap(50, 150))
        let a = try r.ask(.view("R"))
        #expect(a.answer == "R received nothing of T1: the responder chain from V skips R: V overrides nextResponder to return VC (R7)")
        let r7 = r.reason(a, "R7", "V overrides nextResponder to return VC")
        #expect(r.shows(r7, E.call("VC", "touchesBegan:withEvent:")))
    }

    /// An ancestor of a control whose touch a recognizer cancelled: the control kept the
    /// touch, cancel included (T7).
    @Test func ancestorOfCancelledControl() throws {
        let r = try WhyRun(WhyScenes.sc03(control: #""class": "ToggleControl", "base": "UIControl""#), Scenes.tap(100, 220))
        let a = try r.ask(.view("C"))
        #expect(a.answer == "C received nothing of T1: T1 went to B and B kept it (T7)")
        #expect(r.shows(r.reason(a, "T7", "B is a UIControl"), E.call("B", "touchesBegan:withEvent:")))
    }

    /// Refused: an exclusive-touch view is tracking another touch (E3, E4).
    @Test func refusedByExclusiveTouch() throws {
        let r = try WhyRun(Scenes.scene("""
            {"id": "A", "class": "UIButton", "frame": [20, 200, 150, 60], "exclusiveTouch": true},
            {"id": "B", "class": "UIButton", "frame": [200, 200, 150, 60]}
            """), Scenes.touches([(0, "T1", "began", 60, 230), (0.1, "T2", "began", 260, 230), (0.2, "T2", "ended", 260, 230), (0.3, "T1", "ended", 60, 230)]))
        let a = try r.ask(.view("B"))
        #expect(a.answer == "B received nothing of T2: T2 was refused because of an exclusive-touch view (E4)")
        #expect(r.shows(r.reason(a, "E4", "exclusive view A"), E.marker(.gate, "B")))
    }
}
