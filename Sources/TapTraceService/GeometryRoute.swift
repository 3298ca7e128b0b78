import TapTraceCore
import TapTraceFormats
import TapTraceHTTP

/// `GET /v1/scenes/{id}/geometry` (`?version=N`): every view's rectangle on screen as the engine
/// computes it (transforms, scroll offsets, frames solved from transformed bounding boxes),
/// with what takes it out of play. The trace viewer draws the scene from this answer instead
/// of re-implementing UIKit's geometry in JavaScript.
extension TapTraceService {
    func addGeometryRoute(to router: Router) {
        router.get("/v1/scenes/{id}/geometry", handler: handler { [self] request, parameters in
            let id = try Self.requireSceneID(parameters["id"])
            let version = try resolveVersion(sceneID: id, requested: try QueryParameters(request).version())
            let layout = ScreenLayout(try cachedScene(sceneID: id, version: version).index)
            var response = HTTPResponse.jsonBytes(Representations.prefixed(sceneID: id, version: version, object: layout.json()))
            // A version never changes, so its geometry never does either.
            response.headers["ETag"] = Self.etag(version)
            return response
        })
    }
}
