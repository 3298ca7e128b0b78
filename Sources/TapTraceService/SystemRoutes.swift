import TapTraceCore
import TapTraceHTTP
import TapTraceJSON
import TapTraceStore

/// `GET /health` and `GET /openapi.yaml`.
extension TapTraceService {
    func addSystemRoutes(to router: Router) {
        router.get("/health", handler: handler(.inline) { [store] _, _ in
            let health = store.health()
            if let failure = health.storage {
                // 503 with Retry-After, so that orchestration sees the failing storage (on a full
                // disk reads go on and writes fail) until a write succeeds again.
                var problem = Problem.storage(failure)
                problem.detail = "The database cannot store anything: \(failure)."
                throw problem
            }
            guard health.ok else {
                throw Problem.unavailable("The database is not usable: \(health.error ?? "unknown failure").")
            }
            var w = JSONWriter(reserving: 192)
            w.beginObject()
            w.key("status"); w.string("ok")
            w.key("version"); w.string(TapTraceService.version)
            w.key("database")
            w.beginObject()
            w.key("ok"); w.bool(health.ok)
            w.key("schemaVersion")
            if let version = health.schemaVersion { w.number(version) } else { w.null() }
            w.key("supportedSchemaVersion"); w.number(health.supportedSchemaVersion)
            w.key("journalMode"); w.string(health.journalMode)
            w.endObject()
            w.endObject()
            var response = HTTPResponse.jsonBytes(w.bytes)
            response.headers["Cache-Control"] = "no-store"
            return response
        })

        let document = Array(EmbeddedOpenAPI.files[0].text.utf8)
        router.get("/openapi.yaml") { _, _ in
            HTTPResponse(status: 200, headers: ["Content-Type": "application/yaml"], body: document)
        }
    }
}
