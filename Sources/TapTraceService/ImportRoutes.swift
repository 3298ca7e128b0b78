import Foundation
import TapTraceCore
import TapTraceFormats
import TapTraceHTTP
import TapTraceImport
import TapTraceStore

/// `POST /v1/import` (the format recognised) and `POST /v1/import/{format}`: a dump of a running
/// app in, a scene document out, `{"format", "scene", "warnings"}`.
///
/// - `?store=true` stores it as a new scene (201, `Location`); `?name=` names it (and so stores
///   it, unless `store=false` asks for the named document alone);
/// - `?scene=ID` stores it as that scene's next version (200, as `PUT /v1/scenes/{id}`,
///   honouring `If-Match`), keeping the scene's name unless `?name=` renames it: a harness that
///   captures one screen on every build gets one scene with a version per build;
/// - `?ids=address` names views `Class-0xADDRESS` instead of from what a relaunch keeps.
/// A stored import answers with the stored scene's representation, the document, the format and
/// the warnings.
extension TapTraceService {
    func addImportRoutes(to router: Router) {
        router.post("/v1/import", handler: handler { [self] request, _ in
            try Self.requireDumpMediaType(request)
            let format: ImportFormat
            do throws(ImportError) { format = try ImportFormat.detect(request.body) } catch { throw error.problem }
            return try importDump(request, as: format)
        })
        router.post("/v1/import/{format}", handler: handler { [self] request, parameters in
            guard let format = parameters["format"].flatMap(ImportFormat.init(rawValue:)) else {
                throw Problem.notFound("No importer named \(parameters["format"] ?? ""); known: "
                                       + ImportFormat.allCases.map(\.rawValue).joined(separator: ", ")
                                       + ", or POST /v1/import to have the format recognised.")
            }
            try Self.requireDumpMediaType(request)
            return try importDump(request, as: format)
        })
    }

    private func importDump(_ request: HTTPRequest, as format: ImportFormat) throws -> HTTPResponse {
        let query = QueryParameters(request)
        let target = try query.values["scene"].map { id throws(Problem) in try Self.requireSceneID(id) }
        // Naming a scene or choosing one means storing; `store=false` keeps the answer alone.
        let storing = query.values["store"] == nil ? target != nil || query.values["name"] != nil : try query.flag("store")
        if target != nil, !storing { throw Problem.badRequest("scene= stores the import as that scene's next version; it cannot go with store=false.") }
        let ids = ImportOptions.Identity(rawValue: try query.choice("ids", ImportOptions.Identity.allCases.map(\.rawValue),
                                                                    default: ImportOptions.Identity.stable.rawValue))!
        var options = ImportOptions(ids: ids, name: try query.name())
        // The precondition and the target's name before the body: a malformed If-Match or an
        // unknown scene is the client's first mistake, and nothing is written either way.
        var expected: Int?
        if let target {
            expected = try ifMatchVersion(request, sceneID: target)
            if options.name == nil { options.name = try store.scene(id: target, version: nil).scene.name }
        }
        let result: ImportResult
        do throws(ImportError) { result = try format.parse(request.body, options) } catch { throw error.problem }
        // The importer's work is linear in the body, which the body limit bounds; the scene it
        // made is held to the views limit like an uploaded one before it is indexed or stored.
        do throws(LimitExceeded) { try limits.check(.views, result.scene.views.count) } catch {
            var problem = Problem(error)
            problem.detail = "The imported scene has " + error.message + "."
            throw problem
        }
        guard storing else { return .jsonBytes(try bounded(result.json())) }

        let document = SceneDocument(result.scene)
        let stored = try target.map { id in
            try store.addVersion(sceneID: id, name: document.scene.name, content: document.content,
                                 expectedCurrentVersion: expected)
        } ?? store.createScene(name: document.scene.name, content: document.content)
        return self.stored(stored, document,
                           Representations.scene(stored, includeDocument: true, warnings: result.warnings, format: format.rawValue),
                           status: target == nil ? 201 : 200)
    }

    /// Dumps are text or XML, and whatever media type they come with is read as UTF-8 bytes:
    /// `text/plain`, `application/xml`, `text/xml`, `application/octet-stream`, and the
    /// `application/x-www-form-urlencoded` that `curl --data-binary @dump.txt` sends unasked
    /// (or none). The importer decides what the bytes are. JSON and multipart bodies are 415:
    /// the dump is the body itself.
    static let dumpMediaTypes = ["text/plain", "application/xml", "text/xml", "application/octet-stream",
                                 "application/x-www-form-urlencoded"]

    static func requireDumpMediaType(_ request: HTTPRequest) throws(Problem) {
        guard let given = request.header("Content-Type") else { return }
        let type = given.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard dumpMediaTypes.contains(type) else {
            throw Problem.unsupportedMediaType("A dump is sent as the body itself, as one of "
                + dumpMediaTypes.joined(separator: ", ") + " (got \"\(given)\").")
        }
    }
}

extension QueryParameters {
    /// `name`: the imported scene's name; not empty, at most 200 characters.
    func name() throws(Problem) -> String? {
        guard let text = values["name"] else { return nil }
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty, text.count <= 200 else {
            throw Problem.badRequest("name must be 1 to 200 characters, not \"\(text.prefix(40))\".")
        }
        return text
    }
}
