import SceneTestSupport
@testable import TapTraceCore
import TapTraceFormats
import Testing

/// Worked scenarios SC-21, SC-22 and SC-23 (rules §3.17–3.23): a hardware keyboard with a key
/// command and a text field, a shake with and without a first responder, and first-responder
/// changes with remote control. Each trace is checked whole.
struct NonTouchScenarioTests {
    /// A keyboard press `id` from `t0` to `t1`.
    static func key(_ id: String, _ characters: String, _ keyCode: String, _ flags: [String] = [],
                    _ t0: Double, _ t1: Double, ignoring: String? = nil) -> [String] {
        let key = """
            {"characters": "\(characters)", "charactersIgnoringModifiers": "\(ignoring ?? characters)", \
            "keyCode": "\(keyCode)", "modifierFlags": [\(flags.map { "\"\($0)\"" }.joined(separator: ", "))]}
            """
        return [
            #"{"t": \#(t0), "presses": [{"id": "\#(id)", "phase": "began", "type": "keyboard", "key": \#(key)}]}"#,
            #"{"t": \#(t1), "presses": [{"id": "\#(id)", "phase": "ended", "type": "keyboard", "key": \#(key)}]}"#,
        ]
    }

    static func events(_ records: [String]) -> String {
        #"{"format": "taptrace/touches@1", "events": [\#(records.joined(separator: ", "))]}"#
    }

    // MARK: SC-21

