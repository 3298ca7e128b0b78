import Foundation
import SceneTestSupport
import TapTraceCore
import TapTraceFormats
@testable import TapTraceRuns
import TapTraceJSON
import Testing

/// Stored runs are decoded from the bytes `ResultEncoder` wrote; decoding must lose nothing.
struct ResultDecoderTests {
    /// The request part of every conformance case (scene, touches, knobs).
    static func conformanceRequests() throws -> [(String, [UInt8])] {
        try ConformanceCases.names.map { name in
            let data = try Data(contentsOf: ConformanceCases.folder.appendingPathComponent(name))
            let tape = try JSONTape(parsing: Array(data))
            var w = JSONWriter()
            w.beginObject()
            for (k, v) in tape.members(tape.root) {
                let key = tape.string(k)!
                guard ["scene", "touches", "knobs"].contains(key) else { continue }
                w.key(key); w.raw(Array(tape.rawBytes(v)))
            }
            w.endObject()
            return (name, w.bytes)
        }
    }

    @Test func everyConformanceResultRoundTrips() throws {
        let requests = try Self.conformanceRequests()
        #expect(requests.count >= 22)
        for (name, request) in requests {
            let result = try TapTrace.dispatch(json: request)
            let bytes = ResultEncoder.encode(result)
            let decoded = try ResultDecoder.decode(bytes)
            #expect(ResultEncoder.encode(decoded) == bytes, "\(name) does not round-trip")
            #expect(TextRenderer.render(decoded) == TextRenderer.render(result), "\(name): text differs")
            #expect(RunOutcome(decoded) == RunOutcome(result))
        }
    }

    @Test func emptyArrayArgumentsKeepTheirType() throws {
        // SC: a sequence end that resets nothing writes "reset": [] — decoded as objects.
        let result = try Scenes.run(Scenes.scene(Scenes.touchView + "}"), Scenes.tap(50, 150))
        let bytes = ResultEncoder.encode(result)
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"reset\":[]"))
        let decoded = try ResultDecoder.decode(bytes)
        let end = decoded.trace.first { $0.marker == .sequenceEnd }
        #expect(end?.args.first?.value == .objects([]))
    }

    @Test func rejectsWhatTheEncoderNeverWrites() {
        #expect(throws: ResultDecoder.Failure.self) { try ResultDecoder.decode(Array("[1]".utf8)) }
        #expect(throws: ResultDecoder.Failure.self) { try ResultDecoder.decode(Array("{\"format\":\"x\"}".utf8)) }
        let error = #expect(throws: ResultDecoder.Failure.self) {
            try ResultDecoder.decode(Array(#"{"format":"taptrace/result@1","bogus":1}"#.utf8))
        }
        #expect(error?.pointer == "/bogus")
        #expect(throws: ResultDecoder.Failure.self) { try ResultDecoder.decode(Array("{".utf8)) }
    }
}
