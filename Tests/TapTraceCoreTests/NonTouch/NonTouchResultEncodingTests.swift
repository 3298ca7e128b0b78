import Foundation
import SceneTestSupport
@testable import TapTraceCore
import TapTraceFormats
import TapTraceJSON
import TapTraceRuns
import Testing

/// Contract §2.1 "Result": the non-touch summaries, the knobs of non-touch events and the
/// non-touch records of `input`, written by both writers alike and read back by
/// `ResultDecoder`; a result without non-touch records stays as it was, byte for byte.
struct NonTouchResultEncodingTests {
    static let key = KeyInput(characters: "s", charactersIgnoringModifiers: "s", keyCode: "keyboardS", modifierFlags: [.command])

    /// A result as a run with every kind of non-touch record would give it, built by hand.
    static func result(knobs: Knobs = Knobs(), nonTouch: NonTouchSummary? = summary) -> DispatchResult {
        var recorder = TraceRecorder()
        let tf = ObjectRef(id: "TF", className: "UITextField")
        recorder.marker(.keyResponder, tf, [TraceArg("source", .string("firstResponder"))], note: nil)
        recorder.call(ObjectRef(id: "UIApplication", className: "UIApplication"), "sendEvent:", [TraceArg("event", .string("E1"))],
                      result: nil, note: nil)
        recorder.call(tf, "pressesBegan:withEvent:",
                      [TraceArg("presses", .presses([PressSnapshot(id: "P1", phase: .began, type: .keyboard, key: key),
                                                      PressSnapshot(id: "P2", phase: .began, type: .select, key: nil)])),
                       TraceArg("event", .string("E1"))], result: nil, note: "say \"hi\"")
        recorder.marker(.keyCommand, tf, [TraceArg("searched", .strings([])), TraceArg("shadowed", .strings([]))], note: nil)
        recorder.call(tf, "canBecomeFirstResponder", [], result: .bool(true), note: nil)
        let input: [TouchRecord] = [
            TouchRecord(t: 0, touches: [], nonTouch: .responder(.become("TF"))),
            TouchRecord(t: 0.25, touches: [TouchChange(id: "T1", phase: .began, at: Point(10, 20))]),
            TouchRecord(t: 0.5, touches: [], nonTouch: .presses([PressChange(id: "P1", phase: .began, type: .keyboard, key: key),
                                                                  PressChange(id: "P2", phase: .began, type: .select)])),
            TouchRecord(t: 0.6, touches: [], nonTouch: .presses([PressChange(id: "P1", phase: .ended, type: .keyboard, key: key),
                                                                  PressChange(id: "P2", phase: .cancelled, type: .select)])),
            TouchRecord(t: 0.75, touches: [TouchChange(id: "T1", phase: .ended, at: Point(10, 20))]),
            TouchRecord(t: 2, touches: [], nonTouch: .motion(MotionChange(phase: .began))),
            TouchRecord(t: 2.4, touches: [], nonTouch: .motion(MotionChange(phase: .ended))),
            TouchRecord(t: 3, touches: [], nonTouch: .remoteControl(.togglePlayPause)),
            TouchRecord(t: 4, touches: [], nonTouch: .responder(.resign("TF"))),
        ]
        var r = DispatchResult(firstResponder: nil, responderChain: [], touches: [], recognizers: [], actions: [],
                               recorder: recorder, knobs: knobs, input: input, until: 5)
        r.nonTouch = nonTouch
        return r
    }

    static let summary = NonTouchSummary(
        keyResponder: .init(initial: "TF", final: nil),
        presses: [
            .init(id: "P1", type: .keyboard, key: "s", responder: "TF", source: .firstResponder,
                  chain: ["TF", "R", "VC", "W", "UIApplication", "AppDelegate"], delivered: [], handledBy: nil,
                  keyCommand: "VC.keyCommands[0]", textInput: nil, recognizers: [], finalPhase: .ended),
            .init(id: "P2", type: .select, key: nil, responder: nil, source: nil, chain: [], delivered: ["VC"],
                  handledBy: "VC", keyCommand: nil, textInput: "T\"F", recognizers: ["tapC"], finalPhase: .cancelled),
        ],
        motions: [
            .init(t: 2, phase: .began, subtype: "shake", responder: "VC", source: .fallback, chain: ["VC", "W"],
                  delivered: ["VC", "W"], handledBy: "W"),
            .init(t: 2.4, phase: .ended, subtype: "shake", responder: "VC", source: .fallback, chain: ["VC", "W"],
                  delivered: ["VC", "W", "UIApplication", "AppDelegate"], handledBy: nil),
        ],
        remoteControls: [
            .init(t: 3, phase: nil, subtype: "togglePlayPause", responder: "TF", source: .firstResponder, chain: ["TF"],
                  delivered: [], handledBy: nil, dropped: true),
        ],
        responderChanges: [
            .init(t: 0, call: "become", receiver: "TF", result: true, from: nil, to: "TF"),
            .init(t: 4, call: "resign", receiver: "TF", result: false, from: "TF", to: "TF"),
        ])

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test(arguments: [Knobs(), { var k = Knobs(); k.keyboardPipeline = .beforeResponders; k.hitTestPasses = 2; return k }()])
    func bothWritersAgree(_ knobs: Knobs) {
        let r = Self.result(knobs: knobs)
        let compact = ResultEncoder.encode(r)
        #expect(Self.text(compact) == Self.text(CompactEncodingTests.minified(ResultEncoder.encode(r, indent: 2))))
    }

