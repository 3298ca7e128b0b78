import SceneTestSupport
@testable import TapTraceCore
import Testing

/// The knobs and less common paths of non-touch events: the arrival preamble (EA1), key-command
/// precedence (KC3) and priority (KC1), `becomeOrder` (F3), dropped remote control (RC3), and a
/// long press on a select press (PG1).
struct NonTouchKnobTests {
    typealias S = NonTouchScenarioTests

    @Test func arrivalPreambleLabelsEveryEventButResponderCalls() throws {
        let input = S.events([#"{"t": 0, "responder": {"become": "TF"}}"#] + S.key("P1", "a", "keyboardA", [], 0.5, 0.6)
                             + [#"{"t": 1, "touches": [{"id": "T1", "phase": "began", "at": [100, 120]}]}"#,
                                #"{"t": 1.1, "touches": [{"id": "T1", "phase": "ended", "at": [100, 120]}]}"#])
        let scene = Scenes.scene(S.sc21Field)
        let plain = try Scenes.run(scene, input)
        let labelled = try Scenes.run(scene, input, knobs: #"{"arrivalPreamble": true}"#)
        let arrivals = labelled.trace.filter { $0.marker == .arrival }
        // Two presses and two touch records, four stages each; none for the become.
        #expect(arrivals.count == 16)
        #expect(arrivals.prefix(4).map { $0.args.first { $0.name == "stage" }?.value } ==
                [.string("iohid"), .string("backboardd"), .string("source1"), .string("source0")])
        #expect(arrivals.allSatisfy { $0.args.first?.value == .bool(true) && $0.t != 0 })
        // Labels only: every other entry is the same.
        #expect(labelled.trace.filter { $0.marker != .arrival }.map { "\($0.receiver?.id ?? "") \($0.selector ?? $0.marker?.rawValue ?? "")" }
                == plain.trace.map { "\($0.receiver?.id ?? "") \($0.selector ?? $0.marker?.rawValue ?? "")" })
        #expect(labelled.actions == plain.actions && labelled.nonTouch?.presses == plain.nonTouch?.presses)
    }

    static func commandsScene(priority: Bool = false) -> String {
        Scenes.scene(S.sc21Field,
                     rExtra: #""keyCommands": [{"id": "near", "input": "a", "action": "nearAction:"\#(priority ? #", "wantsPriorityOverSystemBehavior": true"# : "")}], "implements": ["nearAction:"]"#,
                     vc: #""keyCommands": [{"id": "far", "input": "a", "action": "farAction:"}], "implements": ["farAction:"]"#,
                     app: #""focusedResponder": "TF""#)
    }

    @Test func nearestCommandWinsUnlessTextInputTakesTheKey() throws {
        // "a" into a text field: the matching command yields to text input (KC1).
        let typed = try Scenes.run(Self.commandsScene(), S.events(S.key("P1", "a", "keyboardA", [], 0, 0.1)))
        #expect(typed.actions.isEmpty && typed.nonTouch?.presses.first?.textInput == "TF")
        #expect(typed.trace.first { $0.marker == .keyCommand }?.note?.contains("yields to text input") == true)
        // With priority over system behavior, the nearest command runs and shadows the other.
        let priority = try Scenes.run(Self.commandsScene(priority: true), S.events(S.key("P1", "a", "keyboardA", [], 0, 0.1)))
        #expect(priority.actions.map(\.action) == ["nearAction:"] && priority.actions.first?.target == "R")
        let search = try #require(priority.trace.first { $0.marker == .keyCommand })
        #expect(search.args.first { $0.name == "shadowed" }?.value == .strings(["far"]))
    }

    @Test func farthestPrecedence() throws {
        let r = try Scenes.run(Self.commandsScene(priority: true).replacingOccurrences(of: #""action": "farAction:""#,
                                                                                          with: #""action": "farAction:", "wantsPriorityOverSystemBehavior": true"#),
                               S.events(S.key("P1", "a", "keyboardA", [], 0, 0.1)), knobs: #"{"keyCommandPrecedence": "farthest"}"#)
        #expect(r.actions.map(\.action) == ["farAction:"] && r.actions.first?.sender == "far")
    }

    @Test func becomeOrderResignFirst() throws {
        // TF is first responder; Badge cannot become it. canBecomeFirst: TF stays. resignFirst: TF
        // resigns first, Badge refuses, and the window is left without a first responder (F3).
        let scene = Scenes.scene(S.sc21Field + #", {"id": "Badge", "class": "UIView", "frame": [0, 0, 10, 10]}"#, app: #""focusedResponder": "TF""#)
        let input = S.events([#"{"t": 0, "responder": {"become": "Badge"}}"#])
        let kept = try Scenes.run(scene, input)
        #expect(kept.nonTouch?.responderChanges.first == .init(t: 0, call: "become", receiver: "Badge", result: false, from: "TF", to: "TF"))
        #expect(!kept.calls.contains("TF resignFirstResponder"))
        let lost = try Scenes.run(scene, input, knobs: #"{"becomeOrder": "resignFirst"}"#)
        #expect(lost.calls == ["Badge becomeFirstResponder", "TF resignFirstResponder", "TF canResignFirstResponder",
                               "Badge canBecomeFirstResponder"])
        #expect(lost.nonTouch?.responderChanges.first?.to == nil)
    }

    @Test func remoteControlIsDroppedWithoutReceivingRemoteControlEvents() throws {
        let r = try Scenes.run(Scenes.scene(app: #""receivesRemoteControlEvents": false"#),
                               S.events([#"{"t": 0, "remoteControl": {"subtype": "play"}}"#]))
        #expect(!r.calls.contains("UIApplication sendEvent:"))
        #expect(r.trace.contains { $0.marker == .drop })
        #expect(r.nonTouch?.remoteControls.first?.dropped == true && r.nonTouch?.remoteControls.first?.responder == nil)
    }

    @Test func longPressOnASelectPress() throws {
        let scene = Scenes.scene(#"""
            {"id": "C", "class": "UIView", "frame": [0, 100, 390, 300],
             "gestureRecognizers": [{"id": "hold", "class": "UILongPressGestureRecognizer", "targets": [{"target": "VC", "action": "held:"}]},
                                    {"id": "pan", "class": "UIPanGestureRecognizer", "allowedPressTypes": ["select"]}],
             "subviews": [{"id": "V", "class": "SelectableView", "frame": [20, 20, 100, 100], "canBecomeFirstResponder": true}]}
            """#, app: #""focusedResponder": "V""#)
        let input = S.events([#"{"t": 0, "presses": [{"id": "P1", "phase": "began", "type": "select"}]}"#,
                              #"{"t": 1, "presses": [{"id": "P1", "phase": "ended", "type": "select"}]}"#])
        let r = try Scenes.run(scene, input)
        #expect(r.states("hold") == [.possible, .began, .ended, .possible])
        #expect(r.states("pan") == [.possible, .failed, .possible])
        #expect(r.actions.map(\.state) == [.began, .ended])
        #expect(r.actions.first?.t == 0.5)
        // The long press took the press from V: cancelled when it began, never ended.
        #expect(r.calls.contains("V pressesCancelled:withEvent:") && !r.calls.contains("V pressesEnded:withEvent:"))
        #expect(r.nonTouch?.presses.first?.recognizers == ["hold", "pan"])
    }
}
