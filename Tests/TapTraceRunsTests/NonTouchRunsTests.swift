import SceneTestSupport
import TapTraceCore
import TapTraceFormats
@testable import TapTraceRuns
import Testing

/// Non-touch events in what is built from a run: Chrome trace tracks, outcomes and their
/// differences (compare, replay).
struct NonTouchRunsTests {
    static let scene = Scenes.scene(#"{"id": "TF", "class": "UITextField", "frame": [20, 100, 350, 44]}"#,
                                    vc: #""keyCommands": [{"input": "s", "modifierFlags": ["command"], "action": "saveDocument:"}], "implements": ["saveDocument:"]"#,
                                    app: #""focusedResponder": "TF""#)
    static func key(_ id: String, _ c: String, _ flags: String, _ t: Double) -> [String] {
        let key = #"{"characters": "\#(c)", "charactersIgnoringModifiers": "\#(c)", "keyCode": "keyboard\#(c.uppercased())", "modifierFlags": [\#(flags)]}"#
        return [#"{"t": \#(t), "presses": [{"id": "\#(id)", "phase": "began", "type": "keyboard", "key": \#(key)}]}"#,
                #"{"t": \#(t + 0.08), "presses": [{"id": "\#(id)", "phase": "ended", "type": "keyboard", "key": \#(key)}]}"#]
    }
    static func touches(_ records: [String]) -> String {
        #"{"format": "taptrace/touches@1", "events": [\#(records.joined(separator: ", "))]}"#
    }
    static let input = touches(key("P1", "s", #""command""#, 0) + key("P2", "a", "", 0.5)
                               + [#"{"t": 1, "motion": {"subtype": "shake", "phase": "began"}}"#,
                                  #"{"t": 1.4, "motion": {"subtype": "shake", "phase": "ended"}}"#,
                                  #"{"t": 2, "remoteControl": {"subtype": "play"}}"#])

    @Test func chromeTraceHasPressMotionAndRemoteControlTracks() throws {
        let r = try Scenes.run(Self.scene, Self.input)
        let events = try ChromeTraceTests.events(ChromeTrace.encode(r, title: "keys"))
        let names = events.filter { $0.ph == "M" }.map(\.name)
        #expect(names.count == events.filter { $0.ph == "M" }.count)
        let tracks = Set(events.map(\.tid))
        #expect(tracks.contains(ChromeTrace.firstPressTid) && tracks.contains(ChromeTrace.firstPressTid + 1))
        #expect(tracks.contains(ChromeTrace.motionTid) && tracks.contains(ChromeTrace.remoteControlTid))
        #expect(events.contains { $0.tid == ChromeTrace.firstPressTid && $0.ph == "X" && $0.name == "press P1" })
        #expect(events.contains { $0.tid == ChromeTrace.motionTid && $0.ph == "X" && $0.name == "shake" })
        #expect(events.contains { $0.tid == ChromeTrace.remoteControlTid && $0.ph == "i" && $0.name == "play" })
    }

    @Test func outcomesCarryAndCompareNonTouchEvents() throws {
        let a = RunOutcome(try Scenes.run(Self.scene, Self.input))
        #expect(a.nonTouch?.presses.map(\.keyCommand) == ["VC.keyCommands[0]", nil])
        #expect(a.nonTouch?.presses.map(\.textInput) == [nil, "TF"])
        // The controller swallows presses: "a" is no longer typed, and the digest changes.
        let swallowing = Self.scene.replacingOccurrences(of: #""implements": ["saveDocument:"]"#,
                                                         with: #""implements": ["saveDocument:"], "overrides": {"presses": "handle"}"#)
        let b = RunOutcome(try Scenes.run(swallowing, Self.input))
        #expect(a.digest != b.digest)
        let fields = a.differences(to: b).map(\.field)
        #expect(fields == ["presses[P2].handledBy", "presses[P2].textInput"])
        #expect(a.differences(to: a).isEmpty)
    }

    @Test func touchOnlyOutcomesHaveNoNonTouchPart() throws {
        let r = try Scenes.run(Scenes.scene(Scenes.touchView + "}"), Scenes.tap(100, 200))
        #expect(RunOutcome(r).nonTouch == nil)
        #expect(!String(decoding: RunOutcome(r).canonicalJSON, as: UTF8.self).contains("nonTouch"))
    }
}
