import Foundation
import TapTraceCore
import TapTraceFormats
import TapTraceHTTP
import TapTraceJSON
import TapTraceStore

/// `PATCH /v1/scenes/{id}`: a what-if edit without capturing the scene again. The body is a
/// JSON Patch (RFC 6902, `application/json-patch+json`) applied to the document of the latest
/// version; the patched document is validated as a PUT's body is and stored as the next
/// version, answered as PUT answers. A patch that fails, or that leaves an invalid scene,
/// stores nothing.
extension TapTraceService {
    /// How many times a PATCH without `If-Match` is applied when other versions keep being
    /// stored meanwhile: each attempt applies the patch to the version that is then the latest,
    /// so that no version written in between is silently overwritten.
    static let patchAttempts = 3

    func addScenePatchRoute(to router: Router) {
        router.patch("/v1/scenes/{id}", handler: handler { [self] request, parameters in
            let id = try Self.requireSceneID(parameters["id"])
            // As for PUT, the precondition is decided before the body.
            let expected = try ifMatchVersion(request, sceneID: id)
            let patch = try Self.jsonPatch(request)
            var attempt = 1
            while true {
                // The version `If-Match` named (and found to be the latest), or the latest.
                let base = try store.scene(id: id, version: expected)
                let document = try Self.apply(patch, to: base, limits: limits)
                let stored: StoredScene
                do {
                    // Stored only if `base` is still the latest, so that the new version is
                    // `base` with the patch applied, and nothing written meanwhile is lost.
                    stored = try store.addVersion(sceneID: id, name: document.scene.name, content: document.content,
                                                  expectedCurrentVersion: base.version.version)
                } catch {
                    guard case StoreError.conflict = error, expected == nil, attempt < Self.patchAttempts else { throw error }
                    attempt += 1
                    continue
                }
                return self.stored(stored, document, Representations.scene(stored, includeDocument: false))
            }
        })
    }

    /// The body as a JSON Patch: 415 for another media type, 400 for malformed JSON, 422 for
    /// JSON that is not a patch.
    static func jsonPatch(_ request: HTTPRequest) throws(Problem) -> JSONPatch {
        guard JSONBody.isJSONPatch(request.header("Content-Type")) else {
            let given = request.header("Content-Type").map { "\"\($0)\"" } ?? "no Content-Type"
            throw Problem.unsupportedMediaType("A scene is patched with a JSON Patch (RFC 6902) sent as Content-Type: application/json-patch+json (got \(given)).")
        }
        let tape: JSONTape
        do throws(InputError) { tape = try InputDecoder.parse(request.body) } catch { throw Problem(error) }
        do throws(JSONPatchError) { return try JSONPatch(tape: tape) } catch { throw Problem(error, version: nil) }
    }

    /// `patch` applied to a stored version's document, then read, validated and indexed as
    /// PUT reads its body (`InputDecoder.scene`, then `SceneDocument`), its views held to
    /// `limits.views`.
    static func apply(_ patch: JSONPatch, to base: StoredScene, limits: Limits = .unlimited) throws(Problem) -> SceneDocument {
        let version = base.version.version
        let stored: JSONTape
        do {
            stored = try JSONTape(parsing: Array(base.version.document))
        } catch {
            throw Problem.internalError("Stored scene \(base.scene.id) version \(version) is not JSON: \(error)")
        }
        let patched: [UInt8]
        do throws(JSONPatchError) { patched = try patch.apply(to: stored) } catch { throw Problem(error, version: version) }
        do throws(InputError) {
            return SceneDocument(try InputDecoder.scene(patched, limits: limits))
        } catch {
            guard case .invalid(let failure) = error else {
                // The patched document was written by `JSONWriter`: it is JSON.
                throw Problem.internalError("The patched scene is not JSON: \(error)")
            }
            var problem = Problem(failure)
            if let exceeded = failure.exceeded {
                problem.detail = "The patched scene has " + exceeded.message + ". Nothing was stored."
                throw problem
            }
            let n = failure.issues.count + failure.omitted
            problem.detail = "The patched scene is invalid: \(n) problem\(n == 1 ? "" : "s") found. Each pointer refers to the patched document (version \(version) with the patch applied), not to the patch. Nothing was stored."
            throw problem
        }
    }
}

extension Problem {
    /// A JSON Patch that cannot be applied: 422 naming the failing operation and its pointer
    /// (`operation`, `pointer`), and the version it was applied to, if it got that far.
    init(_ error: JSONPatchError, version: Int?) {
        let detail: String
        if let operation = error.operation {
            let against = version.map { " against version \($0)" } ?? ""
            detail = "Operation \(operation) of the patch failed\(against), so no operation was applied and nothing was stored. \(error.message)"
        } else {
            detail = "\(error.message) Nothing was stored."
        }
        self.init(kind: .jsonPatch, title: "JSON Patch not applied", detail: detail)
        operation = error.operation
        pointer = error.pointer
    }
}
