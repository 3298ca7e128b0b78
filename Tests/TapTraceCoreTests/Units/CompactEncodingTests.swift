import Foundation
import SceneTestSupport
@testable import TapTraceCore
import TapTraceFormats
import TapTraceJSON
import TapTraceRuns
import Testing

/// The compact result (`indent: 0`) writes its trace with `TraceJSON`'s byte emitter, the
/// indented one with `JSONWriter`. Both must say the same thing byte for byte once the
/// indentation is taken out: every shortcut of the emitter (cached selectors, a view's ref
/// copied from where it was first written) is checked against the plain writer here.
struct CompactEncodingTests {
    /// `json` without the whitespace between tokens (strings kept as they are).
    static func minified(_ json: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(json.count)
        var inString = false, escaped = false
        for b in json {
            if inString {
                out.append(b)
                if escaped { escaped = false } else if b == 0x5C { escaped = true } else if b == 0x22 { inString = false }
            } else if b == 0x22 {
                inString = true
                out.append(b)
            } else if b != 0x20 && b != 0x0A && b != 0x09 && b != 0x0D {
                out.append(b)
            }
        }
        return out
    }

    static func requestBytes(_ caseName: String) throws -> [UInt8] {
        let bytes = Array(try Data(contentsOf: ConformanceTests.folder.appendingPathComponent(caseName)))
        return ConformanceChecker.request(from: try JSONTape(parsing: bytes))
    }

