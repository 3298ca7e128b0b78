import Foundation
import TapTraceCore
import TapTraceFormats
import TapTraceHTTP
import TapTraceRuns
import TapTraceStore

/// Running the engine: stateless `POST /v1/dispatch`, stored `POST /v1/scenes/{id}/dispatch`,
/// and the point questions `…/hit-test` and `…/explain`.
extension TapTraceService {
    func addDispatchRoutes(to router: Router) {
        router.post("/v1/dispatch", handler: handler { [self] request, _ in
            let body = try StatelessDispatchBody(try JSONBody.bytes(of: request), cache: statelessScenes, limits: limits)
            let result = try Self.dispatch(body.scene.index, touches: body.touches, records: body.records, knobs: body.knobs,
                                           budget: budget(for: request))
            return .jsonBytes(try bounded(ResultEncoder.encode(result, refs: body.scene.refs)))
        })

        router.post("/v1/scenes/{id}/dispatch", handler: handler { [self] request, parameters in
            let id = try Self.requireSceneID(parameters["id"])
            let body = try StoredDispatchBody(try JSONBody.tape(of: request), limits: limits)
            // The engine runs here, on the request's thread; the run is written by the
            // RunWriter with others, and the response goes out once it is committed. The
            // writer is told a run is coming (it may wait for it to join a batch).
            let announcement = runWriter.announce()
            let prepared = try prepareStoredRun(sceneID: id, body: body, version: body.version, budget: budget(for: request))
            return .deferred { [self] complete in
                record(prepared, sceneID: id, body: body, request: request, attempt: 0,
                       announcement: announcement, complete: complete)
            }
        })

        router.post("/v1/scenes/{id}/hit-test", handler: handler { [self] request, parameters in
            let id = try Self.requireSceneID(parameters["id"])
            let body = try PointQueryBody(try JSONBody.tape(of: request), requiresTarget: false)
            let version = try resolveVersion(sceneID: id, requested: body.version)
            let index = try versionScene(sceneID: id, version: version, pointer: body.version == nil ? nil : "/version").index
            let report = HitTestReport.run(index, point: body.point, knobs: body.knobs)
            return .jsonBytes(try bounded(Representations.prefixed(sceneID: id, version: version, object: report.json())))
        })

        router.post("/v1/scenes/{id}/explain", handler: handler { [self] request, parameters in
            let id = try Self.requireSceneID(parameters["id"])
            let body = try PointQueryBody(try JSONBody.tape(of: request), requiresTarget: true)
            let version = try resolveVersion(sceneID: id, requested: body.version)
            let index = try versionScene(sceneID: id, version: version, pointer: body.version == nil ? nil : "/version").index
            let explanation: Explanation
            do throws(ValidationIssue) {
                explanation = try Explainer.explain(index, point: body.point, target: body.target ?? "", knobs: body.knobs)
            } catch {
                throw Problem(.invalid(ValidationFailure(issues: [error])))
            }
            return .jsonBytes(try bounded(Representations.prefixed(sceneID: id, version: version, object: explanation.json())))
        })
    }

    /// A stored dispatch computed and ready to be written.
    struct PreparedRun: Sendable {
        var resultBytes: [UInt8]
        var run: NewRun
        /// The first responder's class, for the answer's `firstResponder` object.
        var firstResponderClass: String?
    }