    @Test func theSummariesFollowTheActions() {
        let json = Self.text(ResultEncoder.encode(Self.result()))
        let expected = #""actions":[],"keyResponder":{"initial":"TF","final":null},"presses":[{"id":"P1","type":"keyboard","key":"s","responder":"TF","source":"firstResponder","chain":["TF","R","VC","W","UIApplication","AppDelegate"],"delivered":[],"handledBy":null,"keyCommand":"VC.keyCommands[0]","textInput":null,"recognizers":[],"finalPhase":"ended"},{"id":"P2","type":"select","responder":null,"source":null,"chain":[],"delivered":["VC"],"handledBy":"VC","keyCommand":null,"textInput":"T\"F","recognizers":["tapC"],"finalPhase":"cancelled"}],"motions":[{"t":2,"phase":"began","subtype":"shake","responder":"VC","source":"fallback","chain":["VC","W"],"delivered":["VC","W"],"handledBy":"W"},{"t":2.4,"phase":"ended","subtype":"shake","responder":"VC","source":"fallback","chain":["VC","W"],"delivered":["VC","W","UIApplication","AppDelegate"],"handledBy":null}],"remoteControls":[{"t":3,"subtype":"togglePlayPause","responder":"TF","source":"firstResponder","chain":["TF"],"delivered":[],"handledBy":null,"dropped":true}],"responderChanges":[{"t":0,"call":"become","receiver":"TF","result":true,"from":null,"to":"TF"},{"t":4,"call":"resign","receiver":"TF","result":false,"from":"TF","to":"TF"}],"trace":["#
        #expect(json.contains(expected), "\(json)")
    }

    @Test func theKnobsOfNonTouchEventsFollowTheOthers() throws {
        var knobs = Knobs()
        knobs.becomeOrder = .resignFirst
        for (k, events) in [(Knobs(), true), (knobs, true), (Knobs(), false), (knobs, false)] {
            let bytes = ResultEncoder.encode(Self.result(knobs: k, nonTouch: events ? Self.summary : nil))
            let tape = try JSONTape(parsing: bytes)
            let object = try #require(tape.member(tape.root, "knobs"))
            let names = tape.members(object).map { tape.string($0.key)! }
            #expect(names == (events ? Knobs.allNames : Knobs.names))
            let becomeOrder = tape.member(object, "becomeOrder").flatMap { tape.string($0) }
            #expect(becomeOrder == (events ? k.becomeOrder.rawValue : nil))
        }
        let tail = #""motionReachesAppDelegate":true,"arrivalPreamble":false},"input":"#
        #expect(Self.text(ResultEncoder.encode(Self.result())).contains(#""drainLimit":5,"keyResponderFallback":"deepestViewController","keyboardPipeline":"atApplication","keyCommandPrecedence":"nearest","becomeOrder":"canBecomeFirst","resignPassesToAncestor":true,"# + tail))
    }

    @Test func inputEchoesNonTouchRecordsInTheDocumentsShape() throws {
        let json = Self.text(ResultEncoder.encode(Self.result()))
        let expected = #""input":{"format":"taptrace/touches@1","events":[{"t":0,"responder":{"become":"TF"}},{"t":0.25,"touches":[{"id":"T1","phase":"began","at":[10,20]}]},{"t":0.5,"presses":[{"id":"P1","phase":"began","type":"keyboard","key":{"characters":"s","charactersIgnoringModifiers":"s","keyCode":"keyboardS","modifierFlags":["command"]}},{"id":"P2","phase":"began","type":"select"}]},{"t":0.6,"presses":[{"id":"P1","phase":"ended","type":"keyboard","key":{"characters":"s","charactersIgnoringModifiers":"s","keyCode":"keyboardS","modifierFlags":["command"]}},{"id":"P2","phase":"cancelled","type":"select"}]},{"t":0.75,"touches":[{"id":"T1","phase":"ended","at":[10,20]}]},{"t":2,"motion":{"subtype":"shake","phase":"began"}},{"t":2.4,"motion":{"subtype":"shake","phase":"ended"}},{"t":3,"remoteControl":{"subtype":"togglePlayPause"}},{"t":4,"responder":{"resign":"TF"}}],"until":5}}"#
        #expect(json.hasSuffix(expected), "\(json)")
        // What the result echoes is a touches document that reads back as the same records.
        let tape = try JSONTape(parsing: Array(json.utf8))
        let (sequence, records) = try InputDecoder.touches(Array(tape.rawBytes(try #require(tape.member(tape.root, "input")))))
        #expect(sequence.events == Self.result().input)
        #expect(records == Self.result().input)
    }

    @Test func theDecoderReadsEverythingBack() throws {
        var knobs = Knobs()
        knobs.keyResponderFallback = .keyWindow
        knobs.arrivalPreamble = true
        let result = Self.result(knobs: knobs)
        for indent in [0, 2] {
            let bytes = ResultEncoder.encode(result, indent: indent)
            let decoded = try ResultDecoder.decode(bytes)
            #expect(decoded.nonTouch == Self.summary)
            #expect(decoded.input == result.input)
            #expect(decoded.until == 5)
            #expect(decoded.knobs == knobs)
            #expect(decoded.trace == result.trace)
            #expect(ResultEncoder.encode(decoded, indent: indent) == bytes)
        }
        let decoded = try ResultDecoder.decode(ResultEncoder.encode(result))
        let presses = decoded.trace.first { $0.selector == "pressesBegan:withEvent:" }?.args.first?.value
        #expect(presses == .presses([PressSnapshot(id: "P1", phase: .began, type: .keyboard, key: Self.key),
                                     PressSnapshot(id: "P2", phase: .began, type: .select, key: nil)]))
        let searched = decoded.trace.first { $0.marker == .keyCommand }?.args.map(\.value)
        #expect(searched == [.strings([]), .strings([])])
    }

