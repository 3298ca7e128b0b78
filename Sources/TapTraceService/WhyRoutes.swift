import TapTraceCore
import TapTraceFormats
import TapTraceHTTP

/// `POST /v1/why` (stateless: a dispatch request with the question beside it) and
/// `POST /v1/runs/{id}/why` (the question alone, about a stored run): the reasons for what the
/// run did, with rule ids and trace entry indices, and with `expect` the verified changes
/// (`Why`, TapTraceCore).
///
/// A stored run is answered by dispatching its stored request again on its stored scene
/// version: the engine is deterministic, so that is the stored run, and its trace is the one the
/// indices point into (`GET /v1/runs/{id}`). The what-if changes dispatch several times more;
/// both routes answer on the worker, whose work is bounded by the scene (issue 31: at most the
/// cost of 30 dispatches of the scene).
extension TapTraceService {
    func addWhyRoutes(to router: Router) {
        router.post("/v1/why", handler: handler { [self] request, _ in
            let body = try JSONBody.bytes(of: request)
            let parsed: (request: DecodedRequest, question: WhyQuestion?)
            do throws(InputError) { parsed = try InputDecoder.whyRequest(body, limits: limits) } catch {
                throw Problem(error)
            }
            let decoded = parsed.request
            let index = SceneIndex(validated: decoded.scene)
            let records = try Self.records(index, touches: decoded.touches, records: decoded.records, knobs: decoded.knobs)
            return try answer(parsed.question!, index, records,
                              until: decoded.touches.until, knobs: decoded.knobs, request: request)
        })

        router.post("/v1/runs/{id}/why", handler: handler { [self] request, parameters in
            let id = try Self.requireRunID(parameters["id"])
            let body = try JSONBody.bytes(of: request)
            let question: WhyQuestion
            do throws(InputError) { question = try InputDecoder.whyQuestion(body) } catch {
                throw Problem(error)
            }
            let run = try store.run(id: id)
            let stored: StoredRequest
            do throws(InputError) { stored = try StoredRequest(Array(run.request), limits: limits) } catch {
                if case .invalid(let failure) = error, let exceeded = failure.exceeded {
                    var problem = Problem(exceeded)
                    problem.detail = "The stored request of \(run.id) expands to " + exceeded.message + "."
                    throw problem
                }
                throw Problem.internalError("Stored request of \(run.id) no longer validates: \(error)")
            }
            let scene = try versionScene(sceneID: run.sceneID, version: run.sceneVersion, pointer: nil)
            let records = try Self.records(scene.index, touches: stored.touches, records: stored.records, knobs: stored.knobs)
            return try answer(question, scene.index, records, until: stored.touches.until, knobs: stored.knobs,
                              request: request)
        })
    }

    /// The answer's runs (the run itself and the what-if verifications) share one budget: a run
    /// whose trace passes the limit, or an answer past the time budget, refuses the question.
    private func answer(_ question: WhyQuestion, _ index: SceneIndex, _ records: [TouchRecord],
                        until: Double?, knobs: KnobOverrides, request: HTTPRequest) throws(Problem) -> HTTPResponse {
        let budget = budget(for: request)
        let answer: WhyAnswer
        do throws(ValidationIssue) {
            answer = try Why.answer(question, index: index, records: records, until: until, knobs: knobs, budget: budget)
        } catch {
            throw Problem.invalid(error.pointer, error.message)
        }
        try Self.finish(budget)
        return .jsonBytes(try bounded(answer.json()))
    }
}
