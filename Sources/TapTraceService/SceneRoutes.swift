import Foundation
import TapTraceCore
import TapTraceFormats
import TapTraceHTTP
import TapTraceStore

/// Scenes and their versions: `POST/GET /v1/scenes`, `GET/PUT/DELETE /v1/scenes/{id}`,
/// `GET /v1/scenes/{id}/versions`.
extension TapTraceService {
    func addSceneRoutes(to router: Router) {
        router.post("/v1/scenes", handler: handler { [self] request, _ in
            let document = try SceneDocument(request, limits: limits)
            let stored = try store.createScene(name: document.scene.name, content: document.content)
            return self.stored(stored, document, Representations.scene(stored, includeDocument: false), status: 201)
        })

        router.get("/v1/scenes", handler: handler(.light) { [store] request, _ in
            let query = QueryParameters(request)
            let page = try store.listScenes(limit: try query.limit(), after: query.cursor())
            return .jsonBytes(Representations.sceneList(page))
        })

        router.get("/v1/scenes/{id}", handler: handler(.light) { [store] request, parameters in
            let id = try Self.requireSceneID(parameters["id"])
            let stored = try store.scene(id: id, version: try QueryParameters(request).version())
            let screenshot = try store.screenshotInfo(sceneID: id, version: stored.version.version)
            var response = HTTPResponse.jsonBytes(Representations.scene(stored, includeDocument: true, screenshot: screenshot))
            response.headers["ETag"] = Self.etag(stored.version.version)
            return response
        })

        router.put("/v1/scenes/{id}", handler: handler { [self] request, parameters in
            let id = try Self.requireSceneID(parameters["id"])
            // Decide the precondition before the body: a malformed If-Match is the client's
            // first mistake, and nothing is written either way.
            let expected = try ifMatchVersion(request, sceneID: id)
            let document = try SceneDocument(request, limits: limits)
            let stored = try store.addVersion(sceneID: id, name: document.scene.name, content: document.content,
                                              expectedCurrentVersion: expected)
            return self.stored(stored, document, Representations.scene(stored, includeDocument: false))
        })

        // Deleting removes every run of the scene in one transaction: seconds for hundreds of
        // thousands of runs (docs/performance.md). It runs off the worker thread (a deferred
        // response), so the worker's other connections are not held up meanwhile.
        router.delete("/v1/scenes/{id}", handler: handler(.light) { [self] request, parameters in
            let id = try Self.requireSceneID(parameters["id"])
            return answered(on: .global(), for: request) { [self] in
                try store.deleteScene(id: id)
                scenes.removeAll { $0.sceneID == id }
                latestVersions.remove(id)
                return .empty(status: 204)
            }
        })

        router.get("/v1/scenes/{id}/versions", handler: handler(.light) { [store] _, parameters in
            let id = try Self.requireSceneID(parameters["id"])
            let versions = try store.listVersions(sceneID: id)
            return .jsonBytes(Representations.versionList(versions, screenshots: try store.screenshotInfos(sceneID: id)))
        })
    }

    /// A version's entity tag: its number, quoted (`"3"`).
    static func etag(_ version: Int) -> String { "\"\(version)\"" }

    /// `If-Match` on PUT (optimistic concurrency): nil when absent or `*`; otherwise the listed
    /// version that is current (so the store re-checks it atomically), or 409 when none is.
    /// Weak tags never match (RFC 9110 §13.1.1 uses the strong comparison).
    /// A version just stored (by POST, PUT, PATCH or an import): its indexed document goes into
    /// the cache and the latest-version table, and the answer carries `body`, `Location` and
    /// the version's ETag.
    func stored(_ stored: StoredScene, _ document: SceneDocument, _ body: [UInt8], status: Int = 200) -> HTTPResponse {
        let id = stored.scene.id, version = stored.version.version
        scenes.put(StoredSceneKey(sceneID: id, version: version), document.index)
        latestVersions.set(id, version)
        var response = HTTPResponse.jsonBytes(body, status: status)
        response.headers["Location"] = "/v1/scenes/\(id)"
        response.headers["ETag"] = Self.etag(version)
        return response
    }

    func ifMatchVersion(_ request: HTTPRequest, sceneID: String) throws -> Int? {
        guard let field = request.header("If-Match")?.trimmingCharacters(in: .whitespaces) else { return nil }
        if field == "*" { return nil }
        var listed: [Int] = []
        for part in field.split(separator: ",") {
            let tag = part.trimmingCharacters(in: .whitespaces)
            if tag.hasPrefix("W/\"") { continue }
            guard tag.count >= 2, tag.hasPrefix("\""), tag.hasSuffix("\"") else {
                throw Problem.badRequest("If-Match must list entity tags such as \"3\" (quotes included), not \(field).")
            }
            if let version = Int(tag.dropFirst().dropLast()) { listed.append(version) }
        }
        let current = try store.latestVersion(sceneID: sceneID)
        guard listed.contains(current) else {
            throw Problem.conflict("Scene \(sceneID) is at version \(current); If-Match asked for \(field).")
        }
        return current
    }
}

/// A scene document from a request body, validated, indexed and in its canonical stored form.
struct SceneDocument {
    var scene: Scene
    var index: SceneIndex
    var content: SceneContent

    /// `limits.views` bounds the scene's views (checked before it is validated).
    init(_ request: HTTPRequest, limits: Limits = .unlimited) throws(Problem) {
        let bytes = try JSONBody.bytes(of: request)
        do throws(InputError) { self.init(try InputDecoder.scene(bytes, limits: limits)) } catch { throw Problem(error) }
    }

    /// A scene that is already validated (an imported one).
    init(_ scene: Scene) {
        self.scene = scene
        index = SceneIndex(validated: scene)
        // Stored canonically (SceneEncoder), so the content hash says whether the layout
        // changed, not whether the whitespace did.
        let canonical = SceneEncoder.encode(scene)
        content = SceneContent(document: Data(canonical), viewCount: scene.views.count,
                               windowCount: scene.windows.count,
                               recognizerCount: scene.views.reduce(0) { $0 + ($1.gestureRecognizers?.count ?? 0) })
    }
}
