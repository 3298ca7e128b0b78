import SceneTestSupport
@testable import TapTraceCore
import Testing

/// Recognizer collection and arbitration rules beyond the worked scenarios (G, GM, GS, GV).
struct ArbitrationTests {
    static func view(_ recognizers: String, viewExtra: String = "") -> String {
        Scenes.scene(#"{"id": "V", "class": "TouchView", "frame": [20, 100, 200, 200], "overrides": {"touches": "handle"}\#(viewExtra), "gestureRecognizers": [\#(recognizers)]}"#)
    }

    static let drag = Scenes.touches([(0, "T1", "began", 50, 150), (0.05, "T1", "moved", 80, 150), (0.1, "T1", "moved", 100, 150), (0.15, "T1", "ended", 100, 150)])

    /// G6: a delegate answering NO to shouldReceiveTouch keeps the touch from the recognizer.
    @Test func shouldReceiveTouchNo() throws {
        let r = try Scenes.run(ArbitrationTests.view(#"{"id": "tap", "class": "UITapGestureRecognizer", "delegate": {"id": "VC", "shouldReceiveTouch": false}, "targets": [{"target": "VC", "action": "t:"}]}"#),
                               Scenes.tap(50, 150))
        #expect(r.calls.contains("VC gestureRecognizer:shouldReceiveTouch:"))
        #expect(r.touches[0].recognizers.isEmpty)
        #expect(r.recognizers.first { $0.id == "tap" }?.states == [.possible])
        #expect(r.touchCalls == ["V touchesBegan:withEvent:", "V touchesEnded:withEvent:"])
    }

    /// G7: shouldReceiveEvent is asked before shouldReceiveTouch.
    @Test func shouldReceiveEventFirst() throws {
        let r = try Scenes.run(ArbitrationTests.view(#"{"id": "tap", "class": "UITapGestureRecognizer", "delegate": {"id": "VC", "shouldReceiveEvent": true, "shouldReceiveTouch": true}, "targets": []}"#),
                               Scenes.tap(50, 150))
        #expect(isSubsequence(["VC gestureRecognizer:shouldReceiveEvent:", "VC gestureRecognizer:shouldReceiveTouch:", "tap touchesBegan:withEvent:"], of: r.calls))
    }

    /// G4: a disabled recognizer receives nothing.
    @Test func disabledRecognizer() throws {
        let r = try Scenes.run(ArbitrationTests.view(#"{"id": "tap", "class": "UITapGestureRecognizer", "enabled": false, "targets": [{"target": "VC", "action": "t:"}]}"#),
                               Scenes.tap(50, 150))
        #expect(r.recognizers.isEmpty)
        #expect(r.actions.isEmpty)
    }

    /// G3: the hit-test view's recognizers come first, then its ancestors', each in array order.
    @Test func collectionOrder() throws {
        let scene = Scenes.scene("""
            {"id": "C", "class": "UIView", "frame": [0, 0, 390, 400], "gestureRecognizers": [
              {"id": "c1", "class": "UITapGestureRecognizer", "targets": []}, {"id": "c2", "class": "UIPanGestureRecognizer", "targets": []}],
             "subviews": [{"id": "V", "class": "UIView", "frame": [0, 0, 100, 100], "gestureRecognizers": [{"id": "v1", "class": "UITapGestureRecognizer", "targets": []}]}]}
            """, rExtra: #""gestureRecognizers": [{"id": "r1", "class": "UISwipeGestureRecognizer", "targets": []}]"#)
        let r = try Scenes.run(scene, Scenes.tap(10, 10))
        #expect(r.touches[0].recognizers == ["v1", "c1", "c2", "r1"])
        #expect(isSubsequence(["v1 touchesBegan:withEvent:", "c1 touchesBegan:withEvent:", "c2 touchesBegan:withEvent:", "r1 touchesBegan:withEvent:"], of: r.calls))
        // GM2: the child's tap recognizes; the parent's tap is forced to fail.
        #expect(r.events(markers: []).contains("[state] c1 possible→failed (prevented(v1))"))
    }

    /// GM3: a delegate allowing simultaneous recognition keeps both.
    @Test func simultaneousRecognition() throws {
        let recognizers = """
            {"id": "pan", "class": "UIPanGestureRecognizer", "delegate": {"id": "VC", "shouldRecognizeSimultaneouslyWith": SIM}, "targets": [{"target": "VC", "action": "pan:"}]},
            {"id": "swipe", "class": "UISwipeGestureRecognizer", "targets": [{"target": "VC", "action": "swipe:"}]}
            """
        let swipeDrag = Scenes.touches([(0, "T1", "began", 30, 150), (0.05, "T1", "moved", 60, 151), (0.1, "T1", "moved", 100, 152), (0.15, "T1", "ended", 100, 152)])
        let exclusive = try Scenes.run(ArbitrationTests.view(recognizers.replacingOccurrences(of: "SIM", with: "[]")), swipeDrag)
        #expect(exclusive.states("swipe").contains(.failed))
        #expect(!exclusive.actionNames.contains("swipe:"))
        let both = try Scenes.run(ArbitrationTests.view(recognizers.replacingOccurrences(of: "SIM", with: #"["swipe"]"#)), swipeDrag)
        #expect(both.actionNames.contains("swipe:") && both.actionNames.contains("pan:"))
        #expect(both.calls.contains("VC gestureRecognizer:shouldRecognizeSimultaneouslyWithGestureRecognizer:"))
    }

    /// GM9: with pan.requireToFail(swipe) … here swipe requires pan to fail? Apple's example is
    /// the reverse: a pan that requires the swipe to fail lets a swipe win.
    @Test func panRequiresSwipeToFail() throws {
        let r = try Scenes.run(ArbitrationTests.view("""
            {"id": "pan", "class": "UIPanGestureRecognizer", "requireToFail": ["swipe"], "targets": [{"target": "VC", "action": "pan:"}]},
            {"id": "swipe", "class": "UISwipeGestureRecognizer", "targets": [{"target": "VC", "action": "swipe:"}]}
            """), Scenes.touches([(0, "T1", "began", 30, 150), (0.05, "T1", "moved", 60, 151), (0.1, "T1", "moved", 100, 152), (0.15, "T1", "ended", 100, 152)]))
        #expect(r.actionNames == ["swipe:"])
        #expect(r.states("pan").contains(.failed))
        #expect(r.trace.contains { $0.marker == .pending && $0.receiver?.id == "pan" })
    }

    /// GM7: failure requirements from the delegate, asked when the touch begins.
    @Test func dynamicRequirement() throws {
        let r = try Scenes.run(ArbitrationTests.view("""
            {"id": "single", "class": "UITapGestureRecognizer", "delegate": {"id": "VC", "shouldRequireFailureOf": ["double"]}, "targets": [{"target": "VC", "action": "single:"}]},
            {"id": "double", "class": "UITapGestureRecognizer", "numberOfTapsRequired": 2, "targets": [{"target": "VC", "action": "double:"}]}
            """), Scenes.tap(50, 150))
        #expect(r.calls.contains("VC gestureRecognizer:shouldRequireFailureOfGestureRecognizer:"))
        #expect(r.actionNames == ["single:"])
        #expect(abs(r.actions[0].t - 0.45) < 1e-9)      // the double's 0.35 s interval after the lift at 0.1
        let byDelegate = try Scenes.run(ArbitrationTests.view("""
            {"id": "single", "class": "UITapGestureRecognizer", "targets": [{"target": "VC", "action": "single:"}]},
            {"id": "double", "class": "UITapGestureRecognizer", "numberOfTapsRequired": 2, "delegate": {"id": "VC", "shouldBeRequiredToFailBy": ["single"]}, "targets": [{"target": "VC", "action": "double:"}]}
            """), Scenes.tap(50, 150))
        #expect(abs(byDelegate.actions[0].t - 0.45) < 1e-9)
    }

    static func nested(outer: String, inner: String) -> String {
        Scenes.scene("""
            {"id": "C", "class": "UIView", "frame": [0, 0, 390, 400], "gestureRecognizers": [{"id": "outer", "class": "UITapGestureRecognizer", \(outer) "targets": [{"target": "VC", "action": "outer:"}]}],
             "subviews": [{"id": "V", "class": "UIView", "frame": [0, 0, 100, 100], "gestureRecognizers": [{"id": "inner", "class": "UITapGestureRecognizer", "cancelsTouchesInView": false, \(inner) "targets": [{"target": "VC", "action": "inner:"}]}]}]}
            """)
    }

    /// GM4: when neither may prevent the other, both recognize, in recognizer order (G3).
    @Test func preventionDeclined() throws {
        let r = try Scenes.run(ArbitrationTests.nested(outer: #""canPrevent": false,"#, inner: #""canPrevent": false,"#), Scenes.tap(10, 10))
        #expect(r.actionNames == ["inner:", "outer:"])
        #expect(r.calls.contains("inner canPreventGestureRecognizer:"))
    }

    /// GM5: one that cannot be prevented but can prevent the other goes first, whatever the
    /// order, and makes the other fail.
    @Test func sameUpdateOneWayPrevention() throws {
        let r = try Scenes.run(ArbitrationTests.nested(outer: #""canBePrevented": false,"#, inner: ""), Scenes.tap(10, 10))
        #expect(r.actionNames == ["outer:"])
        #expect(r.events(markers: []).contains("[state] inner possible→failed (prevented(outer))"))
    }

    /// GS7: the delegate's gestureRecognizerShouldBegin: NO fails the recognizer; the view's
    /// override too.
    @Test func shouldBeginVetoes() throws {
        let delegate = try Scenes.run(ArbitrationTests.view(#"{"id": "tap", "class": "UITapGestureRecognizer", "delegate": {"id": "VC", "shouldBegin": false}, "targets": [{"target": "VC", "action": "t:"}]}"#),
                                      Scenes.tap(50, 150))
        #expect(delegate.events(markers: []).contains("[state] tap possible→failed (shouldBeginFalse(VC))"))
        #expect(delegate.touchCalls.last == "V touchesEnded:withEvent:")
        let view = try Scenes.run(ArbitrationTests.view(#"{"id": "tap", "class": "UITapGestureRecognizer", "targets": [{"target": "VC", "action": "t:"}]}"#,
                                                        viewExtra: #", "implements": []"#).replacingOccurrences(of: #""overrides": {"touches": "handle"}"#, with: #""overrides": {"touches": "handle", "gestureRecognizerShouldBegin": {"default": true, "byRecognizer": {"tap": false}}}"#),
                                  Scenes.tap(50, 150))
        #expect(view.events(markers: []).contains("[state] tap possible→failed (shouldBeginFalse(V))"))
    }

    /// GS7 knobs: askViewsOnlyWhenCancelling = false asks the view even for a non-cancelling
    /// recognizer; askGRViewShouldBegin adds the recognizer's own view.
    @Test func shouldBeginKnobs() throws {
        let scene = ArbitrationTests.view(#"{"id": "tap", "class": "UITapGestureRecognizer", "cancelsTouchesInView": false, "targets": []}"#)
        #expect(!(try Scenes.run(scene, Scenes.tap(50, 150))).calls.contains("V gestureRecognizerShouldBegin:"))
        #expect(try Scenes.run(scene, Scenes.tap(50, 150), knobs: #"{"askViewsOnlyWhenCancelling": false}"#).calls.contains("V gestureRecognizerShouldBegin:"))
        let parent = Scenes.scene(#"{"id": "C", "class": "UIView", "frame": [0, 0, 390, 400], "gestureRecognizers": [{"id": "tap", "class": "UITapGestureRecognizer", "targets": []}], "subviews": [{"id": "V", "class": "UIView", "frame": [0, 0, 100, 100]}]}"#)
        let asked = try Scenes.run(parent, Scenes.tap(10, 10), knobs: #"{"askGRViewShouldBegin": true}"#)
        #expect(isSubsequence(["V gestureRecognizerShouldBegin:", "C gestureRecognizerShouldBegin:"], of: asked.calls))
    }

    /// A7: a recognizer target of null sends nothing.
    @Test func nilRecognizerTarget() throws {
        let r = try Scenes.run(ArbitrationTests.view(#"{"id": "tap", "class": "UITapGestureRecognizer", "targets": [{"target": null, "action": "t:"}, {"target": "VC", "action": "u"}]}"#),
                               Scenes.tap(50, 150))
        #expect(r.actionNames == ["u"])
        let call = r.trace.first { $0.selector == "u" }!
        #expect(call.args.isEmpty)                                                   // A5: no argument
    }

    /// GP11: a tap held longer than tapMaxDuration fails (timeout); GP12: moving 45 pt fails it.
    @Test func tapLimits() throws {
        let tap = ArbitrationTests.view(#"{"id": "tap", "class": "UITapGestureRecognizer", "targets": [{"target": "VC", "action": "t:"}]}"#)
        let long = try Scenes.run(tap, Scenes.tap(50, 150, 0, 1.0))
        #expect(long.events(markers: []).contains("[state] tap possible→failed (timeout)"))
        #expect(long.trace.contains { $0.cause == .timer("tap") })
        let moved = try Scenes.run(tap, Scenes.touches([(0, "T1", "began", 50, 150), (0.05, "T1", "moved", 100, 150), (0.1, "T1", "ended", 100, 150)]))
        #expect(moved.events(markers: []).contains("[state] tap possible→failed (movedTooFar)"))
        #expect(moved.actions.isEmpty)
    }

    /// Q6: timers run after the last input up to `until`, or the drain limit.
    @Test func drainAndUntil() throws {
        let lp = ArbitrationTests.view(#"{"id": "lp", "class": "UILongPressGestureRecognizer", "minimumPressDuration": 2, "targets": [{"target": "VC", "action": "lp:"}]}"#)
        // The touch never lifts before the press duration only if it is still down: hold 3 s.
        let held = try Scenes.run(lp, Scenes.tap(50, 150, 0, 3))
        #expect(held.actions.map(\.t) == [2, 3])
        // A double-tap recognizer waiting after one tap times out during the drain.
        let double = ArbitrationTests.view(#"{"id": "d", "class": "UITapGestureRecognizer", "numberOfTapsRequired": 2, "targets": []}"#)
        let drained = try Scenes.run(double, Scenes.tap(50, 150))
        #expect(drained.states("d") == [.possible, .failed, .possible])
        let cut = try Scenes.run(double, Scenes.tap(50, 150), knobs: #"{"drainLimit": 0.1}"#)
        #expect(cut.states("d") == [.possible])
    }

    /// Q4: a timer due at the same time as an input fires first.
    @Test func timerBeforeInputAtSameTime() throws {
        let lp = ArbitrationTests.view(#"{"id": "lp", "class": "UILongPressGestureRecognizer", "targets": [{"target": "VC", "action": "lp:"}]}"#)
        let r = try Scenes.run(lp, Scenes.tap(50, 150, 0, 0.5))
        #expect(r.actions.map(\.state) == [.began, .ended])
    }

    /// GV7: with a delaysTouchesBegan recognizer and a delaysTouchesEnded one, the ended phase
    /// waits for both.
    @Test func combinedDelays() throws {
        let r = try Scenes.run(ArbitrationTests.view("""
            {"id": "pan", "class": "UIPanGestureRecognizer", "delaysTouchesBegan": true, "targets": []},
            {"id": "double", "class": "UITapGestureRecognizer", "numberOfTapsRequired": 2, "targets": []}
            """), Scenes.tap(50, 150))
        // At the lift the pan fails: began is flushed, ended waits for the double tap's timeout.
        let began = r.trace.first { $0.receiver?.id == "V" && $0.selector == "touchesBegan:withEvent:" }!
        let ended = r.trace.first { $0.receiver?.id == "V" && $0.selector == "touchesEnded:withEvent:" }!
        #expect(began.t == 0.1)
        #expect(abs(ended.t - 0.45) < 1e-9)
    }
}
