import SceneTestSupport
@testable import TapTraceCore
import Testing

/// E, Z, G9 and K4 details beyond the worked scenarios.
struct GateAndMiscTests {
    /// E6: an exclusive view in another window does not refuse a touch here.
    @Test func exclusiveTouchIsPerWindow() throws {
        let scene = Scenes.scene(#"{"id": "A", "class": "UIButton", "frame": [0, 0, 100, 100], "exclusiveTouch": true}"#, windows: """
            {"id": "W2", "class": "UIWindow", "frame": [0, 500, 390, 344], "level": 1, "subviews": [{"id": "B", "class": "UIButton", "frame": [0, 0, 100, 100]}]}
            """)
        let r = try Scenes.run(scene, Scenes.touches([(0, "T1", "began", 10, 10), (0.1, "T2", "began", 10, 510),
                                                      (0.2, "T2", "ended", 10, 510), (0.3, "T1", "ended", 10, 10)]))
        #expect(r.touches.map(\.refused) == [nil, nil])
        #expect(r.touches.map(\.window) == ["W", "W2"])
    }

    /// E5: a refused touch stays refused after the blocking touch ends.
    @Test func refusalLastsForTheTouch() throws {
        let r = try Scenes.run(Scenes.scene(ControlAndChainScenarioTests.sc19), Scenes.touches([
            (0, "T1", "began", 60, 230), (0.1, "T2", "began", 260, 230), (0.2, "T1", "ended", 60, 230),
            (0.3, "T2", "moved", 261, 230), (0.4, "T2", "ended", 261, 230)]))
        #expect(!r.actionNames.contains("bUp:"))
        #expect(r.touches[1].refused == .exclusiveTouch)
    }

    /// Z2: an application ignoring interaction events drops every touch before hit-testing.
    @Test func ignoringInteractionEvents() throws {
        let r = try Scenes.run(Scenes.scene(app: #""ignoringInteractionEvents": true"#), Scenes.tap(10, 10))
        #expect(r.calls.isEmpty)
        #expect(r.touches[0].refused == .ignoringInteractionEvents)
        #expect(r.firstResponder == nil)
    }

    /// G9: a recognizer requiring one touch type ignores a touch of another type.
    @Test func exclusiveTouchType() throws {
        let scene = Scenes.scene(#"{"id": "V", "class": "UIView", "frame": [0, 0, 390, 400], "multipleTouchEnabled": true, "gestureRecognizers": [{"id": "pinch", "class": "UIPinchGestureRecognizer", "requiresExclusiveTouchType": true, "targets": []}]}"#)
        let touches = """
            {"format": "taptrace/touches@1", "events": [
              {"t": 0, "touches": [{"id": "T1", "phase": "began", "at": [10, 10]}]},
              {"t": 0.1, "touches": [{"id": "P1", "phase": "began", "at": [50, 50], "type": "pencil"}]},
              {"t": 0.2, "touches": [{"id": "T1", "phase": "ended", "at": [10, 10]}, {"id": "P1", "phase": "ended", "at": [50, 50]}]}]}
            """
        let r = try Scenes.run(scene, touches)
        #expect(r.touches.map(\.recognizers) == [["pinch"], []])
    }

    /// K4: coming back inside the slop fires DragEnter with DragInside.
    @Test func dragEnter() throws {
        let r = try Scenes.run(Scenes.scene(#"{"id": "B", "class": "UIButton", "frame": [40, 200, 120, 44], "targets": [{"events": ["touchDragEnter"], "target": "VC", "action": "enter:"}]}"#),
                               Scenes.touches([(0, "T1", "began", 100, 220), (0.1, "T1", "moved", 100, 400), (0.2, "T1", "moved", 100, 230), (0.3, "T1", "ended", 100, 230)]))
        #expect(r.actionNames == ["enter:"])
        #expect(r.actions[0].events == [.touchDragInside, .touchDragEnter])
    }

    /// A touch cancelled by the input reaches the view as touchesCancelled and a control as
    /// TouchCancel (K7).
    @Test func inputCancellation() throws {
        let r = try Scenes.run(Scenes.scene(#"{"id": "B", "class": "UIButton", "frame": [40, 200, 120, 44], "targets": [{"events": ["touchCancel"], "target": "VC", "action": "cancel:"}]}"#),
                               #"{"format": "taptrace/touches@1", "events": [{"t": 0, "touches": [{"id": "T1", "phase": "began", "at": [100, 220]}]}, {"t": 0.1, "touches": [{"id": "T1", "phase": "cancelled"}]}]}"#)
        #expect(r.touchCalls == ["B touchesBegan:withEvent:", "B touchesCancelled:withEvent:"])
        #expect(r.actionNames == ["cancel:"])
        #expect(r.touches[0].finalPhase == .cancelled)
    }

    /// A4 with the knob: canPerformAction:withSender: is called, and a declared NO skips a
    /// responder that implements the action.
    @Test func canPerformAction() throws {
        let scene = Scenes.scene(#"{"id": "B", "class": "UIButton", "frame": [40, 200, 120, 44], "implements": ["go:"], "overrides": {"canPerformAction": {"go:": false}}, "targets": [{"events": ["touchUpInside"], "target": null, "action": "go:"}]}"#,
                                 vc: #""implements": ["go:"]"#)
        let quiet = try Scenes.run(scene, Scenes.tap(100, 220))
        #expect(quiet.actions[0].target == "VC")
        let asked = try Scenes.run(scene, Scenes.tap(100, 220), knobs: #"{"nilTargetUsesCanPerformAction": true}"#)
        #expect(asked.calls.filter { $0.hasSuffix("canPerformAction:withSender:") } == ["B canPerformAction:withSender:", "R canPerformAction:withSender:", "VC canPerformAction:withSender:"])
        #expect(asked.actions[0].target == "VC")
        let senderOnly = try Scenes.run(Scenes.scene(#"{"id": "B", "class": "UIButton", "frame": [40, 200, 120, 44], "targets": [{"events": ["touchUpInside"], "target": null, "action": "go:"}]}, {"id": "TF", "class": "UITextField", "frame": [0, 600, 100, 40], "implements": ["go:"]}"#,
                                                         app: #""focusedResponder": "TF""#), Scenes.tap(100, 220), knobs: #"{"nilTargetStart": "senderOnly"}"#)
        #expect(senderOnly.actions[0].via == .unhandled)
    }
}