    @Test(arguments: ConformanceTests.caseNames)
    func compactEqualsIndentedWithoutWhitespace(_ caseName: String) throws {
        let result = try TapTrace.dispatch(json: try Self.requestBytes(caseName))
        let compact = ResultEncoder.encode(result)
        let indented = ResultEncoder.encode(result, indent: 2)
        #expect(compact.count > 0 && indented.count > compact.count)
        #expect(String(decoding: compact, as: UTF8.self) == String(decoding: Self.minified(indented), as: UTF8.self),
                "\(caseName): the compact trace differs from JSONWriter's")
    }

    /// A service keeps each scene's refs written once (`SceneRefsJSON`); a result written with
    /// them must be the result written without, and refs of another scene must be ignored.
    @Test(arguments: ConformanceTests.caseNames)
    func refsWrittenOnceGiveTheSameBytes(_ caseName: String) throws {
        let request = try InputDecoder.request(try Self.requestBytes(caseName))
        let index = SceneIndex(validated: request.scene)
        let result = TapTrace.dispatch(index, records: request.records, until: request.touches.until, knobs: request.knobs)
        let plain = ResultEncoder.encode(result)
        #expect(ResultEncoder.encode(result, refs: SceneRefsJSON(index)) == plain, "\(caseName)")
        let other = SceneIndex(validated: request.scene)
        #expect(ResultEncoder.encode(result, refs: SceneRefsJSON(other)) == plain, "\(caseName): refs of another index")
    }

    /// The same view named many times (receiver, hit-test result, touch argument), in a scene
    /// whose ids and classes need escaping: the copies must equal the first writing.
    @Test func repeatedViewsWithEscapedNames() throws {
        let request = #"""
        {"scene": {"format": "taptrace/scene@1", "windows": [{"id": "w\"1", "class": "UIWindow", "frame": [0, 0, 100, 100],
          "subviews": [{"id": "b\\é", "class": "My\"Button", "frame": [10, 10, 50, 50],
            "subviews": [{"id": "inner\u0001", "class": "UIView", "frame": [0, 0, 10, 10]}]}]}]},
         "touches": {"format": "taptrace/touches@1", "gestures": [{"tap": [20, 20], "t": 0}, {"tap": [15, 15], "t": 1}]}}
        """#
        let result = try TapTrace.dispatch(json: Array(request.utf8))
        let compact = String(decoding: ResultEncoder.encode(result), as: UTF8.self)
        #expect(compact == String(decoding: Self.minified(ResultEncoder.encode(result, indent: 2)), as: UTF8.self))
        let escapedRef = #"{"id":"b\\é","class":"My\"Button"}"#
        #expect(compact.components(separatedBy: escapedRef).count - 1 >= 6, "the button is named again and again")
        Self.expectOutcomeBytesMatchJSONWriter(result, "escaped names")
    }

    /// The outcome's canonical JSON (whose digest every stored run keeps) and the `actions`
    /// column are written with a byte emitter straight from the result; they must be the
    /// outcome's fields as `JSONWriter` writes them, byte for byte, in every conformance case.
    @Test(arguments: ConformanceTests.caseNames)
    func outcomeBytesEqualJSONWriters(_ caseName: String) throws {
        Self.expectOutcomeBytesMatchJSONWriter(try TapTrace.dispatch(json: try Self.requestBytes(caseName)), caseName)
    }

    /// No conformance case has an action that nobody handles: its target is written as null.
    @Test func outcomeOfAnUnhandledAction() throws {
        let result = try Scenes.run(Scenes.scene(#"{"id": "B", "class": "UIButton", "frame": [40, 200, 120, 44], "targets": [{"events": ["touchUpInside"], "target": null, "action": "nobodyHas:"}]}"#),
                                    Scenes.tap(100, 220))
        #expect(result.actions.map(\.target) == [nil])
        #expect(String(decoding: RunOutcome.actionsJSON(of: result), as: UTF8.self).contains(#""target":null"#))
        Self.expectOutcomeBytesMatchJSONWriter(result, "unhandled action")
    }

    static func expectOutcomeBytesMatchJSONWriter(_ result: DispatchResult, _ label: String) {
        let outcome = RunOutcome(result)
        var w = JSONWriter(reserving: 512)
        w.beginObject()
        w.key("firstResponder")
        if let ref = outcome.firstResponder {
            w.beginObject(); w.key("id"); w.string(ref.id); w.key("class"); w.string(ref.className); w.endObject()
        } else {
            w.null()
        }
        w.key("responderChain"); w.strings(outcome.responderChain)
        w.key("touches")
        w.beginArray()
        for t in outcome.touches {
            w.beginObject()
            w.key("id"); w.string(t.id)
            w.key("hitTestView"); w.string(t.hitTestView)
            w.key("refused"); w.string(t.refused)
            w.key("finalPhase"); w.string(t.finalPhase)
            w.key("cancelledBy"); w.string(t.cancelledBy)
            w.endObject()
        }
        w.endArray()
        w.key("recognizers")
        w.beginArray()
        for g in outcome.recognizers {
            w.beginObject(); w.key("id"); w.string(g.id); w.key("states"); w.strings(g.states); w.endObject()
        }
        w.endArray()
        func writeActions(_ w: inout JSONWriter) {
            w.beginArray()
            for a in outcome.actions {
                w.beginObject()
                w.key("t"); w.number(a.t)
                w.key("action"); w.string(a.action)
                w.key("sender"); w.string(a.sender)
                w.key("target"); w.string(a.target)
                w.key("via"); w.string(a.via)
                w.endObject()
            }
            w.endArray()
        }
        w.key("actions"); writeActions(&w)
        if let n = outcome.nonTouch {
            w.key("nonTouch")
            w.beginObject()
            w.key("keyResponder"); w.string(n.keyResponder)
            w.key("presses")
            w.beginArray()
            for p in n.presses {
                w.beginObject()
                w.key("id"); w.string(p.id)
                w.key("responder"); w.string(p.responder)
                w.key("handledBy"); w.string(p.handledBy)
                w.key("keyCommand"); w.string(p.keyCommand)
                w.key("textInput"); w.string(p.textInput)
                w.key("finalPhase"); w.string(p.finalPhase)
                w.endObject()
            }
            w.endArray()
            for (key, list) in [("motions", n.motions), ("remoteControls", n.remoteControls)] {
                w.key(key)
                w.beginArray()
                for d in list {
                    w.beginObject()
                    w.key("name"); w.string(d.name)
                    w.key("responder"); w.string(d.responder)
                    w.key("handledBy"); w.string(d.handledBy)
                    w.endObject()
                }
                w.endArray()
            }
            w.key("responderChanges")
            w.beginArray()
            for c in n.responderChanges {
                w.beginObject()
                w.key("name"); w.string(c.name)
                w.key("result"); w.bool(c.result)
                w.key("to"); w.string(c.to)
                w.endObject()
            }
            w.endArray()
            w.endObject()
        }
        w.endObject()
        var actions = JSONWriter(reserving: 256)
        writeActions(&actions)
        let canonical = String(decoding: w.bytes, as: UTF8.self)
        #expect(String(decoding: outcome.canonicalJSON, as: UTF8.self) == canonical, "\(label): canonical outcome JSON")
        #expect(String(decoding: RunOutcome.actionsJSON(of: result), as: UTF8.self) == String(decoding: actions.bytes, as: UTF8.self),
                "\(label): actions column")
    }
}
