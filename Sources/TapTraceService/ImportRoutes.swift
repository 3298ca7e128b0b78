import Foundation
import TapTraceCore
import TapTraceFormats
import TapTraceHTTP
import TapTraceImport
import TapTraceStore

/// `POST /v1/import/recursive-description` (text/plain) and `POST /v1/import/appium` (XML):
/// a dump of a running app in, a scene document out (issue 5). With `?store=true` the scene is
/// also stored as a new scene, and the answer is the stored scene's representation with the
/// document and the warnings (201 and `Location`).
extension TapTraceService {
    func addImportRoutes(to router: Router) {
        router.post("/v1/import/{format}", handler: handler { [self] request, parameters in
            guard let format = parameters["format"].flatMap(ImportFormat.init(rawValue:)) else {
                throw Problem.notFound("No importer named \(parameters["format"] ?? ""); known: "
                                       + ImportFormat.allCases.map(\.rawValue).joined(separator: ", ") + ".")
            }
            try Self.requireImportMediaType(request, format)
            let storing = try QueryParameters(request).flag("store")
            let result: ImportResult
            do throws(ImportError) { result = try format.parse(request.body) } catch { throw error.problem }
            guard storing else {
                return .jsonBytes(result.json())
            }
            let document = SceneDocument(result.scene)
            let stored = try store.createScene(name: document.scene.name, content: document.content)
            scenes.put(StoredSceneKey(sceneID: stored.scene.id, version: 1), document.index)
            latestVersions.set(stored.scene.id, 1)
            var response = HTTPResponse.jsonBytes(
                Representations.scene(stored, includeDocument: true, warnings: result.warnings), status: 201)
            response.headers["Location"] = "/v1/scenes/\(stored.scene.id)"
            response.headers["ETag"] = Self.etag(stored.version.version)
            return response
        })
    }

    /// recursiveDescription is text (`text/plain`, UTF-8); page source is XML (`application/xml`
    /// or `text/xml`). Anything else is 415, as for JSON bodies.
    static func requireImportMediaType(_ request: HTTPRequest, _ format: ImportFormat) throws(Problem) {
        let given = request.header("Content-Type")
        let type = given?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let accepted: [String] = format == .appium ? ["application/xml", "text/xml"] : ["text/plain"]
        guard let type, accepted.contains(type) else {
            throw Problem.unsupportedMediaType("The body of \(format.rawValue) must be sent as "
                + accepted.joined(separator: " or ") + " (got \(given.map { "\"\($0)\"" } ?? "no Content-Type")).")
        }
    }
}
