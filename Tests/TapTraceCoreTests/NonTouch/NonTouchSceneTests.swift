import Foundation
import SceneTestSupport
@testable import TapTraceCore
import TapTraceFormats
import TapTraceJSON
import Testing

/// Issues of requests, for the tests of non-touch events.
enum NonTouchIssues {
    /// The issues of a request, as `pointer message`; decoded, validated and (without issues)
    /// resolved against the scene as a dispatch resolves it, but not dispatched.
    static func issues(_ scene: String, _ touches: String = Scenes.tap(10, 10)) -> [String] {
        let bytes = Array(Scenes.request(scene, touches).utf8)
        do throws(InputError) {
            let request = try InputDecoder.request(bytes)
            do throws(ValidationFailure) {
                _ = try TapTrace.records(SceneIndex(validated: request.scene), touches: request.touches, records: request.records)
                return []
            } catch {
                return error.issues.map { "\($0.pointer) \($0.message)" }
            }
        } catch {
            guard case .invalid(let failure) = error else { return ["syntax: \(error)"] }
            return failure.issues.map { "\($0.pointer) \($0.message)" }
        }
    }

    static func request(_ scene: String, _ touches: String) throws -> DecodedRequest {
        try InputDecoder.request(Array(Scenes.request(scene, touches).utf8))
    }

    /// `list` has exactly one issue, at `pointer`, containing `fragment`.
    static func expectOne(_ list: [String], _ pointer: String, _ fragment: String,
                          sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(list.count == 1, "\(list)", sourceLocation: sourceLocation)
        #expect(list.first?.hasPrefix(pointer + " ") == true && list.first?.contains(fragment) == true,
                "expected \(pointer) … \(fragment), got \(list)", sourceLocation: sourceLocation)
    }

    /// The shared scene with a text field `TF` under `R`.
    static let textFieldScene = Scenes.scene(#"{"id": "TF", "class": "UITextField", "frame": [20, 100, 350, 44]}"#)
}

