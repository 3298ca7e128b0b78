import SceneTestSupport
import TapTraceCore
@testable import TapTraceRuns
import TapTraceJSON
import Testing

struct ChromeTraceTests {
    struct Event {
        var name: String, ph: String, ts: Int, dur: Int, tid: Int, seq: Int?
    }

    static func events(_ bytes: [UInt8]) throws -> [Event] {
        let tape = try JSONTape(parsing: bytes)
        var list: Int?
        for (k, v) in tape.members(tape.root) where tape.string(k) == "traceEvents" { list = v }
        return tape.elements(try #require(list)).map { e in
            var event = Event(name: "", ph: "", ts: 0, dur: 0, tid: 0, seq: nil)
            for (k, v) in tape.members(e) {
                switch tape.string(k)! {
                case "name": event.name = tape.string(v)!
                case "ph": event.ph = tape.string(v)!
                case "ts": event.ts = Int(tape.number(v)!)
                case "dur": event.dur = Int(tape.number(v)!)
                case "tid": event.tid = Int(tape.number(v)!)
                case "args":
                    for (ak, av) in tape.members(v) where tape.string(ak) == "seq" { event.seq = Int(tape.number(av)!) }
                default: break
                }
            }
            return event
        }
    }

    @Test func callsNestAsSlicesOnTheMainThread() throws {
        let result = try RunComparisonTests.run(RunComparisonTests.card())
        let events = try Self.events(ChromeTrace.encode(result, title: "run"))
        let calls = events.filter { $0.ph == "X" && $0.tid == ChromeTrace.mainTid }
        #expect(calls.count == result.trace.filter { $0.kind == .call }.count)
        let bySeq = Dictionary(uniqueKeysWithValues: calls.map { ($0.seq!, $0) })
        // Every call lies inside its parent's slice; siblings never overlap (Perfetto drops
        // slices that do not nest).
        for e in result.trace where e.kind == .call {
            let me = try #require(bySeq[e.seq])
            #expect(me.dur >= 1)
            if let p = e.parent, let parent = bySeq[p] {
                #expect(parent.ts <= me.ts && me.ts + me.dur <= parent.ts + parent.dur, "\(e.seq) outside \(p)")
            }
        }
        let ordered = calls.sorted { $0.ts < $1.ts }
        #expect(zip(ordered, ordered.dropFirst()).allSatisfy { $0.ts < $1.ts })
        // Markers are instants.
        let markers = events.filter { $0.ph == "i" && $0.tid == ChromeTrace.mainTid }
        #expect(markers.count == result.trace.filter { $0.kind == .marker }.count)
    }

    @Test func touchesAndRecognizersGetTheirOwnTracks() throws {
        let result = try RunComparisonTests.run(RunComparisonTests.card())
        let events = try Self.events(ChromeTrace.encode(result, title: "run"))
        let names = events.filter { $0.ph == "M" && $0.name == "thread_name" }.map(\.tid)
        #expect(names.contains(ChromeTrace.firstTouchTid))
        #expect(names.contains(ChromeTrace.firstRecognizerTid))
        let touch = events.filter { $0.tid == ChromeTrace.firstTouchTid && $0.ph != "M" }
        #expect(touch.contains { $0.name == "touch T1" && $0.ph == "X" })
        #expect(touch.contains { $0.name == "T1 ended" && $0.ph == "i" })
        let tap = events.filter { $0.tid == ChromeTrace.firstRecognizerTid && $0.ph != "M" }
        // tapC: possible, failed (vetoed by the button), possible again after reset.
        #expect(tap.filter { $0.ph == "X" }.map(\.name) == ["possible", "failed", "possible"])
        #expect(tap.contains { $0.ph == "i" && $0.name == "possible → failed" })
    }

    @Test func timestampsKeepVirtualTimeButNeverRepeat() {
        var entries: [TraceEntry] = []
        for (i, t) in [0.0, 0.0, 0.0, 0.1, 0.1].enumerated() {
            entries.append(TraceEntry(seq: i + 1, t: t, cause: .input, kind: .marker, depth: 0, parent: nil))
        }
        #expect(ChromeTrace.timestamps(entries) == [0, 1, 2, 100_000, 100_001])
    }
}