    /// Runs the touches against `version`, or against "the latest version" as last seen
    /// (LatestVersions), which the store confirms when it writes the run. The result is held
    /// to the answer limit before it is stored: a result too large to answer is not kept.
    func prepareStoredRun(sceneID id: String, body: StoredDispatchBody, version requested: Int?,
                          budget: WorkBudget) throws -> PreparedRun {
        assert(!runWriter.isWriterThread, "the engine ran on the run writer's thread, holding up every commit")
        let version: Int
        if let requested {
            version = requested
        } else if let known = latestVersions.get(id) {
            version = known
        } else {
            version = try store.latestVersion(sceneID: id)
            latestVersions.set(id, version)
        }
        let scene = try versionScene(sceneID: id, version: version, pointer: body.version == nil ? nil : "/version")
        let result = try Self.dispatch(scene.index, touches: body.touches, records: body.records, knobs: body.knobs,
                                       budget: budget)
        let resultBytes = ResultEncoder.encode(result, refs: scene.refs)
        // The answer is the result and the request (and a summary of a few hundred bytes).
        try checkResponse(size: resultBytes.count + body.storedRequest.count)
        return PreparedRun(resultBytes: resultBytes,
                           run: RunColumns.newRun(sceneID: id, version: version, request: body.storedRequest,
                                                  result: result, resultBytes: resultBytes, label: body.label),
                           firstResponderClass: result.firstResponder?.className)
    }

    /// Hands the run to the RunWriter and answers with its outcome. A newer version written
    /// meanwhile (409 from the store's check) makes the dispatch run again against it, on
    /// another thread: the outcome arrives on the writer's thread, and running the engine there
    /// (with, for a new version, decoding and indexing its scene) would stall every commit.
    func record(_ prepared: PreparedRun, sceneID id: String, body: StoredDispatchBody, request: HTTPRequest,
                attempt: Int, announcement: RunWriter.Announcement? = nil,
                complete: @escaping @Sendable (HTTPResponse) -> Void) {
        runWriter.submit(prepared.run, requireLatest: body.version == nil, announcement: announcement) { [self] outcome in
            switch outcome {
            case .success(let run):
                // This is the writer's thread: the 20 KB body is put together on the
                // connection's thread instead (a tenth of the writer's time, perf).
                let summary = run.summary
                complete(.building(status: 201, headers: ["Content-Type": "application/json", "Location": "/v1/runs/\(run.id)"]) {
                    Representations.run(summary, firstResponderClass: prepared.firstResponderClass,
                                        request: Array(prepared.run.request), result: prepared.resultBytes)
                })
            case .failure(.conflict(_, _, let actual)) where attempt < 3:
                latestVersions.set(id, actual)
                DispatchQueue.global().async { [self] in
                    do {
                        // The same request: a budget of its own, as a client's retry would get.
                        let again = try prepareStoredRun(sceneID: id, body: body, version: actual, budget: budget(for: request))
                        record(again, sceneID: id, body: body, request: request, attempt: attempt + 1, complete: complete)
                    } catch {
                        complete(errorResponse(error, for: request))
                    }
                }
            case .failure(let error):
                if case .sceneNotFound(let missing) = error { latestVersions.remove(missing) }
                complete(errorResponse(error, for: request))
            }
        }
    }

    /// The index of a version named in a body: a missing version is a 422 at `pointer` (the
    /// scene exists, the field is wrong); a missing scene stays 404.
    func versionScene(sceneID: String, version: Int, pointer: String?) throws -> CachedScene {
        do {
            return try cachedScene(sceneID: sceneID, version: version)
        } catch StoreError.versionNotFound(_, let missing) where pointer != nil {
            let latest = try store.latestVersion(sceneID: sceneID)
            throw Problem.invalid(pointer!, "scene \(sceneID) has no version \(missing); its versions are 1 to \(latest)")
        }
    }
}

/// The summary columns stored with a run, computed from its result.
enum RunColumns {
    static func newRun(sceneID: String, version: Int, request: [UInt8], result: DispatchResult,
                       resultBytes: [UInt8], label: String?) -> NewRun {
        NewRun(sceneID: sceneID, sceneVersion: version, request: Data(request), result: Data(resultBytes),
               firstResponder: result.firstResponder?.id,
               actions: String(decoding: RunOutcome.actionsJSON(of: result), as: UTF8.self),
               outcome: RunOutcome.digest(of: result), actionCount: result.actions.count, label: label)
    }
}
