import SceneTestSupport
@testable import TapTraceCore
import TapTraceFormats
import Testing

/// Why questions about non-touch events: where a press, a key command, a shake or a
/// remote-control event went, and whether it reached a responder (rules §3.17–3.23).
struct WhyNonTouchTests {
    static func ask(_ question: WhyQuestion, scene: String, touches: String, knobs: String = "") throws -> WhyAnswer {
        let request = Array(Scenes.request(scene, touches, knobs: knobs).utf8)
        let decoded = try InputDecoder.request(request)
        let index = SceneIndex(validated: decoded.scene)
        let records = try TapTrace.records(index, touches: decoded.touches, records: decoded.records, knobs: decoded.knobs)
        return try Why.answer(question, index: index, records: records, knobs: decoded.knobs)
    }

    static func sc21(_ question: WhyQuestion) throws -> WhyAnswer {
        try ask(question, scene: NonTouchScenarioTests.sc21Scene(), touches: NonTouchScenarioTests.sc21Input)
    }

    @Test func aKeyCommandPress() throws {
        let a = try Self.sc21(WhyQuestion(.press("P1"), responder: "TF"))
        #expect(a.answer == "P1 ran the key command VC.keyCommands[0] and was delivered to no responder; it did not reach TF")
        #expect(a.reasons.map(\.rule) == ["N1", "KC3", "KC4", "KC1", "KC1"])
        #expect(a.reasons.allSatisfy { !$0.trace.isEmpty || $0.rule == "KC1" })
    }

    @Test func aTypedKeyReachesTheControllerAndIsTypedAtTheApplication() throws {
        let a = try Self.sc21(WhyQuestion(.press("P2"), responder: "VC"))
        #expect(a.answer == "P2 went to TF and was taken by UIApplication; it reached VC")
        #expect(a.reasons.map(\.rule) == ["N1", "KC3", "KC2", "P3"])
        #expect(a.reasons[2].text.contains("at UIApplication"))
    }

    @Test func anEscapeFallsOffTheChain() throws {
        let a = try Self.sc21(WhyQuestion(.press("P3")))
        #expect(a.answer == "P3 went to TF and nobody took it")
        #expect(a.reasons.last?.rule == "N5")
    }

    @Test func keyCommands() throws {
        let ran = try Self.sc21(WhyQuestion(.keyCommand("VC.keyCommands[0]")))
        #expect(ran.answer == "VC.keyCommands[0] ran at the key-down of P1")
        #expect(ran.reasons.map(\.rule) == ["KC4"])
        // With nobody implementing the action, the command is skipped and the press delivered.
        let scene = NonTouchScenarioTests.sc21Scene().replacingOccurrences(of: #""implements": ["saveDocument:"]"#, with: #""implements": []"#)
        let skipped = try Self.ask(WhyQuestion(.keyCommand("VC.keyCommands[0]")), scene: scene, touches: NonTouchScenarioTests.sc21Input)
        #expect(skipped.answer == "VC.keyCommands[0] did not run")
        #expect(skipped.reasons.map(\.rule) == ["KC4"] && !skipped.reasons[0].trace.isEmpty)
    }

    @Test func shakesAndRemoteControl() throws {
        let shake = try Self.ask(WhyQuestion(.shake, responder: "VC"), scene: NonTouchScenarioTests.sc22bScene(),
                                 touches: NonTouchScenarioTests.shake)
        #expect(shake.answer == "2 shakes, taken by W; every one reached VC")
        #expect(shake.reasons.map(\.rule) == ["N3", "P3", "N3", "P3"])
        let remote = try Self.ask(WhyQuestion(.remoteControl, responder: "W"), scene: NonTouchScenarioTests.sc23Scene(),
                                  touches: NonTouchScenarioTests.sc23Input)
        #expect(remote.answer == "2 remote-control events, taken by VC; not every one reached W (see the chain of each)")
    }

    @Test func questionsAreChecked() throws {
        #expect(throws: ValidationIssue.self) {
            try Self.sc21(WhyQuestion(.press("P1"), expect: .fired))
        }
        #expect(throws: ValidationIssue.self) {
            try Self.sc21(WhyQuestion(.press("P1"), responder: "nobody"))
        }
        #expect(throws: ValidationIssue.self) {
            try Self.sc21(WhyQuestion(.firstResponder, responder: "VC"))
        }
    }

    @Test func questionsAreReadFromRequests() throws {
        let body = Array(#"{"press": "P1", "responder": "TF"}"#.utf8)
        #expect(try InputDecoder.whyQuestion(body) == WhyQuestion(.press("P1"), responder: "TF"))
        #expect(try InputDecoder.whyQuestion(Array(#"{"shake": true}"#.utf8)) == WhyQuestion(.shake))
        #expect(throws: InputError.self) { try InputDecoder.whyQuestion(Array(#"{"shake": true, "press": "P1"}"#.utf8)) }
    }
}
