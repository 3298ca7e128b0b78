import SceneTestSupport
@testable import TapTraceCore
import Testing

/// Worked scenarios SC-04 … SC-10 (recognizers, delays and cancels, arbitration, timers, scroll
/// views). The rules' traces use `cancelTiming = beforeAction`; each is also run at the
/// service's default (`afterAction`).
struct RecognizerScenarioTests {
    static let before = #"{"cancelTiming": "beforeAction"}"#

    static func touchView(recognizers: String) -> String {
        Scenes.scene(#"{"id": "V", "class": "TouchView", "frame": [20, 100, 200, 200], "overrides": {"touches": "handle"}, "gestureRecognizers": [\#(recognizers)]}"#)
    }

    /// SC-04: cancelsTouchesInView = NO: no view is asked, the action fires, then the withheld
    /// touchesEnded is flushed (GV4, GS7).
    @Test func sc04NonCancellingTap() throws {
        let r = try Scenes.run(RecognizerScenarioTests.touchView(recognizers: #"{"id": "tapV", "class": "UITapGestureRecognizer", "cancelsTouchesInView": false, "targets": [{"target": "VC", "action": "handleTap:"}]}"#),
                               Scenes.tap(50, 150))
        #expect(Array(r.events().drop { $0 != "tapV touchesEnded:withEvent:" }) == [
            "tapV touchesEnded:withEvent:", "[withhold] V", "[state] tapV possible→ended (recognized)",
            "VC handleTap:", "[flush] V", "V touchesEnded:withEvent:", "tapV reset",
        ])
    }

