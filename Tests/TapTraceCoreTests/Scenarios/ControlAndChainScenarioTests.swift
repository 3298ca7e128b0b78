import SceneTestSupport
@testable import TapTraceCore
import Testing

/// Worked scenarios SC-02, SC-03, SC-11, SC-16, SC-17, SC-19, SC-20 (controls, target-action,
/// responder chain, exclusive and multiple touch).
struct ControlAndChainScenarioTests {
    static let sc02Button = """
        {"id": "B", "class": "UIButton", "frame": [40, 200, 120, 44], "targets": [
          {"events": ["touchDown"], "target": "VC", "action": "buttonDown:"},
          {"events": ["touchUpInside"], "target": "VC", "action": "buttonTapped:"},
          {"events": ["touchUpOutside"], "target": "VC", "action": "buttonUpOutside:"},
          {"events": ["touchDragExit"], "target": "VC", "action": "dragExit:"}]}
        """

    /// SC-02 A: tap on a UIButton: tracking, TouchDown at once, TouchUpInside and
    /// PrimaryActionTriggered at the lift (T7, K1–K9).
    @Test func sc02ButtonTap() throws {
        let r = try Scenes.run(Scenes.scene(ControlAndChainScenarioTests.sc02Button),
                               Scenes.touches([(0, "T1", "began", 100, 220), (0.12, "T1", "ended", 100, 222)]))
        #expect(r.firstResponder?.id == "B")
        #expect(r.chainIds == ["B", "R", "VC", "W", "UIApplication", "AppDelegate"])
        let afterHitTest = Array(r.calls.drop { $0 != "UIApplication sendEvent:" })
        #expect(afterHitTest == [
            "UIApplication sendEvent:", "W sendEvent:", "B touchesBegan:withEvent:",
            "B beginTrackingWithTouch:withEvent:", "B sendAction:to:forEvent:",
            "UIApplication sendAction:to:from:forEvent:", "VC buttonDown:",
            "UIApplication sendEvent:", "W sendEvent:", "B touchesEnded:withEvent:",
            "B endTrackingWithTouch:withEvent:", "B sendAction:to:forEvent:",
            "UIApplication sendAction:to:from:forEvent:", "VC buttonTapped:",
        ])
        #expect(r.actions.map(\.action) == ["buttonDown:", "buttonTapped:"])
        #expect(r.actions[1].events == [.touchUpInside, .primaryActionTriggered])
        #expect(r.actions[1].via == .target && r.actions[1].target == "VC" && r.actions[1].t == 0.12)
        // Nesting: the action runs inside UIApplication's sendAction, inside the control's.
        let action = r.trace.first { $0.selector == "buttonTapped:" }!
        let app = r.trace[action.parent! - 1]
        #expect(app.selector == "sendAction:to:from:forEvent:" && app.result == .bool(true))
        #expect(r.trace[app.parent! - 1].selector == "sendAction:to:forEvent:")
        // No touch reaches the controller (T7).
        #expect(!r.calls.contains("R touchesBegan:withEvent:"))
    }

    /// SC-02 B: drag out inside the 70 pt slop, then beyond it, then release (K3–K5).
    @Test func sc02DragOut() throws {
        let r = try Scenes.run(Scenes.scene(ControlAndChainScenarioTests.sc02Button), Scenes.touches([
            (0, "T1", "began", 100, 220), (0.05, "T1", "moved", 100, 290),
            (0.10, "T1", "moved", 100, 330), (0.15, "T1", "ended", 100, 330)]))
        #expect(r.actions.map(\.action) == ["buttonDown:", "dragExit:", "buttonUpOutside:"])
        #expect(r.actions[1].events == [.touchDragOutside, .touchDragExit])
        let controls = r.trace.filter { $0.marker == .control }.map { $0.note! }
        #expect(controls[1].contains("inside(slop 70) = YES") && controls[1].contains(".touchDragInside"))
        #expect(controls[2].contains("highlighted = NO") && controls[2].contains(".touchDragExit"))
        // With a larger slop knob the same drag stays inside.
        let wide = try Scenes.run(Scenes.scene(ControlAndChainScenarioTests.sc02Button), Scenes.touches([
            (0, "T1", "began", 100, 220), (0.10, "T1", "moved", 100, 330), (0.15, "T1", "ended", 100, 330)]),
            knobs: #"{"controlTrackingSlop": 100}"#)
        #expect(wide.actions.map(\.action) == ["buttonDown:", "buttonTapped:"])
    }

    static func sc03(control: String, cancels: Bool = true, extraTargets: String = "") -> String {
        Scenes.scene("""
            {"id": "C", "class": "UIView", "frame": [0, 150, 390, 300],
             "gestureRecognizers": [{"id": "tapC", "class": "UITapGestureRecognizer", "cancelsTouchesInView": \(cancels),
                                     "targets": [{"target": "VC", "action": "handleBackgroundTap:"}]}],
             "subviews": [{"id": "B", \(control), "frame": [40, 50, 120, 44], "targets": [
               {"events": ["touchUpInside"], "target": "VC", "action": "buttonTapped:"}\(extraTargets)]}]}
            """)
    }

    /// SC-03: a UIButton inside a view with a tap recognizer keeps its tap (X1, X2, GS7, GV6).
    @Test func sc03ButtonBeatsAncestorTap() throws {
        let r = try Scenes.run(ControlAndChainScenarioTests.sc03(control: #""class": "UIButton""#), Scenes.tap(100, 220))
        #expect(r.events().drop { $0 != "tapC touchesEnded:withEvent:" }.prefix(10) == [
            "tapC touchesEnded:withEvent:", "[withhold] B", "B gestureRecognizerShouldBegin:",
            "[state] tapC possible→failed (shouldBeginFalse(B))", "[flush] B", "B touchesEnded:withEvent:",
            "B endTrackingWithTouch:withEvent:", "B sendAction:to:forEvent:",
            "UIApplication sendAction:to:from:forEvent:", "VC buttonTapped:",
        ])
        #expect(r.states("tapC") == [.possible, .failed, .possible])
        #expect(r.calls.last == "tapC reset")
    }

    /// SC-03b: a plain UIControl subclass loses to the ancestor's tap (X3, GV10, K7), in both
    /// cancel timings.
    @Test(arguments: [("beforeAction", ["K touchesCancelled:withEvent:", "K cancelTrackingWithEvent:", "VC cancelled:", "VC handleBackgroundTap:"]),
                      ("afterAction", ["VC handleBackgroundTap:", "K touchesCancelled:withEvent:", "K cancelTrackingWithEvent:", "VC cancelled:"])])
    func sc03PlainControlLoses(_ timing: String, _ order: [String]) throws {
        let scene = ControlAndChainScenarioTests.sc03(control: #""class": "ToggleControl", "base": "UIControl""#,
                                                      extraTargets: #", {"events": ["touchCancel"], "target": "VC", "action": "cancelled:"}"#)
            .replacingOccurrences(of: "\"id\": \"B\"", with: "\"id\": \"K\"")
        let r = try Scenes.run(scene, Scenes.tap(100, 220), knobs: "{\"cancelTiming\": \"\(timing)\"}")
        let tail = r.calls.filter { order.contains($0) }
        #expect(tail == order)
        #expect(r.calls.contains("K gestureRecognizerShouldBegin:"))
        #expect(!r.calls.contains("VC buttonTapped:"))
        #expect(r.states("tapC") == [.possible, .ended, .possible])
        #expect(r.touches[0].cancelledBy == "tapC")
    }

    /// SC-03c: with cancelsTouchesInView = NO the button is not asked; both actions fire, the
    /// recognizer's first ("view tapped, button clicked").
    @Test func sc03NonCancellingTapBothFire() throws {
        let r = try Scenes.run(ControlAndChainScenarioTests.sc03(control: #""class": "UIButton""#, cancels: false), Scenes.tap(100, 220))
        #expect(!r.calls.contains("B gestureRecognizerShouldBegin:"))
        #expect(r.actionNames == ["handleBackgroundTap:", "buttonTapped:"])
    }

    static let sc11 = """
        {"id": "P", "class": "UIView", "frame": [0, 100, 390, 300], "subviews": [
          {"id": "B", "class": "UIButton", "frame": [40, 50, 120, 44], "targets": [
            {"events": ["touchUpInside"], "target": null, "action": "saveDocument:"}]}]}
        TF
        """

    /// SC-11: a nil-targeted action walks B → P → R → VC (A2, A3) with chainWalk markers.
    @Test func sc11NilTargetWalk() throws {
        let r = try Scenes.run(Scenes.scene(ControlAndChainScenarioTests.sc11.replacingOccurrences(of: "TF", with: ""),
                                            vc: #""implements": ["saveDocument:"]"#), Scenes.tap(100, 170))
        let walk = r.trace.filter { $0.marker == .chainWalk }.map { $0.note! }
        #expect(walk == ["start = B (no focused responder; the sender; A3)", "B implements saveDocument:? NO",
                         "P implements saveDocument:? NO", "R implements saveDocument:? NO", "VC implements saveDocument:? YES"])
        #expect(r.actions == [ActionRecord(t: 0.1, action: "saveDocument:", sender: "B", target: "VC", via: .responderChain,
                                           events: [.touchUpInside, .primaryActionTriggered], state: nil)])
        #expect(r.calls.contains("VC saveDocument:"))
    }

    /// SC-11 variants: a focused text field starts the walk; nobody implements it; the app
    /// delegate does.
    @Test func sc11Variants() throws {
        let tf = #", {"id": "TF", "class": "UITextField", "frame": [0, 600, 200, 40]}"#
        let focused = try Scenes.run(Scenes.scene(ControlAndChainScenarioTests.sc11.replacingOccurrences(of: "TF", with: tf),
                                                  vc: #""implements": ["saveDocument:"]"#, app: #""focusedResponder": "TF""#),
                                     Scenes.tap(100, 170))
        #expect(focused.trace.filter { $0.marker == .chainWalk }.compactMap { $0.receiver?.id } == ["TF", "TF", "R", "VC"])
        #expect(focused.actions[0].target == "VC")

        let nobody = try Scenes.run(Scenes.scene(ControlAndChainScenarioTests.sc11.replacingOccurrences(of: "TF", with: "")), Scenes.tap(100, 170))
        #expect(nobody.actions[0].via == .unhandled && nobody.actions[0].target == nil)
        let send = nobody.trace.first { $0.selector == "sendAction:to:from:forEvent:" }!
        #expect(send.result == .bool(false))

        let delegate = """
            {"format": "taptrace/scene@1", "app": {"delegate": {"id": "AppDelegate", "class": "AppDelegate", "implements": ["saveDocument:"]}},
             "windows": [{"id": "W", "class": "UIWindow", "frame": [0, 0, 390, 844], "subviews": [
               {"id": "R", "class": "UIView", "frame": [0, 0, 390, 844], "viewController": {"id": "VC", "class": "ViewController"},
                "subviews": [\(ControlAndChainScenarioTests.sc11.replacingOccurrences(of: "TF", with: ""))]}]}]}
            """
        let d = try Scenes.run(delegate, Scenes.tap(100, 170))
        #expect(d.actions[0].target == "AppDelegate")
        #expect(d.trace.filter { $0.marker == .chainWalk }.compactMap { $0.receiver?.id }.suffix(4) == ["VC", "W", "UIApplication", "AppDelegate"])
    }

    /// SC-16: default touch methods forward V → R → VC (T5, R2); with a child VC the chain is
    /// V → CV → childVC → R → VC (R5).
    @Test func sc16ControllerInChain() throws {
        let r = try Scenes.run(Scenes.scene(#"{"id": "V", "class": "UIView", "frame": [20, 100, 200, 200]}"#,
                                            vc: #""overrides": {"touches": {"began": "handle", "moved": "super", "ended": "handle", "cancelled": "super"}}"#),
                               Scenes.tap(50, 150))
        #expect(r.touchCalls == ["V touchesBegan:withEvent:", "R touchesBegan:withEvent:", "VC touchesBegan:withEvent:",
                                 "V touchesEnded:withEvent:", "R touchesEnded:withEvent:", "VC touchesEnded:withEvent:"])
        let vcCall = r.trace.first { $0.receiver?.id == "VC" }!
        #expect(vcCall.depth == r.trace.first { $0.receiver?.id == "V" && $0.selector == "touchesBegan:withEvent:" }!.depth + 2)

        let child = try Scenes.run(Scenes.scene("""
            {"id": "CV", "class": "UIView", "frame": [0, 0, 390, 844], "viewController": {"id": "childVC", "class": "ChildViewController"}, "subviews": [
              {"id": "V", "class": "UIView", "frame": [20, 100, 200, 200]}]}
            """), Scenes.tap(50, 150))
        #expect(child.chainIds == ["V", "CV", "childVC", "R", "VC", "W", "UIApplication", "AppDelegate"])
        #expect(child.touchCalls.prefix(8) == ["V touchesBegan:withEvent:", "CV touchesBegan:withEvent:", "childVC touchesBegan:withEvent:",
                                                "R touchesBegan:withEvent:", "VC touchesBegan:withEvent:", "W touchesBegan:withEvent:",
                                                "UIApplication touchesBegan:withEvent:", "AppDelegate touchesBegan:withEvent:"])
    }

    /// SC-17: a presented controller's next responder is its presenter (R3, A6).
    @Test func sc17PresentedController() throws {
        let scene = """
            {"format": "taptrace/scene@1", "app": {"delegate": {"id": "AppDelegate", "class": "AppDelegate"}},
             "windows": [{"id": "W", "class": "UIWindow", "frame": [0, 0, 390, 844], "subviews": [
               {"id": "RP", "class": "UIView", "frame": [0, 0, 390, 844], "viewController": {"id": "P", "class": "PresentingVC", "implements": ["closeTapped:"]}},
               {"id": "RQ", "class": "UIView", "frame": [0, 0, 390, 844], "viewController": {"id": "Q", "class": "PresentedVC", "presentedBy": "P"}, "subviews": [
                 {"id": "B", "class": "UIButton", "frame": [40, 700, 120, 44], "targets": [{"events": ["touchUpInside"], "target": null, "action": "closeTapped:"}]}]}]}]}
            """
        let r = try Scenes.run(scene, Scenes.tap(100, 720))
        #expect(r.chainIds == ["B", "RQ", "Q", "P", "W", "UIApplication", "AppDelegate"])
        #expect(r.trace.filter { $0.marker == .chainWalk }.compactMap { $0.receiver?.id } == ["B", "B", "RQ", "Q", "P"])
        #expect(r.actions[0].target == "P" && r.actions[0].via == .responderChain)
    }

    static let sc19 = """
        {"id": "A", "class": "UIButton", "frame": [20, 200, 150, 60], "exclusiveTouch": true, "targets": [
          {"events": ["touchDown"], "target": "VC", "action": "aDown:"}, {"events": ["touchUpInside"], "target": "VC", "action": "aUp:"}]},
        {"id": "B", "class": "UIButton", "frame": [200, 200, 150, 60], "targets": [
          {"events": ["touchDown"], "target": "VC", "action": "bDown:"}, {"events": ["touchUpInside"], "target": "VC", "action": "bUp:"}]}
        """

    /// SC-19: exclusiveTouch with two fingers (E3–E5), in both orders, and after a lift.
    @Test func sc19ExclusiveTouch() throws {
        let a = try Scenes.run(Scenes.scene(ControlAndChainScenarioTests.sc19), Scenes.touches([
            (0, "T1", "began", 60, 230), (0.1, "T2", "began", 260, 230), (0.2, "T2", "ended", 260, 230), (0.3, "T1", "ended", 60, 230)]))
        #expect(a.actionNames == ["aDown:", "aUp:"])
        #expect(a.touches[1].refused == .exclusiveTouch && a.touches[1].hitTestView == "B")
        #expect(a.trace.contains { $0.marker == .gate })
        // The refused touch still has its event delivered to the window, with nothing inside.
        #expect(a.events(markers: []).filter { $0.hasPrefix("W sendEvent") }.count == 4)

        let b = try Scenes.run(Scenes.scene(ControlAndChainScenarioTests.sc19), Scenes.touches([
            (0, "T1", "began", 260, 230), (0.1, "T2", "began", 60, 230), (0.2, "T2", "ended", 60, 230), (0.3, "T1", "ended", 260, 230)]))
        #expect(b.actionNames == ["bDown:", "bUp:"])
        #expect(b.touches[1].refused == .exclusiveTouch)

        let c = try Scenes.run(Scenes.scene(ControlAndChainScenarioTests.sc19), Scenes.touches([
            (0, "T1", "began", 60, 230), (0.1, "T1", "ended", 60, 230), (0.2, "T2", "began", 260, 230), (0.3, "T2", "ended", 260, 230)]))
        #expect(c.actionNames == ["aDown:", "aUp:", "bDown:", "bUp:"])
    }

    /// SC-20: multipleTouchEnabled = NO: the second finger reaches the pinch but not the view (E1).
    @Test func sc20MultipleTouchDisabled() throws {
        let scene = Scenes.scene("""
            {"id": "V", "class": "TouchView", "frame": [0, 100, 390, 400], "overrides": {"touches": "handle"},
             "gestureRecognizers": [{"id": "pinchV", "class": "UIPinchGestureRecognizer", "targets": [{"target": "VC", "action": "handlePinch:"}]}]}
            """)
        let r = try Scenes.run(scene, Scenes.touches([
            (0, "T1", "began", 150, 300), (0.05, "T2", "began", 250, 300),
            (0.1, "T1", "moved", 140, 300), (0.1, "T2", "moved", 260, 300),
            (0.2, "T1", "moved", 120, 300), (0.2, "T2", "moved", 280, 300),
            (0.3, "T1", "ended", 120, 300), (0.3, "T2", "ended", 280, 300)]))
        #expect(r.touches[1].refused == .multipleTouchDisabled)
        #expect(r.touches[1].recognizers == ["pinchV"])
        #expect(r.touchCalls.filter { $0.hasPrefix("V ") } == ["V touchesBegan:withEvent:", "V touchesCancelled:withEvent:"])
        #expect(r.states("pinchV") == [.possible, .began, .changed, .ended, .possible])
        #expect(r.actionNames == ["handlePinch:", "handlePinch:", "handlePinch:"])
    }

    /// K11/H13: a disabled button is hit but does not track; its touches go up the chain.
    @Test func disabledControlForwards() throws {
        let r = try Scenes.run(Scenes.scene(#"{"id": "B", "class": "UIButton", "frame": [40, 200, 120, 44], "enabled": false, "targets": [{"events": ["touchUpInside"], "target": "VC", "action": "tapped:"}]}"#,
                                            vc: #""overrides": {"touches": "handle"}"#), Scenes.tap(100, 220))
        #expect(r.firstResponder?.id == "B")
        #expect(r.actions.isEmpty)
        #expect(r.touchCalls.prefix(3) == ["B touchesBegan:withEvent:", "R touchesBegan:withEvent:", "VC touchesBegan:withEvent:"])
        #expect(!r.calls.contains("B beginTrackingWithTouch:withEvent:"))
    }

    /// K2, K4: beginTracking NO sends no TouchDown (knob touchDownRequiresTracking);
    /// continueTracking NO stops tracking.
    @Test func trackingOverrides() throws {
        let button = #"{"id": "B", "class": "MyButton", "base": "UIButton", "frame": [40, 200, 120, 44], "overrides": {OV}, "targets": [{"events": ["touchDown"], "target": "VC", "action": "down:"}, {"events": ["touchUpInside"], "target": "VC", "action": "up:"}]}"#
        let noBegin = try Scenes.run(Scenes.scene(button.replacingOccurrences(of: "OV", with: #""beginTracking": false"#)), Scenes.tap(100, 220))
        #expect(noBegin.actions.isEmpty)
        let sent = try Scenes.run(Scenes.scene(button.replacingOccurrences(of: "OV", with: #""beginTracking": false"#)), Scenes.tap(100, 220),
                                  knobs: #"{"touchDownRequiresTracking": false}"#)
        #expect(sent.actionNames == ["down:"])
        let stop = try Scenes.run(Scenes.scene(button.replacingOccurrences(of: "OV", with: #""continueTracking": false"#)),
                                  Scenes.touches([(0, "T1", "began", 100, 220), (0.05, "T1", "moved", 101, 221), (0.1, "T1", "ended", 101, 221)]))
        #expect(stop.actionNames == ["down:"])
        #expect(!stop.calls.contains("B endTrackingWithTouch:withEvent:"))
    }

    /// K12: a control overriding touchesEnded without super never sends TouchUpInside.
    @Test func controlOverrideWithoutSuper() throws {
        let r = try Scenes.run(Scenes.scene(#"{"id": "B", "class": "MyButton", "base": "UIButton", "frame": [40, 200, 120, 44], "overrides": {"touches": {"began": "super", "moved": "super", "ended": "handle", "cancelled": "super"}}, "targets": [{"events": ["touchUpInside"], "target": "VC", "action": "up:"}]}"#),
                               Scenes.tap(100, 220))
        #expect(r.actions.isEmpty)
        #expect(r.calls.contains("B beginTrackingWithTouch:withEvent:"))
        #expect(!r.calls.contains("B endTrackingWithTouch:withEvent:"))
    }

    /// T10, K2: a quick second tap nearby has tapCount 2 and fires TouchDownRepeat.
    @Test func touchDownRepeat() throws {
        let r = try Scenes.run(Scenes.scene(#"{"id": "B", "class": "UIButton", "frame": [40, 200, 120, 44], "targets": [{"events": ["touchDownRepeat"], "target": "VC", "action": "again:"}]}"#),
                               Scenes.touches([(0, "T1", "began", 100, 220), (0.1, "T1", "ended", 100, 220),
                                               (0.2, "T2", "began", 102, 221), (0.3, "T2", "ended", 102, 221)]))
        #expect(r.actionNames == ["again:"])
        #expect(r.actions[0].events == [.touchDown, .touchDownRepeat])
    }

    /// R7: a cycle of nextResponder overrides ends the chain with a marker instead of looping.
    @Test func nextResponderCycle() throws {
        let r = try Scenes.run(Scenes.scene("""
            {"id": "A", "class": "UIView", "frame": [0, 0, 200, 200], "overrides": {"nextResponder": "B"}},
            {"id": "B", "class": "UIView", "frame": [300, 300, 50, 50], "overrides": {"nextResponder": "A"}}
            """), Scenes.tap(10, 10))
        #expect(r.chainIds == ["A", "B", "A"])
        #expect(r.responderChain.last?.role == "cycle")
        #expect(r.touchCalls == ["A touchesBegan:withEvent:", "B touchesBegan:withEvent:", "A touchesEnded:withEvent:", "B touchesEnded:withEvent:"])
        #expect(r.trace.filter { $0.marker == .chainWalk }.count == 2)
    }

    /// R6: the includeWindowScene knob puts UIWindowScene between the window and the app.
    @Test func windowSceneKnob() throws {
        let r = try Scenes.run(Scenes.scene(), Scenes.tap(10, 10), knobs: #"{"includeWindowScene": true}"#)
        #expect(r.chainIds == ["R", "VC", "W", "UIWindowScene", "UIApplication", "AppDelegate"])
        #expect(r.responderChain[3].role == "windowScene")
    }

    /// R4: a delegate that is not a UIResponder is not in the chain.
    @Test func nonResponderDelegate() throws {
        let scene = """
            {"format": "taptrace/scene@1", "app": {"delegate": {"class": "AppDelegate", "isResponder": false}},
             "windows": [{"id": "W", "class": "UIWindow", "frame": [0, 0, 390, 844]}]}
            """
        #expect(try Scenes.run(scene, Scenes.tap(10, 10)).chainIds == ["W", "UIApplication"])
    }
}
