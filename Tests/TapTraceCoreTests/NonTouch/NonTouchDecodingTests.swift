import Foundation
import SceneTestSupport
@testable import TapTraceCore
import TapTraceFormats
import TapTraceJSON
import TapTraceRuns
import Testing

/// A touches document of these records (JSON texts of `events`' elements).
fileprivate func touches(_ events: String..., gestures: String? = nil) -> String {
    "{\"format\": \"taptrace/touches@1\", \"events\": [\(events.joined(separator: ", "))]"
        + (gestures.map { ", \"gestures\": [\($0)]" } ?? "") + "}"
}

fileprivate let keyS = #"{"characters": "s", "charactersIgnoringModifiers": "s", "keyCode": "keyboardS", "modifierFlags": ["command"]}"#

/// A record of one press.
fileprivate func press(_ t: Double, _ id: String, _ phase: String, _ type: String = "keyboard", key: String? = keyS) -> String {
    #"{"t": \#(t), "presses": [{"id": "\#(id)", "phase": "\#(phase)", "type": "\#(type)"\#(key.map { ", \"key\": " + $0 } ?? "")}]}"#
}

fileprivate func selectPress(_ t: Double, _ id: String, _ phase: String) -> String { press(t, id, phase, "select", key: nil) }

/// Contract §2.1's touches-document records (issue 35): press, motion, remote-control and
/// responder records decoded and held to their rules, every issue at its JSON pointer.
struct NonTouchDecodingTests {
    @Test func everyRecordKindIsDecoded() throws {
        let request = try NonTouchIssues.request(NonTouchIssues.textFieldScene, touches(
            #"{"t": 0, "responder": {"become": "TF"}}"#,
            press(0.5, "P1", "began"),
            #"{"t": 0.55, "presses": [{"id": "P1", "phase": "changed", "type": "keyboard", "key": \#(keyS)}, {"id": "P2", "phase": "began", "type": "select"}]}"#,
            #"{"t": 0.6, "presses": [{"id": "P1", "phase": "ended", "type": "keyboard", "key": \#(keyS)}, {"id": "P2", "phase": "cancelled", "type": "select"}]}"#,
            #"{"t": 2, "motion": {"subtype": "shake", "phase": "began"}}"#,
            #"{"t": 2.4, "motion": {"subtype": "shake", "phase": "cancelled"}}"#,
            #"{"t": 3, "remoteControl": {"subtype": "togglePlayPause"}}"#,
            #"{"t": 4, "responder": {"resign": "TF"}}"#))
        let key = KeyInput(characters: "s", charactersIgnoringModifiers: "s", keyCode: "keyboardS", modifierFlags: [.command])
        let expected: [TouchRecord] = [
            TouchRecord(t: 0, touches: [], nonTouch: .responder(.become("TF"))),
            TouchRecord(t: 0.5, touches: [], nonTouch: .presses([PressChange(id: "P1", phase: .began, type: .keyboard, key: key)])),
            TouchRecord(t: 0.55, touches: [], nonTouch: .presses([PressChange(id: "P1", phase: .changed, type: .keyboard, key: key),
                                                                   PressChange(id: "P2", phase: .began, type: .select)])),
            TouchRecord(t: 0.6, touches: [], nonTouch: .presses([PressChange(id: "P1", phase: .ended, type: .keyboard, key: key),
                                                                  PressChange(id: "P2", phase: .cancelled, type: .select)])),
            TouchRecord(t: 2, touches: [], nonTouch: .motion(MotionChange(phase: .began))),
            TouchRecord(t: 2.4, touches: [], nonTouch: .motion(MotionChange(phase: .cancelled))),
            TouchRecord(t: 3, touches: [], nonTouch: .remoteControl(.togglePlayPause)),
            TouchRecord(t: 4, touches: [], nonTouch: .responder(.resign("TF"))),
        ]
        #expect(request.touches.events == expected)
        #expect(request.records == expected)
        #expect(request.touches.hasNonTouchEvents)
        #expect(TouchSequenceValidator.recordCount(request.touches) == 10)
    }

    /// Gestures expand into touch records merged by time with the non-touch records.
    @Test func gesturesMergeWithNonTouchRecordsByTime() throws {
        let request = try NonTouchIssues.request(NonTouchIssues.textFieldScene, touches(
            #"{"t": 0.5, "remoteControl": {"subtype": "play"}}"#, selectPress(1.0, "P1", "began"), selectPress(3.0, "P1", "ended"),
            gestures: #"{"tap": [10, 10], "t": 0}, {"longPress": [10, 10], "t": 1.5, "duration": 1}"#))
        #expect(request.records.map(\.t) == [0, 0.1, 0.5, 1.0, 1.5, 2.5, 3.0])
        #expect(request.records.map { $0.nonTouch == nil ? $0.touches.map(\.id).joined() : TouchSequenceValidator.kind($0.nonTouch!) }
                == ["T1", "T1", "remoteControl", "presses", "T2", "T2", "presses"])
    }

    /// Each rule of the records, broken once: the one issue and its pointer.
    @Test(arguments: [
        // two kinds in one record
        (touches(#"{"t": 0, "remoteControl": {"subtype": "play"}, "motion": {"subtype": "shake", "phase": "began"}}"#),
         "/touches/events/0", "exactly one of touches, presses, motion, remoteControl, responder; this one has both \"remoteControl\" and \"motion\""),
        (touches(#"{"t": 0, "touches": [{"id": "T1", "phase": "began", "at": [1, 1]}], "responder": {"become": "TF"}}"#, #"{"t": 1, "touches": [{"id": "T1", "phase": "ended", "at": [1, 1]}]}"#),
         "/touches/events/0", "this one has both \"touches\" and \"responder\""),
        // presses: keys and values
        (touches(#"{"t": 0, "presses": [{"id": "P1", "phase": "began", "type": "select", "colour": 1}]}"#, selectPress(1, "P1", "ended")),
         "/touches/events/0/presses/0/colour", "unknown key \"colour\""),
        (touches(#"{"t": 0, "presses": {}}"#), "/touches/events/0/presses", "must be an array"),
        (touches(#"{"t": 0, "presses": []}"#), "/touches/events/0/presses", "a presses record changes at least one press"),
        (touches(press(0, "P1", "began", key: nil)), "/touches/events/0/presses/0", "required key \"key\""),
        (touches(press(0, "P1", "began", "select", key: keyS)), "/touches/events/0/presses/0/key",
         "only a keyboard press has a key (this one is select)"),
        (touches(press(0, "P1", "began", key: #"{"characters": "s", "charactersIgnoringModifiers": "s"}"#)),
         "/touches/events/0/presses/0/key", "missing: keyCode, modifierFlags"),
        (touches(press(0, "P1", "began", key: #"{"characters": "s", "charactersIgnoringModifiers": "s", "keyCode": "", "modifierFlags": []}"#)),
         "/touches/events/0/presses/0/key/keyCode", "must not be empty"),
        (touches(press(0, "P1", "began", key: #"{"characters": "", "charactersIgnoringModifiers": "", "keyCode": "keyboardLeftGUI", "modifierFlags": ["meta"]}"#)),
         "/touches/events/0/presses/0/key/modifierFlags/0", "not \"meta\""),
        (touches(selectPress(0, "P1", "began"), selectPress(0.5, "P1", "stationary"), selectPress(1, "P1", "ended")),
         "/touches/events/1/presses/0/phase", "must be one of began, changed, ended, cancelled, not \"stationary\""),
        (touches(press(0, "P1", "began", "selct", key: nil)), "/touches/events/0/presses/0/type", "did you mean \"select\"?"),
        (touches(#"{"t": 0, "presses": [{"phase": "began", "type": "select"}]}"#), "/touches/events/0/presses/0", "required key \"id\""),
        (touches(#"{"t": 0, "presses": [{"id": "P1", "type": "select"}]}"#), "/touches/events/0/presses/0", "required key \"phase\""),
        // presses: the press-id rules
        (touches(selectPress(0, "P1", "ended")), "/touches/events/0/presses/0", "press \"P1\" is ended before it began"),
        (touches(selectPress(0, "P1", "began")), "/touches/events/0/presses/0", "press \"P1\" never ends"),
        (touches(selectPress(0, "P1", "began"), selectPress(1, "P1", "ended"), selectPress(2, "P1", "began")),
         "/touches/events/2/presses/0", "press \"P1\" begins twice (it began at /touches/events/0/presses/0); a key pressed again needs a new id"),
        (touches(selectPress(0, "P1", "began"), selectPress(1, "P1", "ended"), selectPress(2, "P1", "changed")),
         "/touches/events/2/presses/0", "press \"P1\" is changed after it ended at /touches/events/1/presses/0"),
        (touches(#"{"t": 0, "presses": [{"id": "P1", "phase": "began", "type": "select"}, {"id": "P1", "phase": "began", "type": "select"}]}"#,
                 selectPress(1, "P1", "ended")),
         "/touches/events/0/presses/1", "press \"P1\" appears twice in one record"),
        (touches(selectPress(0, "P1", "began"), press(1, "P1", "ended", "menu", key: nil)),
         "/touches/events/1/presses/0/type", "press \"P1\" began as select at /touches/events/0/presses/0"),
        (touches(press(0, "P1", "began"), press(1, "P1", "ended", key: keyS.replacingOccurrences(of: "[\"command\"]", with: "[]"))),
         "/touches/events/1/presses/0/key", "press \"P1\" began with another key"),
        // motion
        (touches(#"{"t": 0, "motion": {"subtype": "tilt", "phase": "began"}}"#), "/touches/events/0/motion/subtype", "must be one of shake, not \"tilt\""),
        (touches(#"{"t": 0, "motion": {"phase": "began"}}"#), "/touches/events/0/motion", "required key \"subtype\""),
        (touches(#"{"t": 0, "motion": {"subtype": "shake", "phase": "moved"}}"#), "/touches/events/0/motion/phase", "must be one of began, ended, cancelled"),
        (touches(#"{"t": 0, "motion": {"subtype": "shake", "phase": "ended"}}"#), "/touches/events/0/motion", "a shake is ended while none goes on"),
        (touches(#"{"t": 0, "motion": {"subtype": "shake", "phase": "began"}}"#, #"{"t": 1, "motion": {"subtype": "shake", "phase": "began"}}"#,
                 #"{"t": 2, "motion": {"subtype": "shake", "phase": "ended"}}"#),
         "/touches/events/1/motion", "a shake begins while the one that began at /touches/events/0/motion goes on"),
        (touches(#"{"t": 0, "motion": {"subtype": "shake", "phase": "began"}}"#), "/touches/events/0/motion", "this shake never ends"),
        // remote control
        (touches(#"{"t": 0, "remoteControl": {"subtype": "toggle"}}"#), "/touches/events/0/remoteControl/subtype", "not \"toggle\""),
        (touches(#"{"t": 0, "remoteControl": {"subtype": "play", "volume": 1}}"#), "/touches/events/0/remoteControl/volume", "unknown key"),
        (touches(#"{"t": 0, "remoteControl": {}}"#), "/touches/events/0/remoteControl", "required key \"subtype\""),
        // responder
        (touches(#"{"t": 0, "responder": {"become": "TF", "resign": "TF"}}"#), "/touches/events/0/responder", "exactly one call"),
        (touches(#"{"t": 0, "responder": {}}"#), "/touches/events/0/responder", "exactly one call"),
        (touches(#"{"t": 0, "responder": {"focus": "TF"}}"#), "/touches/events/0/responder/focus", "unknown key \"focus\""),
        (touches(#"{"t": 0, "responder": {"become": ""}}"#), "/touches/events/0/responder/become", "must not be empty"),
        (touches(#"{"t": 0, "responder": {"become": 3}}"#), "/touches/events/0/responder/become", "must be a string"),
        // time over all records, and gestures that meet a non-touch record
        (touches(#"{"t": 1, "remoteControl": {"subtype": "play"}}"#, #"{"t": 1, "responder": {"become": "TF"}}"#),
         "/touches/events/1/t", "times must increase strictly: 1 follows 1"),
        (touches(#"{"t": 0.1, "remoteControl": {"subtype": "play"}}"#, gestures: #"{"tap": [10, 10], "t": 0}"#),
         "/touches/gestures/0", "touches at t = 0.1 meet the remoteControl record at /touches/events/0"),
        // references to the scene
        (touches(#"{"t": 0, "responder": {"become": "Ghost"}}"#), "/touches/events/0/responder/become", "\"Ghost\" is not an id in this scene"),
        (touches(#"{"t": 0, "responder": {"resign": "AppDelegate"}}"#), "/touches/events/0/responder/resign",
         "\"AppDelegate\" is the application's delegate; resign names a view or view controller"),
        (touches(#"{"t": 0, "responder": {"become": "UIApplication"}}"#), "/touches/events/0/responder/become", "is the application;"),
    ])
    func recordRulesAreCheckedWithPointers(_ touches: String, _ pointer: String, _ fragment: String) {
        let scene = Scenes.scene(#"{"id": "TF", "class": "UITextField", "frame": [20, 100, 350, 44]}"#)
        NonTouchIssues.expectOne(NonTouchIssues.issues(scene, touches), pointer, fragment)
    }

    @Test func aRecognizerIsNotAResponderToBecome() {
        let scene = Scenes.scene(#"{"id": "V", "class": "UIView", "frame": [0, 0, 10, 10], "gestureRecognizers": [{"id": "g", "class": "UITapGestureRecognizer", "targets": []}]}"#)
        NonTouchIssues.expectOne(NonTouchIssues.issues(scene, touches(#"{"t": 0, "responder": {"become": "g"}}"#)),
                       "/touches/events/0/responder/become", "\"g\" is a gesture recognizer, not a responder")
        #expect(NonTouchIssues.issues(scene, touches(#"{"t": 0, "responder": {"become": "V"}}"#, #"{"t": 1, "responder": {"resign": "VC"}}"#)) == [])
    }

    /// A record that could not be read is reported once, not again as an empty record.
    @Test func aBrokenRecordIsReportedOnce() {
        let list = NonTouchIssues.issues(NonTouchIssues.textFieldScene, touches(#"{"t": 0, "motion": 1}"#, #"{"t": 1, "remoteControl": {"subtype": "play"}}"#))
        NonTouchIssues.expectOne(list, "/touches/events/0/motion", "must be an object")
        NonTouchIssues.expectOne(NonTouchIssues.issues(NonTouchIssues.textFieldScene, touches(#"{"t": 0, "presses": [{"id": "P1", "phase": "began", "type": "menu", "key": \#(keyS)}]}"#)),
                       "/touches/events/0/presses/0/key", "only a keyboard press has a key")
        // No kind at all is still an empty event.
        NonTouchIssues.expectOne(NonTouchIssues.issues(NonTouchIssues.textFieldScene, touches(#"{"t": 0}"#)), "/touches/events/0/touches", "at least one touch")
    }

    /// Sequences built in code meet the same rules (what documents cannot even say included).
    @Test func sequencesBuiltInCodeAreChecked() {
        func issues(_ events: [TouchRecord]) -> [String] {
            var list = IssueList()
            _ = TouchSequenceValidator.expand(TouchSequence(events: events), at: "/touches", issues: &list)
            return list.issues.map { "\($0.pointer) \($0.message)" }
        }
        let stationary = PressChange(id: "P1", phase: .stationary, type: .select)
        NonTouchIssues.expectOne(issues([TouchRecord(t: 0, touches: [], nonTouch: .presses([stationary]))]), "/touches/events/0/presses/0/phase", "stationary")
        NonTouchIssues.expectOne(issues([TouchRecord(t: 0, touches: [], nonTouch: .presses([PressChange(id: "P1", phase: .began, type: .keyboard)]))]),
                       "/touches/events/0/presses/0", "a keyboard press needs a key")
        let both = TouchRecord(t: 0, touches: [TouchChange(id: "T1", phase: .began, at: Point(1, 1))], nonTouch: .remoteControl(.play))
        NonTouchIssues.expectOne(issues([both]), "/touches/events/0", "exactly one of")
        #expect(issues([TouchRecord(t: 0, touches: [], nonTouch: .remoteControl(.stop))]) == [])
    }

    // MARK: the shared cases

    /// The copies beside the other cases (../shared/conformance/events, copied unchanged): a
    /// clean clone has no ../shared.
    static let eventsFolder = ConformanceCases.folder

    /// Cases 23–27, the non-touch ones.
    static var eventCaseNames: [String] {
        ConformanceCases.names.filter { name in Int(name.prefix(2)).map { (23...27).contains($0) } ?? false }
    }

    @Test func theFiveEventCasesAreThere() {
        #expect(Self.eventCaseNames.count == 5, "\(Self.eventsFolder.path)")
    }

    /// The cases of ../shared/conformance/events: each reads without an issue (scene, touches with their
    /// references resolved, expect), and its scene round-trips.
    @Test(arguments: NonTouchDecodingTests.eventCaseNames)
    func eventCasesDecodeWithoutIssues(_ name: String) throws {
        let bytes = Array(try Data(contentsOf: Self.eventsFolder.appendingPathComponent(name)))
        let c = try CaseDocument.decode(bytes)
        #expect(c.touches.hasNonTouchEvents)
        #expect(c.records.count == c.touches.events.count)
        #expect(c.records.allSatisfy { $0.nonTouch != nil && $0.touches.isEmpty })
        #expect(!c.expect.isEmpty)
        let request = try InputDecoder.request(ConformanceChecker.request(from: try JSONTape(parsing: bytes)))
        #expect(request.records == c.records)
        let encoded = SceneEncoder.encode(request.scene)
        #expect(try InputDecoder.scene(encoded) == request.scene, "\(name)")
    }
}
