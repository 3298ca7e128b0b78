import Foundation
import SceneTestSupport
@testable import TapTraceCore
import TapTraceFormats
import TapTraceJSON
import Testing

/// The same scene and touches give the same result, byte for byte (brief: "Deterministic").
struct DeterminismTests {
    @Test(arguments: ConformanceTests.caseNames)
    func sameBytesTwice(_ name: String) throws {
        let bytes = Array(try Data(contentsOf: ConformanceTests.folder.appendingPathComponent(name)))
        let request = ConformanceChecker.request(from: try JSONTape(parsing: bytes))
        let a = ResultEncoder.encode(try TapTrace.dispatch(json: request))
        let b = ResultEncoder.encode(try TapTrace.dispatch(json: request))
        #expect(a == b)
        // The output is valid JSON that names every knob.
        let tape = try JSONTape(parsing: a)
        let knobs = ConformanceChecker.member(tape, tape.root, "knobs")!
        // The non-touch knobs only in results of runs with non-touch records (contract §2.1).
        let nonTouch = ConformanceChecker.member(tape, tape.root, "keyResponder") != nil
        #expect(tape.count(knobs) == Knobs.names.count + (nonTouch ? Knobs.eventNames.count : 0))
    }

    /// `orderedValues` (what results list) is `value(of:)` for every name, in order, also
    /// for knobs changed from their defaults.
    @Test func orderedKnobValuesMatchTheNamedOnes() {
        var changed = Knobs()
        for (name, value) in [("tapMaxDuration", KnobValue.number(0.7)), ("includeWindowScene", .bool(true)),
                              ("hitTestPasses", .number(2)), ("drainLimit", .number(9))] {
            #expect(changed.set(name, value) == nil)
        }
        for knobs in [Knobs(), changed] {
            #expect(knobs.orderedValues == Knobs.names.map { knobs.value(of: $0)! })
        }
        #expect(changed.orderedValues != Knobs().orderedValues)
        #expect(Knobs().orderedValues.count == Knobs.names.count)
        #expect(Knobs().value(of: "noSuchKnob") == nil)
    }

    /// Each name reaches its own knob: changing one knob through `set` changes what
    /// `value(of:)` answers for that name and for no other.
    @Test func everyKnobNameReachesItsOwnKnob() {
        let defaults = Knobs()
        var reached = 0
        for name in Knobs.names {
            let new: KnobValue
            switch defaults.value(of: name)! {
            case .number(let n): new = .number(n == 0 ? 1 : n / 2)
            case .bool(let b): new = .bool(!b)
            case .string: continue
            }
            var knobs = defaults
            guard knobs.set(name, new) == nil else { continue }
            #expect(knobs.value(of: name) == new, "\(name)")
            for other in Knobs.names where other != name {
                #expect(knobs.value(of: other) == defaults.value(of: other), "\(name) changed \(other)")
            }
            reached += 1
        }
        #expect(reached >= 20)
    }

    /// The encoder writes what `trace` (built on demand) holds, entry by entry.
    @Test func encodedTraceMatchesEntries() throws {
        let r = try Scenes.run(ControlAndChainScenarioTests.sc03(control: #""class": "UIButton""#), Scenes.tap(100, 220))
        var w = JSONWriter()
        w.beginArray()
        for e in r.trace { ResultEncoder.writeEntry(e, to: &w) }
        w.endArray()
        var direct = JSONWriter()
        ResultEncoder.writeTrace(r.recorder, to: &direct)
        #expect(w.bytes == direct.bytes)
    }
}

/// Gesture shorthands expand into records (contract §2).
struct GestureShorthandTests {
    func records(_ gestures: String, events: String = "[]") throws -> [TouchRecord] {
        try InputDecoder.touches(Array(#"{"format": "taptrace/touches@1", "events": \#(events), "gestures": \#(gestures)}"#.utf8)).1
    }

    @Test func tapAndLongPress() throws {
        let r = try records(#"[{"tap": [10, 20], "t": 0}, {"longPress": [5, 5], "duration": 0.8, "t": 2}]"#)
        #expect(r.map(\.t) == [0, 0.1, 2, 2.8])
        #expect(r.map { $0.touches[0].id } == ["T1", "T1", "T2", "T2"])
        #expect(r.map { $0.touches[0].phase } == [.began, .ended, .began, .ended])
    }

    @Test func doubleTapUsesTwoTouches() throws {
        let r = try records(#"[{"doubleTap": [10, 20], "t": 1}]"#)
        #expect(zip(r.map(\.t), [1, 1.1, 1.2, 1.3]).allSatisfy { abs($0 - $1) < 1e-9 })
        #expect(Set(r.flatMap { $0.touches.map(\.id) }) == ["T1", "T2"])
    }

    @Test func dragMovesInSteps() throws {
        let r = try records(#"[{"drag": {"from": [0, 0], "to": [0, 100]}, "duration": 0.3, "steps": 3, "t": 0}]"#)
        #expect(r.count == 5)
        #expect(zip(r.map { $0.touches[0].at!.y }, [0, 100.0 / 3, 200.0 / 3, 100, 100]).allSatisfy { abs($0 - $1) < 1e-9 })
        #expect(r.last!.t == 0.3 && r.last!.touches[0].phase == .ended)
    }

    @Test func gesturesMergeWithEventsAndAvoidTheirIds() throws {
        let r = try records(#"[{"tap": [1, 1], "t": 0}]"#,
                            events: #"[{"t": 0, "touches": [{"id": "T1", "phase": "began", "at": [50, 50]}]}, {"t": 0.5, "touches": [{"id": "T1", "phase": "ended", "at": [50, 50]}]}]"#)
        #expect(r[0].touches.map(\.id) == ["T1", "T2"])      // same time: one record, one UIEvent
        #expect(r.count == 3)
    }

    @Test func expandedInputIsEchoed() throws {
        let res = try Scenes.run(Scenes.scene(), #"{"format": "taptrace/touches@1", "gestures": [{"tap": [10, 10], "t": 0}]}"#)
        let json = String(decoding: ResultEncoder.encode(res), as: UTF8.self)
        #expect(json.contains(#""input":{"format":"taptrace/touches@1","events":[{"t":0,"touches":[{"id":"T1","phase":"began","at":[10,10]}]},{"t":0.1,"touches":[{"id":"T1","phase":"ended","at":[10,10]}]}]}"#))
    }
}