    static let sc21Field = #"{"id": "TF", "class": "UITextField", "frame": [20, 100, 350, 44]}"#
    static func sc21Scene(vcOverrides: String = "") -> String {
        Scenes.scene(sc21Field, vc: #""keyCommands": [{"input": "s", "modifierFlags": ["command"], "action": "saveDocument:"}], "implements": ["saveDocument:"]"# + vcOverrides,
                     app: #""focusedResponder": "TF""#)
    }
    static let sc21Input = events(key("P1", "s", "keyboardS", ["command"], 0, 0.08) + key("P2", "a", "keyboardA", [], 0.5, 0.56)
                                  + key("P3", "UIKeyInputEscape", "keyboardEscape", [], 1.0, 1.06))

    @Test func sc21KeyCommandTextFieldAndEscape() throws {
        let r = try Scenes.run(Self.sc21Scene(), Self.sc21Input)
        let walk = ["TF", "R", "VC", "W", "UIApplication"]
        func delivery(_ selector: String, _ ids: [String]) -> [String] {
            ids.enumerated().map { "\($0.offset + 2) \($0.element) \(selector)" }
        }
        #expect(r.log == [
            "0 [keyResponder] TF", "0 [keyboard] TF", "0 [keyCommand] TF",
            "0 [chainWalk] TF", "0 [chainWalk] R", "0 [chainWalk] VC", "0 VC saveDocument:",
            "0 [keyboard] TF",
            "0 [keyResponder] TF", "0 [keyboard] TF", "0 [keyCommand] TF",
            "0 UIApplication sendEvent:", "1 W sendEvent:",
        ] + delivery("pressesBegan:withEvent:", walk) + ["7 [textInput] TF", "7 TF insertText:",
            "0 UIApplication sendEvent:", "1 W sendEvent:",
        ] + delivery("pressesEnded:withEvent:", walk) + [
            "0 [keyResponder] TF", "0 [keyboard] TF", "0 [keyCommand] TF",
            "0 UIApplication sendEvent:", "1 W sendEvent:",
        ] + delivery("pressesBegan:withEvent:", walk) + ["7 [textInput] TF", "7 AppDelegate pressesBegan:withEvent:",
            "8 [unhandled] AppDelegate",
            "0 UIApplication sendEvent:", "1 W sendEvent:",
        ] + delivery("pressesEnded:withEvent:", walk + ["AppDelegate"]) + ["8 [unhandled] AppDelegate"])
        let presses = try #require(r.nonTouch).presses
        #expect(presses.map(\.keyCommand) == ["VC.keyCommands[0]", nil, nil])
        #expect(presses.map(\.textInput) == [nil, "TF", nil])
        #expect(presses.map(\.delivered) == [[], walk, walk + ["AppDelegate"]])
        #expect(presses.map(\.handledBy) == [nil, "UIApplication", nil])
        #expect(r.actions == [ActionRecord(t: 0, action: "saveDocument:", sender: "VC.keyCommands[0]", target: "VC", via: .keyCommand)])
        let insert = try #require(r.trace.first { $0.selector == "insertText:" })
        #expect(insert.args.first?.value == .string("a"))
        #expect(r.trace.first { $0.marker == .textInput && $0.t == 1.0 }?.note == "TF does not take Escape (escape; KC2)")
        #expect(r.nonTouch?.keyResponder == .init(initial: "TF", final: "TF"))
    }

    /// SC-21's contrast: a controller that overrides `pressesBegan:withEvent:` without super
    /// still gets ⌘S (it runs before any delivery) but swallows "a": nothing is typed.
    @Test func sc21ControllerSwallowingPressesStopsTyping() throws {
        let r = try Scenes.run(Self.sc21Scene(vcOverrides: #", "overrides": {"presses": {"began": "handle", "changed": "super", "ended": "super", "cancelled": "super"}}"#),
                               Self.sc21Input)
        #expect(r.calls.contains("VC saveDocument:"))
        #expect(!r.calls.contains("TF insertText:"))
        #expect(!r.calls.contains("W pressesBegan:withEvent:"))
        #expect(r.nonTouch?.presses[1].handledBy == "VC")
    }

    /// SC-21 with `keyboardPipeline = beforeResponders`: text input runs before any delivery.
    @Test func sc21BeforeResponders() throws {
        let r = try Scenes.run(Self.sc21Scene(), Self.sc21Input, knobs: #"{"keyboardPipeline": "beforeResponders"}"#)
        let first = r.log.prefix(8)
        #expect(Array(first) == ["0 [keyResponder] TF", "0 [keyboard] TF", "0 [keyCommand] TF", "0 [textInput] TF",
                                 "0 [chainWalk] TF", "0 [chainWalk] R", "0 [chainWalk] VC", "0 VC saveDocument:"])
        let p2 = try #require(r.nonTouch?.presses[1])
        #expect(p2.delivered == [] && p2.handledBy == nil && p2.textInput == "TF")
        #expect(r.calls.filter { $0 == "TF insertText:" }.count == 1)
        // P3's text-input marker comes before its sendEvent:, and nothing types at UIApplication.
        let starts = r.log.indices.filter { r.log[$0] == "0 [keyResponder] TF" }
        try #require(starts.count == 3)
        let escape = r.log[starts[2]...]
        #expect(escape.prefix(5) == ["0 [keyResponder] TF", "0 [keyboard] TF", "0 [keyCommand] TF", "0 [textInput] TF",
                                     "0 UIApplication sendEvent:"])
        #expect(r.nonTouch?.presses[2].delivered == ["TF", "R", "VC", "W", "UIApplication", "AppDelegate"])
    }

    // MARK: SC-22

    static let shake = events([#"{"t": 0, "motion": {"subtype": "shake", "phase": "began"}}"#,
                               #"{"t": 0.4, "motion": {"subtype": "shake", "phase": "ended"}}"#])

    static func sc22aScene() -> String {
        Scenes.scene(#"{"id": "V", "class": "ShakeView", "frame": [20, 100, 200, 200], "canBecomeFirstResponder": true, "overrides": {"motion": "super"}}"#,
                     app: #""focusedResponder": "V""#)
    }

    @Test func sc22aShakeClimbsToTheAppDelegate() throws {
        let r = try Scenes.run(Self.sc22aScene(), Self.shake)
        let walk = ["V", "R", "VC", "W", "UIApplication"]
        func delivery(_ selector: String) -> [String] { walk.enumerated().map { "\($0.offset + 2) \($0.element) \(selector)" } }
        #expect(r.log == ["0 [keyResponder] V", "0 UIApplication sendEvent:", "1 W sendEvent:"] + delivery("motionBegan:withEvent:")
                + ["7 AppDelegate motionBegan:withEvent:", "8 [unhandled] AppDelegate",
                   "0 [keyResponder] V", "0 UIApplication sendEvent:", "1 W sendEvent:"] + delivery("motionEnded:withEvent:")
                + ["7 [shakeToEdit] UIApplication", "7 AppDelegate motionEnded:withEvent:", "8 [unhandled] AppDelegate"])
        // One event for the whole shake (N6).
        #expect(Set(r.trace.filter { $0.selector == "sendEvent:" }.compactMap { $0.args.first?.value }) == [.string("E1")])
        let motions = try #require(r.nonTouch?.motions)
        #expect(motions.map(\.phase) == [.began, .ended] && motions.allSatisfy { $0.handledBy == nil && $0.source == .firstResponder })
    }

    @Test func sc22aWithoutTheAppDelegate() throws {
        let r = try Scenes.run(Self.sc22aScene(), Self.shake, knobs: #"{"motionReachesAppDelegate": false}"#)
        #expect(!r.calls.contains { $0.hasPrefix("AppDelegate") })
        #expect(r.log.filter { $0.contains("[unhandled]") } == ["7 [unhandled] UIApplication", "7 [unhandled] UIApplication"])
    }

    static func sc22bScene() -> String {
        Scenes.scene().replacingOccurrences(of: #""id": "W", "class": "UIWindow""#,
                                            with: #""id": "W", "class": "ShakeWindow", "base": "UIWindow", "overrides": {"motion": "handle"}"#)
    }

    @Test func sc22bShakeWithoutFirstResponder() throws {
        let r = try Scenes.run(Self.sc22bScene(), Self.shake)
        #expect(Array(r.log.prefix(5)) == ["0 [keyResponder] VC", "0 UIApplication sendEvent:", "1 W sendEvent:",
                                           "2 VC motionBegan:withEvent:", "3 W motionBegan:withEvent:"])
        #expect(r.nonTouch?.motions.first?.source == .fallback && r.nonTouch?.motions.first?.handledBy == "W")
        let window = try Scenes.run(Self.sc22bScene(), Self.shake, knobs: #"{"keyResponderFallback": "keyWindow"}"#)
        #expect(Array(window.log.prefix(4)) == ["0 [keyResponder] W", "0 UIApplication sendEvent:", "1 W sendEvent:",
                                                "2 W motionBegan:withEvent:"])
    }

    // MARK: SC-23

    static func sc23Scene() -> String {
        Scenes.scene(#"{"id": "TF", "class": "UITextField", "frame": [20, 100, 350, 44]}, {"id": "Badge", "class": "UIView", "frame": [20, 200, 40, 40]}"#,
                     vc: #""canBecomeFirstResponder": true, "overrides": {"remoteControl": "handle"}"#)
    }
    static let sc23Input = events([
        #"{"t": 0, "responder": {"become": "Badge"}}"#, #"{"t": 0.1, "responder": {"become": "TF"}}"#,
        #"{"t": 0.5, "remoteControl": {"subtype": "togglePlayPause"}}"#, #"{"t": 1.0, "responder": {"resign": "TF"}}"#,
        #"{"t": 1.5, "remoteControl": {"subtype": "nextTrack"}}"#,
    ])

    @Test func sc23FirstResponderChangesAndRemoteControl() throws {
        let r = try Scenes.run(Self.sc23Scene(), Self.sc23Input)
        #expect(r.log == [
            "0 Badge becomeFirstResponder", "1 Badge canBecomeFirstResponder",
            "0 TF becomeFirstResponder", "1 TF canBecomeFirstResponder", "1 [firstResponder] TF",
            "0 [keyResponder] TF", "0 UIApplication sendEvent:", "1 W sendEvent:",
            "2 TF remoteControlReceivedWithEvent:", "3 R remoteControlReceivedWithEvent:", "4 VC remoteControlReceivedWithEvent:",
            "0 TF resignFirstResponder", "1 TF canResignFirstResponder", "1 R canBecomeFirstResponder",
            "1 VC canBecomeFirstResponder", "1 VC becomeFirstResponder", "2 VC canBecomeFirstResponder",
            "2 [firstResponder] VC",
            "0 [keyResponder] VC", "0 UIApplication sendEvent:", "1 W sendEvent:", "2 VC remoteControlReceivedWithEvent:",
        ])
        let results = r.trace.filter { $0.selector == "becomeFirstResponder" || $0.selector == "resignFirstResponder" }.map(\.result)
        #expect(results == [.bool(false), .bool(true), .bool(true), .bool(true)])
        #expect(r.nonTouch?.responderChanges == [
            .init(t: 0, call: "become", receiver: "Badge", result: false, from: nil, to: nil),
            .init(t: 0.1, call: "become", receiver: "TF", result: true, from: nil, to: "TF"),
            .init(t: 1.0, call: "resign", receiver: "TF", result: true, from: "TF", to: "VC"),
        ])
        #expect(r.nonTouch?.remoteControls.map(\.handledBy) == ["VC", "VC"])
        #expect(r.nonTouch?.keyResponder == .init(initial: nil, final: "VC"))
    }

    @Test func sc23ResignWithoutPassingToAncestor() throws {
        let r = try Scenes.run(Self.sc23Scene(), Self.sc23Input, knobs: #"{"resignPassesToAncestor": false}"#)
        #expect(!r.calls.contains("R canBecomeFirstResponder") && !r.calls.contains("VC becomeFirstResponder"))
        #expect(r.nonTouch?.responderChanges.last?.to == nil)
        #expect(r.nonTouch?.remoteControls.last?.source == .fallback && r.nonTouch?.remoteControls.last?.responder == "VC")
        #expect(r.trace.last { $0.marker == .firstResponder }?.note == "TF → nil (resign, F4)")
    }

    /// Every existing result stays as it was: a touch-only run has no non-touch summary.
    @Test func touchOnlyRunsHaveNoNonTouchSummary() throws {
        let r = try Scenes.run(Scenes.scene(Scenes.touchView + "}"), Scenes.tap(100, 200))
        #expect(r.nonTouch == nil)
    }
}

