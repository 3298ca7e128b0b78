import TapTraceCore
import TapTraceFormats
import TapTraceHTTP

/// `POST /v1/scenes/{id}/audit` and stateless `POST /v1/audit` (issue 32, item 6): can every
/// interactive element be tapped (`TappabilityAudit`, TapTraceCore)?
///
/// - `POST /v1/audit`: the body is a scene document, as `taptrace audit` reads it and
///   `POST /v1/scenes` stores it (no wrapper: knobs go in the scene's own `knobs`).
/// - `POST /v1/scenes/{id}/audit`: an empty body, or `{"version"?: N, "knobs"?: {…}}`; the
///   latest version by default. The answer starts with `sceneId` and `sceneVersion`.
///
/// Both answer 200 with the audit whatever it finds (its `unreachable` count is the verdict);
/// bad input is a problem document, as everywhere.
extension TapTraceService {
    func addAuditRoutes(to router: Router) {
        router.post("/v1/audit", handler: handler { [self] request, _ in
            let body = try JSONBody.bytes(of: request)
            let index: SceneIndex
            do throws(InputError) { index = try InputDecoder.sceneIndex(body, limits: limits) } catch { throw Problem(error) }
            return .jsonBytes(try bounded(TappabilityAudit.run(index).json()))
        })

        router.post("/v1/scenes/{id}/audit", handler: handler { [self] request, parameters in
            let id = try Self.requireSceneID(parameters["id"])
            let body = try AuditBody(request)
            let version = try resolveVersion(sceneID: id, requested: body.version)
            let index = try versionScene(sceneID: id, version: version, pointer: body.version == nil ? nil : "/version").index
            let audit = TappabilityAudit.run(index, knobs: body.knobs)
            return .jsonBytes(try bounded(Representations.prefixed(sceneID: id, version: version, object: audit.json())))
        })
    }
}

/// The keys of `POST /v1/scenes/{id}/audit`'s body.
enum AuditQueryKey: String, DocumentKey {
    case version, knobs
    static let names = NameTable<Self>()
}

/// `POST /v1/scenes/{id}/audit`: nothing, or `{"version"?: N, "knobs"?: {…}}`.
struct AuditBody {
    var version: Int?
    var knobs = KnobOverrides()

    init(_ request: HTTPRequest) throws(Problem) {
        // No body at all: the latest version with the scene's own knobs.
        if request.body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return }
        let tape = try JSONBody.tape(of: request)
        let reader = DocumentReader(tape: tape)
        var version: Int?, knobs = KnobOverrides()
        reader.object(tape.root, at: { "" }) { (key: AuditQueryKey, v) in
            let at = "/" + key.rawValue
            switch key {
            case .version: version = reader.integer(v, at: { at }, minimum: 1)
            case .knobs: knobs = reader.knobs(at: v, pointer: at)
            }
        }
        guard reader.issues.isEmpty else { throw Problem(.invalid(ValidationFailure(reader.issues))) }
        self.version = version
        self.knobs = knobs
    }
}
