import Foundation
import SceneTestSupport
import TapTraceCore
import TapTraceFormats
import TapTraceRuns
import Testing

/// A why answer about a stored run (its result written by `ResultEncoder` and read back by
/// `ResultDecoder`) is the answer about the run itself: the reasons read only what the result
/// document keeps.
struct WhyStoredRunTests {
    @Test func storedRunsAnswerLikeFreshOnes() throws {
        for (name, request) in try ResultDecoderTests.conformanceRequests() {
            let decodedRequest = try InputDecoder.request(request)
            let index = SceneIndex(validated: decodedRequest.scene)
            let fresh = TapTrace.dispatch(index, records: decodedRequest.records, until: decodedRequest.touches.until,
                                          knobs: decodedRequest.knobs)
            let stored = try ResultDecoder.decode(ResultEncoder.encode(fresh))
            var subjects: [WhyQuestion.Subject] = [.firstResponder]
            subjects += index.recognizers.map { .recognizer($0.id) }
            subjects += index.scene.views.map { .view($0.id) }
            subjects += Set(fresh.actions.map(\.action)).sorted().map { .action($0) }
            for s in subjects {
                let q = WhyQuestion(s)
                let a = try Why.answer(q, index: index, records: decodedRequest.records, knobs: decodedRequest.knobs, result: fresh)
                let b = try Why.answer(q, index: index, records: decodedRequest.records, knobs: decodedRequest.knobs, result: stored)
                #expect(a == b, "\(name) \(s)")
            }
        }
    }
}
