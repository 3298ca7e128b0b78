import Foundation
import TapTraceCore
import TapTraceFormats
import TapTraceHTTP
import TapTraceJSON
import TapTraceRuns
import TapTraceStore

/// `POST /v1/scenes/{id}/replay` `{"from": N, "to": M}`: every stored run of version N is run
/// again, with the same touches and knobs, against version M; the new runs are stored against M
/// (all in one transaction), and each is reported with whether its outcome changed and how.
///
/// "Changed" compares outcome digests (first responder, chain, touches, recognizer states,
/// actions; not the trace), and the differences list names each field that moved.
///
/// The replay is computed on `replayQueue`, not on the worker thread that read the request: a
/// worker serves its connections in turn, and a replay of thousands of runs would hold all of
/// them up. Replays run one at a time (the queue is serial), which also bounds the memory they
/// take: a page of originals and the new runs of one replay at most, and a version with more
/// than `replayLimit` runs is refused (422 at `/from`) before any of them is read.
///
/// A replay is one request: its runs share one time budget, counted from when the request
/// arrived (a replay that waited its budget away behind others answers 503 at once, instead of
/// starting work its client may no longer wait for), checked between two runs and inside each. Each original's
/// result is held to `--max-read-bytes` before it is decoded, its request to `--max-records`,
/// each new result to `--max-response-bytes` before it is stored: one run over a limit refuses
/// the replay, and nothing of it is stored.
extension TapTraceService {
    /// Originals read per page.
    static let replayPageSize = 256

    func addReplayRoute(to router: Router) {
        router.post("/v1/scenes/{id}/replay", handler: handler { [self] request, parameters in
            let id = try Self.requireSceneID(parameters["id"])
            let body = try ReplayBody(try JSONBody.tape(of: request))
            let budget = budget(for: request)
            return answered(on: replayQueue, for: request) { [self] in
                defer { MemoryRelease.afterLargeRequest() }
                return try replay(sceneID: id, body, budget: budget)
            }
        })
    }

    /// Runs the stored runs of `body.from` against `body.to`, stores them and reports.
    private func replay(sceneID id: String, _ body: ReplayBody, budget: WorkBudget) throws -> HTTPResponse {
        let extent: VersionRunExtent
        do {
            extent = try store.runExtent(sceneID: id, version: body.from)
        } catch StoreError.versionNotFound {
            throw Problem.invalid("/from", "scene \(id) has no version \(body.from)")
        }
        guard extent.count <= replayLimit else {
            throw Problem.invalid("/from", "version \(body.from) of scene \(id) has \(extent.count) stored runs; "
                + "a replay re-runs at most \(replayLimit) (the new runs are held in memory and stored in one transaction)")
        }
        let target = try versionScene(sceneID: id, version: body.to, pointer: "/to")
        // A replay dispatches many times against one scene: its refs are written once.
        let index = target.index, refs = target.refs ?? SceneRefsJSON(target.index)

        // The originals are read a page at a time and only what the report needs is kept of
        // them: holding every original's documents doubled a replay's memory (8,483 runs with
        // 20 KB results: 450 MB). Runs stored meanwhile (after `extent.lastSeq`) are not replayed.
        var pending: [(original: String, label: String?, before: RunOutcome, after: RunOutcome, differences: [OutcomeDifference])] = []
        var newRuns: [NewRun] = []
        pending.reserveCapacity(extent.count)
        newRuns.reserveCapacity(extent.count)
        var cursor: Int64 = 0
        while true {
            let page = try store.runs(sceneID: id, version: body.from, after: cursor, through: extent.lastSeq,
                                      limit: Self.replayPageSize)
            guard let last = page.last else { break }
            cursor = last.summary.seq
            for original in page {
                try Self.check(budget)
                let request = Array(original.request)
                let stored: StoredRequest
                do throws(InputError) {
                    stored = try StoredRequest(request, limits: limits)
                } catch {
                    if case .invalid(let failure) = error, let exceeded = failure.exceeded {
                        var problem = Problem(exceeded)
                        problem.detail = "The stored request of \(original.id) expands to " + exceeded.message + "."
                        throw problem
                    }
                    throw Problem.internalError("Stored request of \(original.id) no longer validates: \(error)")
                }
                try checkReadable(original)
                // Element targets are found again on the new version (422 if one is gone).
                let result = try Self.dispatch(index, touches: stored.touches, records: stored.records, knobs: stored.knobs,
                                               budget: budget)
                let resultBytes = ResultEncoder.encode(result, refs: refs)
                try checkResponse(size: resultBytes.count)
                let before = RunOutcome(try decodeResult(original))
                let after = RunOutcome(result)
                pending.append((original.id, original.label, before, after, before.differences(to: after)))
                // A replayed run keeps its original's label: the harness's test, on a new layout.
                newRuns.append(RunColumns.newRun(sceneID: id, version: body.to, request: request,
                                                 result: result, resultBytes: resultBytes, label: original.label))
            }
        }
        // The last check: past it the runs are stored and the replay answers.
        try Self.check(budget)
        let replayed = try store.insertRuns(newRuns).map(\.id)
        newRuns = []

        var w = JSONWriter(reserving: 256 + pending.count * 300)
        var changedCount = 0
        w.beginObject()
        w.key("sceneId"); w.string(id)
        w.key("from"); w.number(body.from)
        w.key("to"); w.number(body.to)
        w.key("runs")
        w.beginArray()
        for (item, run) in zip(pending, replayed) {
            let changed = item.before.digest != item.after.digest || !item.differences.isEmpty
            if changed { changedCount += 1 }
            w.beginObject()
            w.key("original"); w.string(item.original)
            if let label = item.label { w.key("label"); w.string(label) }
            w.key("replayed"); w.string(run)
            w.key("changed"); w.bool(changed)
            w.key("outcome")
            w.beginObject()
            w.key("before"); w.string(item.before.digest)
            w.key("after"); w.string(item.after.digest)
            w.endObject()
            w.key("differences")
            w.beginArray()
            for d in item.differences { d.write(to: &w) }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        w.key("count"); w.number(pending.count)
        w.key("changedCount"); w.number(changedCount)
        w.endObject()
        // Bounded by `--replay-limit` runs of a few hundred bytes each, well within the limit.
        return .jsonBytes(w.bytes)
    }
}