    /// An empty summary still writes all five keys (contract §2.1: "all five appear, empty when unused").
    @Test func anEmptySummaryWritesAllFive() throws {
        let empty = NonTouchSummary(keyResponder: .init(initial: nil, final: nil))
        let r = Self.result(nonTouch: empty)
        let json = Self.text(ResultEncoder.encode(r))
        #expect(json.contains(#""actions":[],"keyResponder":{"initial":null,"final":null},"presses":[],"motions":[],"remoteControls":[],"responderChanges":[],"trace":"#))
        #expect(try ResultDecoder.decode(Array(json.utf8)).nonTouch == empty)
    }

    @Test func aResultWithSomeSummariesOnlyIsRefused() {
        let json = Self.text(ResultEncoder.encode(Self.result()))
        let cut = json.replacingOccurrences(of: #","responderChanges":[{"t":0,"call":"become","receiver":"TF","result":true,"from":null,"to":"TF"},{"t":4,"call":"resign","receiver":"TF","result":false,"from":"TF","to":"TF"}]"#, with: "")
        #expect(cut != json)
        let error = #expect(throws: ResultDecoder.Failure.self) { try ResultDecoder.decode(Array(cut.utf8)) }
        #expect(error?.pointer == "/responderChanges")
        let phase = json.replacingOccurrences(of: #"{"t":3,"subtype""#, with: #"{"t":3,"phase":"began","subtype""#)
        let phaseError = #expect(throws: ResultDecoder.Failure.self) { try ResultDecoder.decode(Array(phase.utf8)) }
        #expect(phaseError?.pointer == "/remoteControls/0/phase")
    }

    /// A touch-only result writes none of it: the same result with a summary differs exactly by
    /// the summaries and the event knobs.
    @Test(arguments: ["13-nil-target-action.case.json", "22-touches-forwarded-to-view-controller.case.json"])
    func touchOnlyResultsAreUnchanged(_ name: String) throws {
        let result = try TapTrace.dispatch(json: try CompactEncodingTests.requestBytes(name))
        #expect(result.nonTouch == nil)
        let plain = Self.text(ResultEncoder.encode(result))
        for key in ["keyResponder", "presses", "motions", "remoteControls", "responderChanges"] + Knobs.eventNames {
            #expect(!plain.contains("\"\(key)\":"), "\(key)")
        }
        var with = result
        with.nonTouch = NonTouchSummary(keyResponder: .init(initial: nil, final: nil))
        for indent in [0, 2] {
            let added = Self.text(ResultEncoder.encode(with, indent: indent))
            var removed = added
            let summaries = indent == 0
                ? #","keyResponder":{"initial":null,"final":null},"presses":[],"motions":[],"remoteControls":[],"responderChanges":[]"#
                : ",\n  \"keyResponder\": {\n    \"initial\": null,\n    \"final\": null\n  },\n  \"presses\": [],\n  \"motions\": [],\n  \"remoteControls\": [],\n  \"responderChanges\": []"
            #expect(removed.contains(summaries))
            removed = removed.replacingOccurrences(of: summaries, with: "")
            let knobs = Knobs.eventNames.map { name -> String in
                let value: String
                switch Knobs().value(of: name)! {
                case .string(let s): value = "\"\(s)\""
                case .bool(let b): value = b ? "true" : "false"
                case .number(let n): value = JSONWriter.format(n)
                }
                return indent == 0 ? ",\"\(name)\":\(value)" : ",\n    \"\(name)\": \(value)"
            }.joined()
            #expect(removed.contains(knobs))
            removed = removed.replacingOccurrences(of: knobs, with: "")
            #expect(removed == Self.text(ResultEncoder.encode(result, indent: indent)))
        }
    }
}
