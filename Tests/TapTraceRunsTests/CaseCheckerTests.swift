import Foundation
import TapTraceCore
import TapTraceFormats
import TapTraceJSON
@testable import TapTraceRuns
import Testing

/// `CaseChecker` (test files, issue 32 item 5) on the checkout example: a tap on buyButton at
/// (100, 332) at t = 0…0.08, where cardTap fails, checkoutVC gets buyTapped: and buyButton is
/// the first responder. Every `expect` key, met and not met, with the line the diff shows.
struct CaseCheckerTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples")

    /// The checkout request with this `expect` (JSON text of its members).
    static func caseBytes(_ expect: String, name: String? = "checkout") throws -> [UInt8] {
        let request = try String(contentsOf: examples.appendingPathComponent("checkout.request.json"), encoding: .utf8)
        let body = request.trimmingCharacters(in: .whitespacesAndNewlines).dropLast()
        return Array((body + (name.map { ", \"name\": \"\($0)\"" } ?? "") + ", \"expect\": {\(expect)}}").utf8)
    }

    static func failures(_ expect: String) throws -> [CaseFailure] {
        try CaseChecker.run(caseBytes: caseBytes(expect)).failures
    }

    /// Each key: an expectation the run meets, and one it does not with the diff line.
    static let keys: [(pass: String, fail: String, text: String)] = [
        (#""firstResponder": "buyButton""#, #""firstResponder": "card""#, "firstResponder: expected card, got buyButton"),
        (#""firstResponder": "buyButton""#, #""firstResponder": null"#, "firstResponder: expected null, got buyButton"),
        (#""responderChain": ["buyButton", "card", "scroll", "checkoutRoot", "checkoutVC", "W", "UIApplication", "AppDelegate"]"#,
         #""responderChain": ["buyButton", "checkoutVC"]"#,
         "responderChain: expected [buyButton, checkoutVC], got [buyButton, card, scroll, checkoutRoot, checkoutVC, W, UIApplication, AppDelegate]"),
        (#""calls": ["buyButton touchesBegan:withEvent:", "checkoutVC buyTapped:"]"#,
         #""calls": ["checkoutVC buyTapped:", "buyButton touchesBegan:withEvent:"]"#,
         #"calls: expected "buyButton touchesBegan:withEvent:" after "checkoutVC buyTapped:", in order; not found (it occurs, but not in this order) among the trace's 32 calls"#),
        (#""calls": ["W hitTest:withEvent:"]"#, #""calls": ["card touchesBegan:withEvent:"]"#,
         #"calls: expected "card touchesBegan:withEvent:" at all, in order; not found among the trace's 32 calls"#),
        (#""callsPrefix": ["W hitTest:withEvent:", "W pointInside:withEvent:"]"#, #""callsPrefix": ["W pointInside:withEvent:"]"#,
         #"callsPrefix: expected the trace to start with ["W pointInside:withEvent:"], got ["W hitTest:withEvent:"]"#),
        (#""notCalls": ["card touchesBegan:withEvent:"]"#, #""notCalls": ["card touchesBegan:withEvent:", "checkoutVC buyTapped:"]"#,
         #"notCalls: expected none of ["card touchesBegan:withEvent:", "checkoutVC buyTapped:"], got "checkoutVC buyTapped:" called 1×"#),
        (#""callCounts": {"checkoutVC buyTapped:": 1, "checkoutVC cardTapped:": 0}"#, #""callCounts": {"checkoutVC buyTapped:": 2}"#,
         #"callCounts["checkoutVC buyTapped:"]: expected 2 calls, got 1"#),
        (#""callTimes": {"checkoutVC buyTapped:": 0.0800001}"#, #""callTimes": {"checkoutVC buyTapped:": 0.1}"#,
         #"callTimes["checkoutVC buyTapped:"]: expected the first call at t=0.1, got t=0.08"#),
        (#""callTimes": {"checkoutVC buyTapped:": 0.08}"#, #""callTimes": {"checkoutVC cardTapped:": 0.08}"#,
         #"callTimes["checkoutVC cardTapped:"]: expected the first call at t=0.08, got no such call"#),
        (#""recognizers": {"cardTap": ["failed"], "scroll.pan": ["possible", "failed"]}"#, #""recognizers": {"cardTap": ["ended"]}"#,
         "recognizers.cardTap: expected [.ended] in order, got [.possible, .failed, .possible]"),
        (#""recognizers": {"cardTap": []}"#, #""recognizers": {"nope": ["failed"]}"#,
         "recognizers.nope: expected states [.failed] in order, got no recognizer nope in the result"),
        (#""actions": [{"action": "buyTapped:", "target": "checkoutVC", "sender": "buyButton", "t": 0.08, "events": ["touchUpInside", "primaryActionTriggered"]}]"#,
         #""actions": []"#, "actions: expected 0 entries, got 1 [buyTapped:]"),
        (#""actions": [{"via": "target"}]"#, #""actions": [{"action": "cardTapped:"}]"#,
         "actions[0].action: expected cardTapped:, got buyTapped:"),
        (#""actions": [{"via": "target"}]"#, #""actions": [{"t": 0.09}]"#, "actions[0].t: expected 0.09, got 0.08"),
        (#""actions": [{"via": "target"}]"#, #""actions": [{"nothing": 1}]"#, "actions[0].nothing: expected 1, got no \"nothing\""),
        (#""touches": {"T1": {"hitTestView": "buyButton", "finalPhase": "ended", "recognizers": ["cardTap", "scroll.delay", "scroll.pan"]}}"#,
         #""touches": {"T1": {"hitTestView": "card"}}"#, "touches.T1.hitTestView: expected card, got buyButton"),
        (#""touches": {"T1": {"cancelledBy": null}}"#, #""touches": {"T2": {"hitTestView": "card"}}"#,
         "touches.T2: expected {hitTestView: card}, got no touch T2 in the result"),
        (#""markers": ["collect", "withhold", "flush", "sequenceEnd"]"#, #""markers": ["flush", "collect"]"#,
         #"markers: expected "collect" after "flush", in order; not found (it occurs, but not in this order) among the trace's 11 markers"#),
    ]

    @Test(arguments: 0..<CaseCheckerTests.keys.count)
    func expectKey(_ i: Int) throws {
        let (pass, fail, text) = Self.keys[i]
        #expect(try Self.failures(pass).map(\.text) == [], "\(pass)")
        let failures = try Self.failures(fail)
        #expect(failures.map(\.text) == [text])
    }

    /// The keys of non-touch events against a touch-only run: failed, saying why, never passed silently.
    @Test(arguments: [#""keyResponder": {"initial": null, "final": null}"#, #""presses": {"P1": {"handledBy": "VC"}}"#,
                      #""motions": []"#, #""remoteControls": []"#, #""responderChanges": []"#])
    func nonTouchKeysFailWithoutNonTouchRecords(_ expect: String) throws {
        let failures = try Self.failures(expect)
        let key = String(expect.dropFirst().prefix { $0 != "\"" })
        #expect(failures.count == 1)
        #expect(failures.first?.key == key)
        #expect(failures.first?.text == "\(key): the result has no \"\(key)\": the run had no press, motion, remote-control or responder record")
    }

    // MARK: the keys of non-touch events (contract §2.1) on a result made by hand

    /// A result document as a run with presses, a shake, remote control and a responder record
    /// writes it (only what the checker reads).
    static let nonTouchResult = #"""
        {"format": "taptrace/result@1", "firstResponder": null, "responderChain": [], "touches": [], "recognizers": [],
         "actions": [{"t": 0, "action": "saveDocument:", "sender": "VC.keyCommands[0]", "target": "VC", "via": "keyCommand"}],
         "keyResponder": {"initial": "TF", "final": "V"},
         "presses": [{"id": "P1", "type": "keyboard", "key": "s", "responder": "TF", "source": "firstResponder",
                      "chain": ["TF", "R", "VC", "W", "UIApplication", "AppDelegate"], "delivered": [], "handledBy": null,
                      "keyCommand": "VC.keyCommands[0]", "textInput": null, "recognizers": [], "finalPhase": "ended"},
                     {"id": "P2", "type": "select", "responder": "V", "source": "firstResponder", "chain": ["V", "W"],
                      "delivered": ["V"], "handledBy": "V", "keyCommand": null, "textInput": null, "recognizers": ["tapC"],
                      "finalPhase": "cancelled"}],
         "motions": [{"t": 2.0, "phase": "began", "subtype": "shake", "responder": "VC", "source": "fallback", "chain": ["VC", "W"],
                      "delivered": ["VC"], "handledBy": "VC"},
                     {"t": 2.4, "phase": "ended", "subtype": "shake", "responder": "VC", "source": "fallback", "chain": ["VC", "W"],
                      "delivered": ["VC"], "handledBy": "VC"}],
         "remoteControls": [{"t": 3.0, "subtype": "togglePlayPause", "responder": "TF", "source": "firstResponder", "chain": ["TF"],
                             "delivered": ["TF"], "handledBy": null, "dropped": true}],
         "responderChanges": [{"t": 0.0, "call": "become", "receiver": "V", "result": false, "from": "TF", "to": "TF"},
                              {"t": 4.0, "call": "resign", "receiver": "TF", "result": true, "from": "TF", "to": "V"}],
         "trace": [{"seq": 1, "kind": "marker", "marker": "keyResponder"}, {"seq": 2, "kind": "marker", "marker": "keyboard"},
                   {"seq": 3, "kind": "marker", "marker": "keyCommand"}, {"seq": 4, "kind": "call", "receiver": {"id": "VC", "class": "VC"},
                    "selector": "saveDocument:", "t": 0}, {"seq": 5, "kind": "marker", "marker": "chainWalk"},
                   {"seq": 6, "kind": "marker", "marker": "firstResponder"}]}
        """#

    static func nonTouchFailures(_ expect: String) throws -> [String] {
        let tape = try JSONTape(parsing: Array("{\(expect)}".utf8))
        let members = tape.members(tape.root).map { (key: tape.string($0.key)!, value: JSONValue(tape: tape, node: $0.value)) }
        return CaseChecker.check(members, against: try JSONTape(parsing: Array(nonTouchResult.utf8))).map(\.text)
    }

    /// Each key of non-touch events: an expectation the result meets, and one it does not with the diff line.
    static let nonTouchKeys: [(pass: String, fail: String, text: String)] = [
        (#""keyResponder": {"initial": "TF", "final": "V"}"#, #""keyResponder": {"initial": "TF", "final": null}"#,
         "keyResponder.final: expected null, got V"),
        (#""keyResponder": {"final": "V"}"#, #""keyResponder": {"initial": null}"#, "keyResponder.initial: expected null, got TF"),
        (#""presses": {"P1": {"responder": "TF", "source": "firstResponder", "chain": ["TF", "R", "VC", "W", "UIApplication", "AppDelegate"], "delivered": [], "handledBy": null, "keyCommand": "VC.keyCommands[0]", "textInput": null, "finalPhase": "ended"}}"#,
         #""presses": {"P1": {"chain": ["TF", "R", "VC"]}}"#,
         "presses.P1.chain: expected [TF, R, VC], got [TF, R, VC, W, UIApplication, AppDelegate]"),
        (#""presses": {"P2": {"recognizers": ["tapC"], "delivered": ["V"], "handledBy": "V"}}"#, #""presses": {"P2": {"handledBy": null}}"#,
         "presses.P2.handledBy: expected null, got V"),
        (#""presses": {"P2": {"finalPhase": "cancelled"}}"#, #""presses": {"P3": {"handledBy": "V"}}"#,
         "presses.P3: expected {handledBy: V}, got no press P3 in the result"),
        (#""motions": [{"phase": "began", "subtype": "shake", "responder": "VC", "source": "fallback", "delivered": ["VC"], "handledBy": "VC"}, {"t": 2.4000001, "phase": "ended"}]"#,
         #""motions": [{"phase": "began"}]"#, "motions: expected 1 entry, got 2 [shake began, shake ended]"),
        (#""motions": [{"t": 2}, {"handledBy": "VC"}]"#, #""motions": [{"t": 2}, {"t": 2.5}]"#, "motions[1].t: expected 2.5, got 2.4"),
        (#""remoteControls": [{"subtype": "togglePlayPause", "delivered": ["TF"], "handledBy": null, "dropped": true}]"#,
         #""remoteControls": [{"subtype": "play"}]"#, "remoteControls[0].subtype: expected play, got togglePlayPause"),
        (#""remoteControls": [{"t": 3}]"#, #""remoteControls": []"#, "remoteControls: expected 0 entries, got 1 [togglePlayPause]"),
        (#""responderChanges": [{"t": 0.0, "call": "become", "receiver": "V", "result": false, "from": "TF", "to": "TF"}, {"result": true, "to": "V"}]"#,
         #""responderChanges": [{"result": true}, {"result": true}]"#, "responderChanges[0].result: expected true, got false"),
        (#""responderChanges": [{"call": "become"}, {"call": "resign"}]"#, #""responderChanges": [{"call": "become"}]"#,
         "responderChanges: expected 1 entry, got 2 [become V, resign TF]"),
        (#""responderChanges": [{"t": 0}, {"t": 4.0000005}]"#, #""responderChanges": [{"t": 0}, {"nothing": 1}]"#,
         "responderChanges[1].nothing: expected 1, got no \"nothing\""),
        (#""markers": ["keyResponder", "keyCommand", "firstResponder"]"#, #""markers": ["keyCommand", "keyboard"]"#,
         #"markers: expected "keyboard" after "keyCommand", in order; not found (it occurs, but not in this order) among the trace's 5 markers"#),
        (#""markers": ["chainWalk"]"#, #""markers": ["unhandled"]"#,
         #"markers: expected "unhandled" at all, in order; not found among the trace's 5 markers"#),
        (#""actions": [{"via": "keyCommand", "sender": "VC.keyCommands[0]", "target": "VC", "t": 0}]"#, #""actions": [{"via": "target"}]"#,
         "actions[0].via: expected target, got keyCommand"),
    ]

    @Test(arguments: 0..<CaseCheckerTests.nonTouchKeys.count)
    func nonTouchExpectKey(_ i: Int) throws {
        let (pass, fail, text) = Self.nonTouchKeys[i]
        #expect(try Self.nonTouchFailures(pass) == [], "\(pass)")
        #expect(try Self.nonTouchFailures(fail) == [text])
    }

    /// The marker names of `expect` are the trace's: a typo is an issue, with the closest name.
    @Test func unknownMarkersAreIssues() throws {
        let issues = Self.issues(try Self.caseBytes(#""markers": ["collect", "keyResponders", "arrivals"]"#))
        #expect(issues.count == 2, "\(issues)")
        #expect(issues.first?.hasPrefix("/expect/markers/1 unknown marker \"keyResponders\" (did you mean \"keyResponder\"?); known: collect, ") == true)
        #expect(issues.last?.hasPrefix("/expect/markers/2 unknown marker \"arrivals\" (did you mean \"arrival\"?)") == true)
        #expect(CaseDocument.markerNames.allSatisfy { MarkerKind(rawValue: $0) != nil })
        #expect(CaseDocument.markerNames.count == Set(CaseDocument.markerNames).count)
    }

    @Test func failureCarriesExpectedAndActualValues() throws {
        let f = try #require(try Self.failures(#""recognizers": {"cardTap": ["ended"]}, "firstResponder": "card""#).first)
        #expect(f.key == "recognizers.cardTap")
        #expect(f.expected == .array([.string("ended")]))
        #expect(f.actual == .array([.string("possible"), .string("failed"), .string("possible")]))
        // Failures come in the order of the expect keys.
        #expect(try Self.failures(#""firstResponder": "card", "actions": []"#).map(\.key) == ["firstResponder", "actions"])
    }

    @Test func exampleCasePasses() throws {
        let bytes = Array(try Data(contentsOf: Self.examples.appendingPathComponent("checkout.case.json")))
        let outcome = try CaseChecker.run(caseBytes: bytes, file: "examples/checkout.case.json")
        #expect(outcome.passed, "\(outcome.diff)")
        #expect(outcome.name.hasPrefix("Buy button"))
        #expect(outcome.file == "examples/checkout.case.json")
    }

    /// A tap that names its element, as in a dispatch request (issue 32, item 2).
    @Test func elementTargetsResolveAsInARequest() throws {
        let scene = try String(contentsOf: Self.examples.appendingPathComponent("checkout.scene.json"), encoding: .utf8)
        func bytes(_ view: String) -> [UInt8] {
            Array(#"{"scene": \#(scene), "touches": {"gestures": [{"tap": {"view": "\#(view)"}}]}, "expect": {"firstResponder": "buyButton", "recognizers": {"cardTap": ["failed"]}}}"#.utf8)
        }
        let outcome = try CaseChecker.run(caseBytes: bytes("buyButton"))
        #expect(outcome.passed, "\(outcome.diff)")
        let unknown = Self.issues(bytes("nope"))
        #expect(!unknown.isEmpty && unknown.allSatisfy { $0.hasPrefix("/touches/") }, "\(unknown)")
    }

    // MARK: reading case documents

    static func issues(_ bytes: [UInt8], cases: Bool = false) -> [String] {
        do throws(InputError) {
            if cases { _ = try CaseDocument.decodeCases(bytes) } else { _ = try CaseDocument.decode(bytes) }
            return []
        } catch {
            guard case .invalid(let failure) = error else { return ["syntax"] }
            return failure.issues.map { "\($0.pointer) \($0.message)" }
        }
    }

    @Test func invalidExpectationsAreIssuesWithPointers() throws {
        let issues = Self.issues(try Self.caseBytes(
            #""recognizers": {"cardTap": ["fail"]}, "callCounts": {"a b": -1}, "firstResponder": 3, "actions": [1], "presses": {"P1": []}, "keyResponder": {"first": "x"}, "bogus": 1"#))
        #expect(issues.contains { $0.hasPrefix("/expect/recognizers/cardTap/0 unknown recognizer state \"fail\" (did you mean \"failed\"?)") })
        #expect(issues.contains { $0.hasPrefix("/expect/callCounts/a b ") })
        #expect(issues.contains { $0.hasPrefix("/expect/firstResponder ") })
        #expect(issues.contains { $0 == "/expect/actions/0 must be an object, not a number" })
        #expect(issues.contains { $0 == "/expect/presses/P1 must be an object, not an array" })
        #expect(issues.contains { $0.hasPrefix("/expect/keyResponder/first unknown key") })
        #expect(issues.contains { $0.hasPrefix("/expect/bogus unknown key \"bogus\"") })
        #expect(issues.count == 7)
    }

    @Test func requiredMembersAndBatches() throws {
        #expect(Self.issues(Array(#"{"name": "x"}"#.utf8)) == ["/scene required: the scene document", "/touches required: the touches document",
                                                                 "/expect required: what the result must show"])
        #expect(Self.issues(Array(#"[]"#.utf8)) == [" must be an object, not an array"])
        #expect(Self.issues(Array(#"{"name": "x", "colour": 1}"#.utf8)).first?.hasPrefix("/colour unknown key") == true)
        let good = String(decoding: try Self.caseBytes(#""firstResponder": "buyButton""#), as: UTF8.self)
        let bad = String(decoding: try Self.caseBytes(#""firstResponder": 1"#), as: UTF8.self)
        let batch = Self.issues(Array(#"{"cases": [\#(good), \#(bad)]}"#.utf8), cases: true)
        #expect(batch.count == 1 && batch.first?.hasPrefix("/cases/1/expect/firstResponder must be a string") == true, "\(batch)")
        #expect(Self.issues(Array(#"{"cases": []}"#.utf8), cases: true) == ["/cases must hold at least one case"])
        #expect(Self.issues(Array(#"{"cases": [], "more": 1}"#.utf8), cases: true).count == 2)
        let two = try CaseDocument.decodeCases(Array(#"{"cases": [\#(good), \#(good)]}"#.utf8))
        #expect(two.count == 2)
        #expect(try CaseDocument.decodeCases(Array(good.utf8)).count == 1)
    }
}
