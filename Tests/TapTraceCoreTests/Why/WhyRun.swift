import Foundation
import SceneTestSupport
@testable import TapTraceCore
import TapTraceFormats
import Testing

/// A dispatch kept with what `Why.answer` needs (the index, the records, the knobs), and the
/// checks every why test makes: a reason with its rule and text, whose trace indices point at
/// the entries that show it.
struct WhyRun {
    let index: SceneIndex
    let records: [TouchRecord]
    let until: Double?
    let knobs: KnobOverrides
    let result: DispatchResult
    let trace: [TraceEntry]

    init(request bytes: [UInt8]) throws {
        let request = try InputDecoder.request(bytes)
        index = SceneIndex(validated: request.scene)
        records = request.records
        until = request.touches.until
        knobs = request.knobs
        result = TapTrace.dispatch(index, records: records, until: until, knobs: knobs)
        trace = result.trace
    }

    init(_ scene: String, _ touches: String, knobs: String = "") throws {
        try self.init(request: Array(Scenes.request(scene, touches, knobs: knobs).utf8))
    }

    /// examples/checkout.request.json: a tap at (100, 332) on buyButton inside card (cardTap).
    static func checkout() throws -> WhyRun {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples/checkout.request.json")
        return try WhyRun(request: Array(try Data(contentsOf: url)))
    }

    func ask(_ subject: WhyQuestion.Subject) throws -> WhyAnswer {
        try Why.answer(WhyQuestion(subject), index: index, records: records, until: until, knobs: knobs, result: result)
    }

    /// The first reason with this rule whose text contains `fragment`.
    func reason(_ answer: WhyAnswer, _ rule: String, _ fragment: String = "",
                sourceLocation: SourceLocation = #_sourceLocation) -> WhyAnswer.Reason? {
        let r = answer.reasons.first { $0.rule == rule && (fragment.isEmpty || $0.text.contains(fragment)) }
        #expect(r != nil, "no [\(rule)] reason containing \"\(fragment)\" in:\n\(answer.text())", sourceLocation: sourceLocation)
        if let r {
            #expect(r.trace.allSatisfy { trace.indices.contains($0) }, "trace index out of range", sourceLocation: sourceLocation)
        }
        return r
    }

    /// Whether one of the reason's entries satisfies `match`.
    func shows(_ r: WhyAnswer.Reason?, _ match: (TraceEntry) -> Bool) -> Bool {
        guard let r else { return false }
        return r.trace.contains { trace.indices.contains($0) && match(trace[$0]) }
    }

    // Entry predicates.
    static func call(_ receiver: String, _ selector: String) -> (TraceEntry) -> Bool {
        { $0.kind == .call && $0.receiver?.id == receiver && $0.selector == selector }
    }
    static func state(_ receiver: String, to: RecognizerState, reason: String? = nil) -> (TraceEntry) -> Bool {
        { $0.kind == .state && $0.receiver?.id == receiver && $0.to == to && (reason == nil || $0.reason == reason) }
    }
    static func marker(_ kind: MarkerKind, _ receiver: String? = nil) -> (TraceEntry) -> Bool {
        { $0.marker == kind && (receiver == nil || $0.receiver?.id == receiver) }
    }
}
