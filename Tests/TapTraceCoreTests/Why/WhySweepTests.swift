import Foundation
import SceneTestSupport
@testable import TapTraceCore
import TapTraceJSON
import Testing

/// Every question about every object of every conformance case and example: an answer, and
/// reasons whose rules are rule ids and whose entries are in the trace, in order, the same
/// every time.
struct WhySweepTests {
    static var requests: [(String, [UInt8])] {
        var out: [(String, [UInt8])] = []
        for name in ConformanceCases.names {
            guard let bytes = try? Data(contentsOf: ConformanceCases.folder.appendingPathComponent(name)),
                  let tape = try? JSONTape(parsing: Array(bytes)) else { continue }
            out.append((name, ConformanceChecker.request(from: tape)))
        }
        let examples = ConformanceCases.folder.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples")
        for name in ["checkout.request.json", "overlay.request.json", "tabbar.request.json"] {
            if let bytes = try? Data(contentsOf: examples.appendingPathComponent(name)) { out.append((name, Array(bytes))) }
        }
        return out
    }

    @Test func everyQuestionOfEveryCase() throws {
        let requests = Self.requests
        #expect(requests.count >= 25)
        for (name, bytes) in requests {
            let r = try WhyRun(request: bytes)
            var subjects: [WhyQuestion.Subject] = [.firstResponder]
            subjects += r.index.recognizers.map { .recognizer($0.id) }
            subjects += r.index.scene.views.map { .view($0.id) }
            var actions = Set(r.result.actions.map(\.action))
            for v in r.index.scene.views { for t in v.targets ?? [] { actions.insert(t.action) } }
            for g in r.index.recognizers { for t in g.targets { actions.insert(t.action) } }
            subjects += actions.sorted().map { .action($0) }
            for s in subjects {
                let a = try r.ask(s)
                #expect(!a.answer.isEmpty, "\(name) \(s)")
                for reason in a.reasons {
                    #expect(reason.rule.range(of: #"^[A-Z]{1,2}[0-9]{1,2}$"#, options: .regularExpression) != nil, "\(name) \(s): rule \(reason.rule)")
                    #expect(reason.trace.allSatisfy { r.trace.indices.contains($0) }, "\(name) \(s): \(reason.trace)")
                    #expect(reason.trace == reason.trace.sorted(), "\(name) \(s)")
                    #expect(!reason.text.isEmpty)
                }
                #expect(try r.ask(s) == a, "\(name) \(s): not deterministic")
            }
        }
    }
}
