import TapTraceCore
import TapTraceFormats
import TapTraceJSON
import TapTraceRuns

/// `taptrace dispatch`, stateless `POST /v1/dispatch` and `POST /v1/why`: a request document
/// decoded and validated (`InputDecoder.request`), dispatched (element targets resolved), the
/// result written as JSON and as text, questions about the run answered (`Why.answer`), and the
/// result used as a stored run is (`StoredRun`). A refused request is written as its problem
/// document.
public enum RequestHarness {
    /// What one fuzzed request may cost, held by the library's own limits (issue 34, item 1):
    /// a fuzzer that may ask for a million drag steps only finds that again and again.
    static let limits = Limits(records: 1_000, traceEntries: 50_000, views: 2_000)
    /// Runs at most this many records and views get a what-if question (`WhatIf` dispatches
    /// again for every candidate change).
    static let whatIfRecords = 20, whatIfViews = 40

    public static func run(_ bytes: [UInt8]) -> Int32 {
        let request: DecodedRequest
        do throws(InputError) {
            request = try InputDecoder.request(bytes, limits: limits)
        } catch {
            Problems.check(error, input: bytes)
            return FuzzVerdict.ran
        }

        let index = SceneIndex(validated: request.scene)
        let result: DispatchResult
        do throws(ValidationFailure) {
            result = try TapTrace.dispatch(index, touches: request.touches, records: request.records,
                                           knobs: request.knobs, budget: WorkBudget(limits: limits))
        } catch {
            // Element targets that resolve to no hittable point: a 422 like any other.
            Check.isJSON(Problem(error).json(status: 422), "the problem document of an element target")
            return FuzzVerdict.ran
        }
        let json = ResultEncoder.encode(result)
        Check.isJSON(json, "the result document")
        Check.isJSON(ResultEncoder.encode(result, indent: 2), "the indented result document")
        _ = TextRenderer.render(result, names: .both, rules: true)

        // The same request gives the same bytes (the brief: deterministic output).
        if let again = try? TapTrace.dispatch(index, touches: request.touches, records: request.records,
                                              knobs: request.knobs, budget: WorkBudget(limits: limits)) {
            Check.that(ResultEncoder.encode(again) == json, "dispatching the same request twice gave different results")
        }

        // Why questions read the run's records; a request that names elements has others.
        if !request.touches.hasElementTargets { ask(index, request, result) }
        StoredRun.check(json)
        return FuzzVerdict.ran
    }

    /// Questions about the run: its first responder, the first recognizer and action it shows,
    /// and whether its first touch's view (or the first view) could be the hit-test view, with
    /// the changes that would make it so on small runs. Every answer is JSON and every trace
    /// entry a reason cites is one of the run's.
    static func ask(_ index: SceneIndex, _ request: DecodedRequest, _ result: DispatchResult) {
        let traceCount = result.trace.count
        var questions = [WhyQuestion(.firstResponder)]
        if let recognizer = result.recognizers.first { questions.append(WhyQuestion(.recognizer(recognizer.id))) }
        if let action = result.actions.first { questions.append(WhyQuestion(.action(action.action), expect: nil)) }
        if let view = result.touches.first?.hitTestView ?? index.scene.views.first?.id {
            let small = request.records.count <= whatIfRecords && index.viewCount <= whatIfViews
            questions.append(WhyQuestion(.view(view), expect: small ? .hit : nil))
        }
        for question in questions {
            let answer: WhyAnswer
            do throws(ValidationIssue) {
                answer = try Why.answer(question, index: index, records: request.records, until: request.touches.until,
                                        knobs: request.knobs, result: result, budget: WorkBudget(limits: limits))
            } catch {
                Check.that(false, "\(question.text) was refused about a run that shows it: \(error)")
                return
            }
            Check.isJSON(answer.json(), "the answer to \(question.text)")
            _ = answer.text()
            for reason in answer.reasons {
                Check.that(reason.trace.allSatisfy { $0 >= 0 && $0 < traceCount },
                           "a reason (\(reason.rule)) cites trace entries \(reason.trace) of a trace of \(traceCount)")
            }
        }
    }
}

/// Refusals: the problem document the service would answer is JSON, and a syntax error names a
/// place inside the input.
enum Problems {
    static func check(_ error: InputError, input: [UInt8]) {
        if case .syntax(let e) = error {
            Check.that(e.offset >= 0 && e.offset <= input.count, "a syntax error at byte \(e.offset) of \(input.count)")
            Check.isPosition(line: e.line, column: e.column, in: input, "a syntax error")
        }
        Check.isJSON(Problem(error).json(status: 400), "the problem document of \(error)")
    }
}
