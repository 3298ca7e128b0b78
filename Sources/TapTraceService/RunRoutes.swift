import Foundation
import TapTraceCore
import TapTraceFormats
import TapTraceHTTP
import TapTraceJSON
import TapTraceRuns
import TapTraceStore

/// History and stored runs: `GET /v1/scenes/{id}/runs`, `GET /v1/runs/{id}` (JSON, text,
/// Chrome trace) and `GET /v1/runs/{a}/compare/{b}`.
extension TapTraceService {
    func addRunRoutes(to router: Router) {
        router.get("/v1/scenes/{id}/runs", handler: handler(.light) { [self] request, parameters in
            let id = try Self.requireSceneID(parameters["id"])
            let query = QueryParameters(request)
            let page = try store.listRuns(sceneID: id, limit: try query.limit(), after: query.cursor(), label: query.values["label"])
            return .jsonBytes(Representations.runList(page, firstResponderClass: firstResponderClass))
        })

        router.get("/v1/runs/{id}", handler: handler { [self] request, parameters in
            let id = try Self.requireRunID(parameters["id"])
            let query = QueryParameters(request)
            let format = try query.choice("format", ["json", "text", "chrome"], default: "json")
            let names = try query.choice("names", TextRenderer.Names.allCases.map(\.rawValue), default: "objc")
            let run = try store.run(id: id)
            // Exports decode the stored result (`--max-read-bytes`, checked first) and answer
            // what they render; the JSON answer copies it (`--max-response-bytes`).
            switch format {
            case "text":
                let result = try readResult(run)
                var text = "run \(run.id) of scene \(run.sceneID) version \(run.sceneVersion) at \(run.createdAt)\n"
                text += TextRenderer.render(result, names: TextRenderer.Names(rawValue: names) ?? .objc)
                try checkResponse(size: text.utf8.count)
                return .text(text)
            case "chrome":
                let result = try readResult(run)
                let title = "TapTrace \(run.id) (scene \(run.sceneID) v\(run.sceneVersion))"
                return .jsonBytes(try bounded(ChromeTrace.encode(result, title: title)))
            default:
                try checkResponse(size: run.result.count + run.request.count)
                return .jsonBytes(Representations.run(run.summary, firstResponderClass: firstResponderClass(run.summary),
                                                      request: Array(run.request), result: Array(run.result)))
            }
        })

        router.get("/v1/runs/{a}/compare/{b}", handler: handler { [self] request, parameters in
            let a = try store.run(id: try Self.requireRunID(parameters["a"]))
            let b = try store.run(id: try Self.requireRunID(parameters["b"]))
            // Both results' sizes are checked before either is decoded.
            try checkReadable(a)
            try checkReadable(b)
            // Decoding is most of the work (the alignment is capped at 1,000 edits): past the
            // time budget once both are decoded, the comparison is not made.
            let budget = budget(for: request)
            let results = (try readResult(a), try readResult(b))
            try Self.check(budget)
            let comparison = RunComparison(results.0, results.1)
            var w = JSONWriter(reserving: 4096)
            w.beginObject()
            w.key("a"); Representations.writeRunReference(a.summary, to: &w)
            w.key("b"); Representations.writeRunReference(b.summary, to: &w)
            comparison.writeMembers(to: &w)
            w.endObject()
            return .jsonBytes(try bounded(w.bytes))
        })
    }

    /// A stored result as a `DispatchResult` (the stored bytes are the record; see ResultDecoder).
    /// The class of a run's first responder in the run's scene version (its index is cached):
    /// run lists store the id only.
    func firstResponderClass(_ run: RunSummary) -> String? {
        guard let id = run.firstResponder,
              let index = try? cachedScene(sceneID: run.sceneID, version: run.sceneVersion).index,
              let v = index.view(withId: id) else { return nil }
        return index.view(v).className
    }

    func decodeResult(_ run: RunRecord) throws -> DispatchResult {
        do throws(ResultDecoder.Failure) {
            return try ResultDecoder.decode(Array(run.result))
        } catch {
            throw Problem.internalError("Stored result of \(run.id) cannot be read: \(error)")
        }
    }
}