extension DispatchResult {
    /// Calls and markers with their depth: `"2 TF pressesBegan:withEvent:"`, `"0 [keyboard] TF"`.
    var log: [String] {
        trace.compactMap { e in
            switch e.kind {
            case .call: return "\(e.depth) \(e.receiver!.id) \(e.selector!)"
            case .marker: return "\(e.depth) [\(e.marker!.rawValue)] \(e.receiver?.id ?? "")"
            case .state: return nil
            }
        }
    }
}

/// The text rendering of non-touch runs reads like an iOS log: the summaries first, presses with
/// their keys, subtypes as Swift spells them.
struct NonTouchTextTests {
    @Test func summariesAndCallsReadLikeALog() throws {
        let r = try Scenes.run(NonTouchScenarioTests.sc21Scene(), NonTouchScenarioTests.sc21Input)
        let text = TextRenderer.render(r)
        #expect(text.contains("keyResponder: TF → TF\n"))
        #expect(text.contains("press P1 keyboard \"s\" → TF (firstResponder): key command VC.keyCommands[0]\n"))
        #expect(text.contains("press P2 keyboard \"a\" → TF (firstResponder): delivered TF → R → VC → W → UIApplication; handled by UIApplication; typed into TF\n"))
        #expect(text.contains("press P3 keyboard Escape → TF (firstResponder): delivered TF → R → VC → W → UIApplication → AppDelegate; unhandled\n"))
        #expect(text.contains("      TF -> pressesBegan:withEvent: {P2 \"a\"}\n"))
        #expect(text.contains("  [keyboard] key-down ⌘s (KC5)\n"))
        let shake = TextRenderer.render(try Scenes.run(NonTouchScenarioTests.sc22aScene(), NonTouchScenarioTests.shake))
        #expect(shake.contains("      V -> motionBegan:withEvent: .motionShake\n"))
        #expect(shake.contains("shake began t=0.000 → V (firstResponder): delivered V → R → VC → W → UIApplication → AppDelegate; unhandled\n"))
        let changes = TextRenderer.render(try Scenes.run(NonTouchScenarioTests.sc23Scene(), NonTouchScenarioTests.sc23Input))
        #expect(changes.contains("resign TF t=1.000 → YES (first responder TF → VC)\n"))
        #expect(changes.contains("remoteControl togglePlayPause t=0.500 → TF (firstResponder): delivered TF → R → VC; handled by VC\n"))
    }
}