    /// SC-04 contrast: the default tap cancels the view's touch; action and touchesCancelled in
    /// the order of the cancelTiming knob (GV2, GV3).
    @Test(arguments: [("beforeAction", ["V touchesCancelled:withEvent:", "VC handleTap:"]),
                      ("afterAction", ["VC handleTap:", "V touchesCancelled:withEvent:"])])
    func sc04CancellingTap(_ timing: String, _ order: [String]) throws {
        let r = try Scenes.run(RecognizerScenarioTests.touchView(recognizers: #"{"id": "tapV", "class": "UITapGestureRecognizer", "targets": [{"target": "VC", "action": "handleTap:"}]}"#),
                               Scenes.tap(50, 150), knobs: "{\"cancelTiming\": \"\(timing)\"}")
        let tail = Array(r.events(markers: [.withhold]).drop { $0 != "tapV touchesEnded:withEvent:" }.dropLast())
        #expect(tail == ["tapV touchesEnded:withEvent:", "[withhold] V", "V gestureRecognizerShouldBegin:",
                         "[state] tapV possible→ended (recognized)"] + order)
        #expect(!r.calls.contains("V touchesEnded:withEvent:"))
        #expect(r.trace.contains { $0.kind == .state && $0.discrete })
    }

    static let sc05 = touchView(recognizers: #"{"id": "panV", "class": "UIPanGestureRecognizer", "delaysTouchesBegan": true, "targets": [{"target": "VC", "action": "handlePan:"}]}"#)

    /// SC-05a: delaysTouchesBegan: the whole touch waits; when the pan fails the view gets
    /// began and ended late, in the same update (GV5).
    @Test func sc05DelayedTap() throws {
        let r = try Scenes.run(RecognizerScenarioTests.sc05, Scenes.tap(50, 150))
        #expect(r.events().drop { !$0.hasPrefix("panV touchesBegan") }.map { $0 } == [
            "panV touchesBegan:withEvent:", "[withhold] V",
            "UIApplication sendEvent:", "W sendEvent:", "panV touchesEnded:withEvent:",
            "[state] panV possible→failed (liftedEarly)", "[flush] V",
            "V touchesBegan:withEvent:", "V touchesEnded:withEvent:", "panV reset",
        ])
        let began = r.trace.first { $0.receiver?.id == "V" && $0.selector == "touchesBegan:withEvent:" }!
        #expect(began.t == 0.1)
    }

    /// SC-05b: the pan begins; the withheld phases are dropped and V sees nothing (GV5, W235).
    @Test func sc05DelayedDrag() throws {
        let r = try Scenes.run(RecognizerScenarioTests.sc05, Scenes.touches([
            (0, "T1", "began", 50, 150), (0.03, "T1", "moved", 54, 150), (0.06, "T1", "moved", 62, 150),
            (0.09, "T1", "moved", 90, 150), (0.12, "T1", "ended", 90, 150)]), knobs: RecognizerScenarioTests.before)
        #expect(r.touchCalls.filter { $0.hasPrefix("V ") }.isEmpty)
        #expect(r.states("panV") == [.possible, .began, .changed, .ended, .possible])
        #expect(r.actions.map(\.t) == [0.06, 0.09, 0.12])
        #expect(r.actions.map(\.state) == [.began, .changed, .ended])
        #expect(isSubsequence(["V gestureRecognizerShouldBegin:", "[state] panV possible→began (began)", "[drop] V"], of: r.events(markers: [.drop])))
    }

    static let sc06 = touchView(recognizers: """
        {"id": "lpV", "class": "UILongPressGestureRecognizer", "targets": [{"target": "VC", "action": "handleLongPress:"}]},
        {"id": "tapV", "class": "UITapGestureRecognizer", "requireToFail": ["lpV"], "targets": [{"target": "VC", "action": "handleTap:"}]}
        """)

    /// SC-06a: a quick tap: the long press fails at the lift, so the tap may recognize (GM6).
    @Test func sc06QuickTap() throws {
        let r = try Scenes.run(RecognizerScenarioTests.sc06, Scenes.tap(50, 150), knobs: RecognizerScenarioTests.before)
        #expect(Array(r.events(markers: [.withhold]).drop { $0 != "lpV touchesEnded:withEvent:" }) == [
            "lpV touchesEnded:withEvent:", "[state] lpV possible→failed (liftedEarly)", "tapV touchesEnded:withEvent:",
            "[withhold] V", "V gestureRecognizerShouldBegin:", "[state] tapV possible→ended (recognized)",
            "V touchesCancelled:withEvent:", "VC handleTap:", "lpV reset", "tapV reset",
        ])
    }

    /// SC-06b: holding still: the timer fires at 0.5 as its own update (Q3); the long press
    /// begins and the tap fails (requiredRecognized).
    @Test func sc06Hold() throws {
        let r = try Scenes.run(RecognizerScenarioTests.sc06, Scenes.tap(50, 150, 0, 0.8), knobs: RecognizerScenarioTests.before)
        let timerUpdate = r.trace.filter { $0.cause == .timer("lpV") }
        #expect(timerUpdate.first?.marker == .timer && timerUpdate.first?.t == 0.5)
        #expect(r.events(markers: []).filter { !$0.contains("hitTest") && !$0.contains("pointInside") }.drop { $0 != "V gestureRecognizerShouldBegin:" }.prefix(5) == [
            "V gestureRecognizerShouldBegin:", "[state] lpV possible→began (began)",
            "[state] tapV possible→failed (requiredRecognized(lpV))", "V touchesCancelled:withEvent:", "VC handleLongPress:",
        ])
        #expect(r.actions.map(\.t) == [0.5, 0.8])
        #expect(!r.calls.contains("tapV touchesEnded:withEvent:"))
    }

    static let sc07 = touchView(recognizers: """
        {"id": "single", "class": "UITapGestureRecognizer", REQ "targets": [{"target": "VC", "action": "handleSingle:"}]},
        {"id": "double", "class": "UITapGestureRecognizer", "numberOfTapsRequired": 2, "targets": [{"target": "VC", "action": "handleDouble:"}]}
        """)
    static let doubleTap = Scenes.touches([(0, "T1", "began", 50, 150), (0.08, "T1", "ended", 50, 150),
                                           (0.2, "T2", "began", 50, 150), (0.28, "T2", "ended", 50, 150)])

    /// SC-07a: single requires double to fail; a single tap is recognized after the double
    /// tap's interval, at 0.43 (GM6, GS10, GP10, Q6).
    @Test func sc07SingleWaitsForDouble() throws {
        let r = try Scenes.run(RecognizerScenarioTests.sc07.replacingOccurrences(of: "REQ", with: #""requireToFail": ["double"],"#),
                               Scenes.tap(50, 150, 0, 0.08), knobs: RecognizerScenarioTests.before)
        #expect(r.trace.contains { $0.marker == .pending && $0.receiver?.id == "single" })
        #expect(r.actions.count == 1 && r.actions[0].action == "handleSingle:")
        #expect(abs(r.actions[0].t - 0.43) < 1e-9)
        let timer = r.events(markers: []).drop { $0 != "double reset" && !$0.hasPrefix("[state] double possible→failed") }
        #expect(Array(timer) == ["[state] double possible→failed (timeout)", "V gestureRecognizerShouldBegin:",
                                 "[state] single possible→ended (recognized)", "V touchesCancelled:withEvent:",
                                 "VC handleSingle:", "single reset", "double reset"])
    }

    /// SC-07b: a double tap with the requirement: the documented view sequence Began(T1),
    /// Began(T2), Cancelled(T1), Cancelled(T2) (GV8).
    @Test func sc07DoubleTapWithRequirement() throws {
        let r = try Scenes.run(RecognizerScenarioTests.sc07.replacingOccurrences(of: "REQ", with: #""requireToFail": ["double"],"#),
                               RecognizerScenarioTests.doubleTap, knobs: RecognizerScenarioTests.before)
        #expect(r.touchCalls.filter { $0.hasPrefix("V ") } == ["V touchesBegan:withEvent:", "V touchesBegan:withEvent:",
                                                                "V touchesCancelled:withEvent:", "V touchesCancelled:withEvent:"])
        #expect(r.actionNames == ["handleDouble:"])
        #expect(r.states("single") == [.possible, .failed, .possible])
        let secondBegan = r.trace.last { $0.receiver?.id == "V" && $0.selector == "touchesBegan:withEvent:" }!
        guard case .touches(let ts) = secondBegan.args[0].value else { Issue.record("no touches"); return }
        #expect(ts.map(\.tapCount) == [2])                                                 // T10
        let cancels = r.trace.filter { $0.receiver?.id == "V" && $0.selector == "touchesCancelled:withEvent:" }
        #expect(cancels.map { $0.args.last?.value } == [.string("E1"), .string("E2")])
    }

    /// SC-07c: no requirement: single fires at the first lift, double at the second; single
    /// cannot prevent double (GM4) and loses the second lift to it (GM5).
    @Test func sc07DoubleTapWithoutRequirement() throws {
        let r = try Scenes.run(RecognizerScenarioTests.sc07.replacingOccurrences(of: "REQ", with: ""),
                               RecognizerScenarioTests.doubleTap, knobs: RecognizerScenarioTests.before)
        #expect(r.actionNames == ["handleSingle:", "handleDouble:"])
        #expect(r.actions.map(\.t) == [0.08, 0.28])
        #expect(r.events(markers: []).contains("[state] single possible→failed (prevented(double))"))
        #expect(r.states("single") == [.possible, .ended, .possible, .failed, .possible])
    }

    // The rules put these touches at y = 300, on V's bottom edge, which H4 excludes; they are
    // moved to y = 250 inside V (reported in the issue note).

    /// SC-08: a pan beyond the 10 pt threshold cancels the view's touch (GP5, GV2); MAYOFF's log.
    @Test func sc08Pan() throws {
        let r = try Scenes.run(RecognizerScenarioTests.touchView(recognizers: #"{"id": "panV", "class": "UIPanGestureRecognizer", "targets": [{"target": "VC", "action": "handlePan:"}]}"#),
                               Scenes.touches([(0, "T1", "began", 100, 250), (0.016, "T1", "moved", 104, 250), (0.033, "T1", "moved", 112, 250),
                                               (0.05, "T1", "moved", 140, 250), (0.07, "T1", "ended", 140, 250)]),
                               knobs: RecognizerScenarioTests.before)
        let log = r.calls.filter { $0.hasPrefix("V touches") || $0 == "VC handlePan:" }
        #expect(log == ["V touchesBegan:withEvent:", "V touchesMoved:withEvent:", "V touchesCancelled:withEvent:",
                        "VC handlePan:", "VC handlePan:", "VC handlePan:"])
        #expect(r.states("panV") == [.possible, .began, .changed, .ended, .possible])
        #expect(r.touches[0].cancelledBy == "panV")
    }

    static let sc09 = touchView(recognizers: #"{"id": "lpV", "class": "UILongPressGestureRecognizer", "targets": [{"target": "VC", "action": "handleLongPress:"}]}"#)

    /// SC-09: long press held (a), moved too far (b), released early (c) (GP1–GP4).
    @Test func sc09LongPress() throws {
        let a = try Scenes.run(RecognizerScenarioTests.sc09, Scenes.touches([(0, "T1", "began", 100, 250), (0.6, "T1", "moved", 103, 250), (0.8, "T1", "ended", 103, 250)]))
        #expect(a.states("lpV") == [.possible, .began, .changed, .ended, .possible])
        #expect(a.actions.map(\.t) == [0.5, 0.6, 0.8])

        let b = try Scenes.run(RecognizerScenarioTests.sc09, Scenes.touches([(0, "T1", "began", 100, 250), (0.2, "T1", "moved", 115, 250), (0.4, "T1", "ended", 115, 250)]))
        #expect(b.events(markers: []).contains("[state] lpV possible→failed (movedTooFar)"))
        #expect(b.touchCalls.filter { $0.hasPrefix("V ") } == ["V touchesBegan:withEvent:", "V touchesMoved:withEvent:", "V touchesEnded:withEvent:"])
        #expect(b.actions.isEmpty)

        let c = try Scenes.run(RecognizerScenarioTests.sc09, Scenes.tap(100, 250, 0, 0.3))
        #expect(c.events(markers: [.flush]).contains("[flush] V") == false)
        #expect(c.touchCalls.last == "V touchesEnded:withEvent:")
        #expect(c.states("lpV") == [.possible, .failed, .possible])
    }

    static let sc10 = Scenes.scene("""
        {"id": "S", "class": "UIScrollView", "frame": [0, 100, 390, 600], "scrollView": {"contentSize": [390, 2000] SV}, "subviews": [
          {"id": "B", "class": "UIButton", "frame": [40, 50, 120, 44], "targets": [
            {"events": ["touchDown"], "target": "VC", "action": "buttonDown:"},
            {"events": ["touchUpInside"], "target": "VC", "action": "buttonTapped:"}]}]}
        """)

    static func sc10(_ sv: String = "") -> String { sc10.replacingOccurrences(of: "SV", with: sv) }

    /// SC-10a: a quick tap in a scroll view: both control events at the lift (SV2, SV4, SV7).
    @Test func sc10QuickTap() throws {
        let r = try Scenes.run(RecognizerScenarioTests.sc10(), Scenes.tap(100, 170, 0, 0.08))
        #expect(r.chainIds == ["B", "S", "R", "VC", "W", "UIApplication", "AppDelegate"])
        #expect(r.touches[0].recognizers == ["S.delay", "S.pan"])
        #expect(isSubsequence(["[withhold] B", "S.delay touchesEnded:withEvent:", "[state] S.delay possible→failed (liftedEarly)",
                               "S.pan touchesEnded:withEvent:", "[state] S.pan possible→failed (liftedEarly)", "[flush] B",
                               "S touchesShouldBegin:withEvent:inContentView:", "B touchesBegan:withEvent:", "VC buttonDown:",
                               "B touchesEnded:withEvent:", "VC buttonTapped:", "S.delay reset", "S.pan reset"], of: r.events()))
        #expect(r.actions.map(\.t) == [0.08, 0.08])
    }

    /// SC-10b: holding still: at 0.15 the delay fails and the button gets touchesBegan (SV8).
    @Test func sc10Hold() throws {
        let r = try Scenes.run(RecognizerScenarioTests.sc10(), Scenes.tap(100, 170, 0, 0.3))
        #expect(r.actions.map(\.action) == ["buttonDown:", "buttonTapped:"])
        #expect(abs(r.actions[0].t - 0.15) < 1e-9 && r.actions[1].t == 0.3)
        #expect(r.trace.contains { $0.cause == .timer("S.delay") && $0.selector == "touchesShouldBegin:withEvent:inContentView:" })
    }

    /// SC-10c: a quick drag: the pan begins, the delay is prevented, the button never sees the
    /// touch (SV5, GV5).
    @Test func sc10QuickDrag() throws {
        let r = try Scenes.run(RecognizerScenarioTests.sc10(), Scenes.touches([
            (0, "T1", "began", 100, 170), (0.03, "T1", "moved", 100, 158), (0.06, "T1", "moved", 100, 140), (0.09, "T1", "ended", 100, 140)]),
                               knobs: RecognizerScenarioTests.before)
        #expect(isSubsequence(["S.pan touchesMoved:withEvent:", "S gestureRecognizerShouldBegin:", "B gestureRecognizerShouldBegin:",
                               "[state] S.pan possible→began (began)", "[state] S.delay possible→failed (prevented(S.pan))",
                               "[drop] B", "S handlePan:"], of: r.events(markers: [.drop])))
        #expect(!r.calls.contains("B touchesBegan:withEvent:"))
        #expect(r.actions.allSatisfy { $0.action == "handlePan:" && $0.target == "S" && $0.via == .recognizer })
    }

    /// SC-10d: hold, then drag: the button is tracking, UIControl refuses to be cancelled, the
    /// pan fails and the button keeps tracking (SV6).
    @Test func sc10DragAfterDelay() throws {
        let r = try Scenes.run(RecognizerScenarioTests.sc10(), Scenes.touches([
            (0, "T1", "began", 100, 170), (0.33, "T1", "moved", 100, 158), (0.4, "T1", "ended", 100, 158)]))
        #expect(isSubsequence(["S gestureRecognizerShouldBegin:", "S touchesShouldCancelInContentView:",
                               "[state] S.pan possible→failed (shouldBeginFalse(S))", "B touchesMoved:withEvent:",
                               "B continueTrackingWithTouch:withEvent:"], of: r.events()))
        #expect(r.actionNames == ["buttonDown:", "buttonTapped:"])
        // canCancelContentTouches = NO: the pan fails without the question.
        let noCancel = try Scenes.run(RecognizerScenarioTests.sc10(#", "canCancelContentTouches": false"#), Scenes.touches([
            (0, "T1", "began", 100, 170), (0.33, "T1", "moved", 100, 158), (0.4, "T1", "ended", 100, 158)]))
        #expect(!noCancel.calls.contains("S touchesShouldCancelInContentView:"))
        #expect(noCancel.states("S.pan").contains(.failed))
    }

    /// SV3: delaysContentTouches = NO: no delay recognizer; the button gets touchesBegan at
    /// once after touchesShouldBegin (SV4).
    @Test func sv3NoDelay() throws {
        let r = try Scenes.run(RecognizerScenarioTests.sc10(#", "delaysContentTouches": false"#), Scenes.tap(100, 170, 0, 0.3))
        #expect(r.touches[0].recognizers == ["S.pan"])
        #expect(r.actions.first?.t == 0)
        #expect(isSubsequence(["S touchesShouldBegin:withEvent:inContentView:", "B touchesBegan:withEvent:"], of: r.calls))
    }

    /// T8: a touch hit-tested to the scroll view itself is not forwarded to its controller.
    @Test func scrollViewConsumesItsTouches() throws {
        let r = try Scenes.run(RecognizerScenarioTests.sc10(), Scenes.tap(300, 600, 0, 0.3))
        #expect(r.firstResponder?.id == "S")
        #expect(r.touchCalls.filter { !$0.hasPrefix("S.") } == ["S touchesBegan:withEvent:", "S touchesEnded:withEvent:"])
    }
}

/// GV8: the documented double-tap example, with and without delaysTouchesEnded.
struct DocumentedDoubleTapTests {
    static func scene(delaysEnded: Bool) -> String {
        RecognizerScenarioTests.touchView(recognizers: #"{"id": "double", "class": "UITapGestureRecognizer", "numberOfTapsRequired": 2, "delaysTouchesEnded": \#(delaysEnded), "targets": [{"target": "VC", "action": "handleDouble:"}]}"#)
    }

    @Test func withDelaysTouchesEnded() throws {
        let r = try Scenes.run(DocumentedDoubleTapTests.scene(delaysEnded: true), RecognizerScenarioTests.doubleTap)
        #expect(r.touchCalls.filter { $0.hasPrefix("V ") } == ["V touchesBegan:withEvent:", "V touchesBegan:withEvent:",
                                                                "V touchesCancelled:withEvent:", "V touchesCancelled:withEvent:"])
    }

    @Test func withoutDelaysTouchesEnded() throws {
        let r = try Scenes.run(DocumentedDoubleTapTests.scene(delaysEnded: false), RecognizerScenarioTests.doubleTap)
        #expect(r.touchCalls.filter { $0.hasPrefix("V ") } == ["V touchesBegan:withEvent:", "V touchesEnded:withEvent:",
                                                                "V touchesBegan:withEvent:", "V touchesCancelled:withEvent:"])
        #expect(r.actionNames == ["handleDouble:"])
    }
}