/// Contract §2.1's scene additions (issue 35): what any responder, the application and
/// recognizers may now say, decoded, validated with pointers and written back.
struct NonTouchSceneTests {
    static let fullScene = Scenes.scene(#"""
        {"id": "V", "class": "KeyView", "frame": [20, 100, 200, 200],
         "canBecomeFirstResponder": true, "canResignFirstResponder": false, "textInput": true,
         "keyCommands": [{"id": "saveCmd", "input": "s", "modifierFlags": ["command", "shift"], "action": "saveDocument:",
                          "wantsPriorityOverSystemBehavior": true},
                         {"input": "UIKeyInputEscape", "action": "dismiss:"}],
         "overrides": {"presses": {"began": "handle", "changed": "super", "ended": "handle", "cancelled": "handle",
                                   "only": ["UIKeyInputLeftArrow", "select"]},
                       "motion": {"began": "handle", "ended": "super"},
                       "remoteControl": {"only": ["togglePlayPause", "nextTrack"]}},
         "gestureRecognizers": [{"id": "tapC", "class": "UITapGestureRecognizer", "allowedPressTypes": ["select", "playPause"],
                                 "delegate": {"id": "VC", "shouldReceivePress": false}, "targets": []}]}
        """#,
        vc: #""canBecomeFirstResponder": true, "keyCommands": [{"input": "w", "modifierFlags": ["command"], "action": "close:"}], "overrides": {"presses": "handle", "motion": "handle", "remoteControl": "super"}"#,
        app: #""class": "MyApp", "canBecomeFirstResponder": false, "textInput": false, "keyCommands": [{"input": "q", "modifierFlags": ["command"], "action": "quit:"}], "overrides": {"remoteControl": "handle", "presses": "super"}, "applicationSupportsShakeToEdit": false, "receivesRemoteControlEvents": false"#)
        .replacingOccurrences(of: #""isResponder": true}"#,
                              with: #""isResponder": true, "canBecomeFirstResponder": true, "canResignFirstResponder": true, "keyCommands": [{"input": "n", "modifierFlags": ["command"], "action": "newDocument:"}], "overrides": {"motion": "handle"}}"#)
        .replacingOccurrences(of: #""isKey": true,"#, with: #""isKey": true, "canBecomeFirstResponder": true,"#)

    @Test func everySceneAdditionIsDecoded() throws {
        let scene = try InputDecoder.scene(Array(Self.fullScene.utf8))
        let v = try #require(scene.views.first { $0.id == "V" })
        #expect(v.traits.canBecomeFirstResponder == true)
        #expect(v.traits.canResignFirstResponder == false)
        #expect(v.traits.textInput == true)
        #expect(v.traits.keyCommands == [
            KeyCommandSpec(id: "saveCmd", input: "s", modifierFlags: [.command, .shift], action: "saveDocument:",
                           wantsPriorityOverSystemBehavior: true),
            KeyCommandSpec(input: "UIKeyInputEscape", action: "dismiss:"),
        ])
        #expect(v.overrides?.presses == PressOverrides(began: .handle, changed: .superCall, ended: .handle, cancelled: .handle,
                                                       only: ["UIKeyInputLeftArrow", "select"]))
        #expect(v.overrides?.motion == MotionOverrides(began: .handle, ended: .superCall, cancelled: .superCall))
        #expect(v.overrides?.remoteControl == RemoteControlOverride(handling: .superCall, only: [.togglePlayPause, .nextTrack]))
        let gr = try #require(v.gestureRecognizers?.first)
        #expect(gr.allowedPressTypes == [.select, .playPause])
        #expect(gr.delegate?.shouldReceivePress == false)

        let window = scene.views[scene.windows[0]]
        #expect(window.traits.canBecomeFirstResponder == true)
        let vc = try #require(scene.views.first { $0.id == "R" }?.viewController)
        #expect(vc.traits.canBecomeFirstResponder == true)
        #expect(vc.traits.keyCommands == [KeyCommandSpec(input: "w", modifierFlags: [.command], action: "close:")])
        #expect(vc.overrides?.presses == PressOverrides(all: .handle))
        #expect(vc.overrides?.motion == MotionOverrides(all: .handle))
        #expect(vc.overrides?.remoteControl == RemoteControlOverride(handling: .superCall))

        let app = try #require(scene.app)
        #expect(app.traits.canBecomeFirstResponder == false)
        #expect(app.traits.textInput == false)
        #expect(app.traits.keyCommands?.first?.action == "quit:")
        #expect(app.overrides?.remoteControl == RemoteControlOverride(handling: .handle))
        #expect(app.overrides?.presses == PressOverrides(all: .superCall))
        #expect(app.applicationSupportsShakeToEdit == false)
        #expect(app.receivesRemoteControlEvents == false)
        let delegate = try #require(app.delegate)
        #expect(delegate.traits.canBecomeFirstResponder == true)
        #expect(delegate.traits.canResignFirstResponder == true)
        #expect(delegate.traits.keyCommands?.first?.input == "n")
        #expect(delegate.overrides?.motion == MotionOverrides(all: .handle))
        // Nothing else took a trait.
        #expect(scene.views.filter { !$0.traits.isEmpty }.map(\.id) == ["W", "V"])
    }

    @Test func sceneAdditionsRoundTrip() throws {
        let scene = try InputDecoder.scene(Array(Self.fullScene.utf8))
        let encoded = SceneEncoder.encode(scene)
        let again = try InputDecoder.scene(encoded)
        #expect(again == scene)
        #expect(SceneEncoder.encode(again) == encoded)
        #expect(SceneEncoder.encode(again, indent: 2) == SceneEncoder.encode(scene, indent: 2))
        let text = String(decoding: encoded, as: UTF8.self)
        // Only what was given is written: the word forms stay words, absent flags stay absent.
        #expect(text.contains(#""overrides":{"presses":"handle","motion":"handle","remoteControl":"super"}"#), "\(text)")
        #expect(text.contains(#""remoteControl":{"only":["togglePlayPause","nextTrack"]}"#))
        #expect(text.contains(#"{"input":"UIKeyInputEscape","action":"dismiss:"}"#))
        #expect(text.contains(#""allowedPressTypes":["select","playPause"]"#))
        #expect(text.contains(#""shouldReceivePress":false"#))
        #expect(text.contains(#""applicationSupportsShakeToEdit":false,"receivesRemoteControlEvents":false"#))
    }

    /// A scene without the additions is written as before them, byte for byte.
    @Test func aSceneWithoutAdditionsIsWrittenAsBefore() throws {
        let scene = try InputDecoder.scene(Array(Scenes.scene(Scenes.touchView + "}", app: #""focusedResponder": "V""#).utf8))
        let expected = #"{"format":"taptrace/scene@1","app":{"delegate":{"id":"AppDelegate","class":"AppDelegate","isResponder":true},"focusedResponder":"V"},"windows":[{"id":"W","class":"UIWindow","frame":[0,0,390,844],"level":0,"isKey":true,"subviews":[{"id":"R","class":"UIView","frame":[0,0,390,844],"viewController":{"id":"VC","class":"ViewController"},"subviews":[{"id":"V","class":"TouchView","frame":[20,100,200,200],"overrides":{"touches":"handle"}}]}]}]}"#
        #expect(String(decoding: SceneEncoder.encode(scene), as: UTF8.self) == expected)
    }

    @Test func sceneAdditionsAreCheckedWithPointers() {
        let v = "/scene/windows/0/subviews/0/subviews/0"
        let cases: [(String, String, String, String)] = [
            // (R's subview, vc, pointer, fragment)
            (#""canBecomeFirstResponder": "yes""#, "", v + "/canBecomeFirstResponder", "must be true or false"),
            (#""textInputs": true"#, "", v + "/textInputs", "did you mean \"textInput\"?"),
            (#""keyCommands": {}"#, "", v + "/keyCommands", "must be an array"),
            (#""keyCommands": [{"input": "s", "action": "save:", "modifiers": []}]"#, "", v + "/keyCommands/0/modifiers",
             "unknown key \"modifiers\""),
            (#""keyCommands": [{"input": "s", "action": "save:", "modifierFlags": ["cmd"]}]"#, "", v + "/keyCommands/0/modifierFlags/0",
             "must be one of alphaShift, shift, control, alternate, command, numericPad, not \"cmd\""),
            (#""keyCommands": [{"input": "s", "action": "save:", "modifierFlags": ["shift", "shift"]}]"#, "",
             v + "/keyCommands/0/modifierFlags/1", "appears twice"),
            (#""keyCommands": [{"action": "save:"}]"#, "", v + "/keyCommands/0", "required key \"input\""),
            (#""keyCommands": [{"input": "s"}]"#, "", v + "/keyCommands/0", "required key \"action\""),
            (#""keyCommands": [{"input": "s", "action": "save doc"}]"#, "", v + "/keyCommands/0/action", "not an Objective-C selector"),
            (#""keyCommands": [{"id": "R", "input": "s", "action": "save:"}]"#, "", v + "/keyCommands/0/id", "already the id of another object"),
            (#""keyCommands": [{"id": "k", "input": "s", "action": "a:"}, {"id": "k", "input": "t", "action": "b:"}]"#, "",
             v + "/keyCommands/1/id", "duplicate key command id \"k\": already used at " + v + "/keyCommands/0"),
            (#""keyCommands": [{"input": "s", "action": "a:", "wantsPriorityOverSystemBehavior": 1}]"#, "",
             v + "/keyCommands/0/wantsPriorityOverSystemBehavior", "must be true or false"),
            (#""overrides": {"presses": "consume"}"#, "", v + "/overrides/presses", "must be \"super\" or \"handle\""),
            (#""overrides": {"presses": {"moved": "handle"}}"#, "", v + "/overrides/presses/moved", "unknown key \"moved\""),
            (#""overrides": {"presses": {"began": "handle", "only": []}}"#, "", v + "/overrides/presses/only", "needs at least one"),
            (#""overrides": {"presses": 1}"#, "", v + "/overrides/presses", "must be \"super\", \"handle\" or {"),
            (#""overrides": {"motion": {"moved": "handle"}}"#, "", v + "/overrides/motion/moved", "unknown key \"moved\""),
            (#""overrides": {"motion": true}"#, "", v + "/overrides/motion", "must be \"super\", \"handle\" or {"),
            (#""overrides": {"remoteControl": {"only": ["togglePlayPauze"]}}"#, "", v + "/overrides/remoteControl/only/0",
             "did you mean \"togglePlayPause\"?"),
            (#""overrides": {"remoteControl": {"only": []}}"#, "", v + "/overrides/remoteControl/only", "needs at least one subtype"),
            (#""overrides": {"remoteControl": {}}"#, "", v + "/overrides/remoteControl", "{\"only\": [remote-control subtypes]}"),
            (#""gestureRecognizers": [{"id": "g", "class": "UITapGestureRecognizer", "allowedPressTypes": ["keyboard"], "targets": []}]"#, "",
             v + "/gestureRecognizers/0/allowedPressTypes/0", "must be one of upArrow"),
            (#""gestureRecognizers": [{"id": "g", "class": "UITapGestureRecognizer", "delegate": {"id": "VC", "shouldReceivePress": "no"}, "targets": []}]"#, "",
             v + "/gestureRecognizers/0/delegate/shouldReceivePress", "must be true or false"),
            ("", #""keyCommands": [{"input": "s", "action": "save:", "flags": []}]"#, "/scene/windows/0/subviews/0/viewController/keyCommands/0/flags",
             "unknown key"),
            ("", #""canResignFirstResponder": 0"#, "/scene/windows/0/subviews/0/viewController/canResignFirstResponder", "must be true or false"),
        ]
        for (extra, vc, pointer, fragment) in cases {
            let view = #"{"id": "V", "class": "UIView", "frame": [0, 0, 10, 10]\#(extra.isEmpty ? "" : ", " + extra)}"#
            NonTouchIssues.expectOne(NonTouchIssues.issues(Scenes.scene(view, vc: vc)), pointer, fragment)
        }
    }

    @Test func appAdditionsAreCheckedWithPointers() {
        func issues(_ app: String) -> [String] { NonTouchIssues.issues(Scenes.scene(app: app)) }
        NonTouchIssues.expectOne(issues(#""applicationSupportsShakeToEdit": "no""#), "/scene/app/applicationSupportsShakeToEdit", "must be true or false")
        NonTouchIssues.expectOne(issues(#""receivesRemoteControlEvent": false"#), "/scene/app/receivesRemoteControlEvent",
                       "did you mean \"receivesRemoteControlEvents\"?")
        NonTouchIssues.expectOne(issues(#""keyCommands": [{"input": "q", "action": "q"}, {"input": "w", "action": "close:", "id": "UIApplication.keyCommands[0]"}]"#),
                       "/scene/app/keyCommands/1/id", "duplicate key command id \"UIApplication.keyCommands[0]\": already used at /scene/app/keyCommands/0")
        let notAResponder = NonTouchIssues.issues(Scenes.scene().replacingOccurrences(
            of: #""isResponder": true}"#, with: #""isResponder": false, "canBecomeFirstResponder": true, "overrides": {"presses": "handle"}}"#))
        #expect(notAResponder.count == 2)
        #expect(notAResponder.contains { $0.hasPrefix("/scene/app/delegate/overrides ") && $0.contains("press") })
        #expect(notAResponder.contains { $0.hasPrefix("/scene/app/delegate ") && $0.contains("cannot become first responder") })
    }

}
