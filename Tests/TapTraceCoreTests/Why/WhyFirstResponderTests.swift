import SceneTestSupport
@testable import TapTraceCore
import Testing

/// "Why are the first responder and the chain what they are?" (issue 31, item 2): the hit-test
/// (H1, R1), then each link by its rule.
struct WhyFirstResponderTests {
    typealias E = WhyRun

    /// View → view controller → presenting view controller (R2, R3, A6).
    @Test func presentedController() throws {
        let r = try WhyRun(WhyScenes.sc17, Scenes.tap(100, 720))
        let a = try r.ask(.firstResponder)
        #expect(a.answer.hasPrefix("B is the first responder: T1 at (100, 720) was hit-tested to it (H1, R1); its chain is B → RQ → Q → P → W → UIApplication → AppDelegate"))
        let r1 = r.reason(a, "R1", "the hit-test returned B")
        #expect(r.shows(r1) { $0.receiver?.id == "B" && $0.selector == "hitTest:withEvent:" })
        #expect(r.shows(r1, E.call("W", "hitTest:withEvent:")))
        let root = r.reason(a, "R2", "RQ is the root view of Q")
        #expect(r.shows(root) { $0.marker == .chainWalk && $0.receiver?.id == "Q" })
        let presented = r.reason(a, "R3", "Q was presented by P")
        #expect(r.shows(presented) { $0.marker == .chainWalk && $0.receiver?.id == "P" })
        #expect(r.reason(a, "R3", "P's view RP is the root view of the window W")?.trace == [])
        #expect(r.reason(a, "R9", "B → RQ → Q → P → W → UIApplication → AppDelegate") != nil)
    }

    /// Window → application → app delegate (R4), shown by touches forwarded along each link.
    @Test func windowApplicationDelegate() throws {
        let r = try WhyRun(Scenes.scene(#"{"id": "V", "class": "UIView", "frame": [20, 100, 200, 200]}"#), Scenes.tap(50, 150))
        let a = try r.ask(.firstResponder)
        #expect(a.answer == "V is the first responder: T1 at (50, 150) was hit-tested to it (H1, R1); its chain is V → R → VC → W → UIApplication → AppDelegate (R2, R3, R4)")
        let window = r.reason(a, "R4", "W is a window: its next responder is the application UIApplication")
        #expect(r.shows(window) { $0.receiver?.id == "UIApplication" && $0.selector == "touchesBegan:withEvent:" })
        let app = r.reason(a, "R4", "the application's next responder is its delegate AppDelegate")
        #expect(r.shows(app) { $0.receiver?.id == "AppDelegate" && $0.selector == "touchesBegan:withEvent:" })
        #expect(r.reason(a, "R4", "the app delegate AppDelegate is the last responder") != nil)
        let vc = r.reason(a, "R3", "VC's view R is the root view of the window W")
        #expect(r.shows(vc) { $0.receiver?.id == "W" && $0.selector == "touchesEnded:withEvent:" })
        for reason in a.reasons where reason.rule == "R2" || reason.rule == "R3" || reason.rule == "R4" {
            for i in reason.trace { #expect(r.trace[i].touchPhase != nil) }
        }
    }

    /// A nextResponder override replaces R2 (R7).
    @Test func nextResponderOverride() throws {
        let r = try WhyRun(Scenes.scene(#"{"id": "V", "class": "UIView", "frame": [20, 100, 200, 200], "overrides": {"nextResponder": "VC"}}"#), Scenes.tap(50, 150))
        let a = try r.ask(.firstResponder)
        #expect(a.answer.contains("its chain is V → VC → W → UIApplication → AppDelegate"))
        let r7 = r.reason(a, "R7", "V overrides nextResponder to return VC")
        #expect(r.shows(r7) { $0.receiver?.id == "VC" && $0.selector == "touchesBegan:withEvent:" })
        #expect(r.shows(r7) { $0.receiver?.id == "VC" && $0.selector == "touchesEnded:withEvent:" })
    }

    /// A cycle of overrides ends the chain (R7).
    @Test func overrideCycle() throws {
        let r = try WhyRun(Scenes.scene(#"{"id": "V", "class": "UIView", "frame": [20, 100, 200, 200], "overrides": {"nextResponder": "R"}}"#,
                                        rExtra: #""overrides": {"nextResponder": "V"}"#), Scenes.tap(50, 150))
        let a = try r.ask(.firstResponder)
        #expect(r.reason(a, "R7", "R overrides nextResponder to return V, which is already in the chain") != nil)
    }

    /// No window takes the point: no first responder (W5).
    @Test func noFirstResponder() throws {
        let r = try WhyRun(Scenes.scene(), Scenes.tap(500, 900))
        let a = try r.ask(.firstResponder)
        #expect(a.answer == "There is no first responder: no window's hit-test returned a view for T1 at (500, 900) (W5)")
        #expect(r.shows(r.reason(a, "W5", "returned nil")) { $0.selector == "hitTest:withEvent:" && $0.result == .null })
    }
}
