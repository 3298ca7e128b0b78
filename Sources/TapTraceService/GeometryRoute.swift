import TapTraceCore
import TapTraceFormats
import TapTraceHTTP

/// `GET /v1/scenes/{id}/geometry` (`?version=N`): every view's rectangle on screen as the engine
/// computes it (transforms, scroll offsets, frames solved from transformed bounding boxes),
/// with what takes it out of play. The trace viewer draws the scene from this answer instead
/// of re-implementing UIKit's geometry in JavaScript.
///
/// The answer is paged, at most `--max-geometry-views` views a page (about 420 bytes each: a
/// 100,001-view scene is 42 MB whole): `?limit=N` asks for fewer, `?cursor=` continues from
/// a page's `nextCursor`; `viewCount` says how many there are. A scene within one page is
/// answered whole, as before.
extension TapTraceService {
    func addGeometryRoute(to router: Router) {
        router.get("/v1/scenes/{id}/geometry", handler: handler { [self] request, parameters in
            let id = try Self.requireSceneID(parameters["id"])
            let query = QueryParameters(request)
            let version = try resolveVersion(sceneID: id, requested: try query.version())
            let pageSize = try geometryPageSize(query)
            let index = try cachedScene(sceneID: id, version: version).index
            let start = try Self.geometryCursor(query, viewCount: index.viewCount)
            let layout = ScreenLayout(index)
            let page = layout.json(from: start, count: pageSize)
            var response = HTTPResponse.jsonBytes(try bounded(Representations.prefixed(sceneID: id, version: version, object: page)))
            // A version never changes, so its geometry never does either.
            response.headers["ETag"] = Self.etag(version)
            return response
        })
    }

    /// `limit`: 1 to `--max-geometry-views`, that by default.
    private func geometryPageSize(_ query: QueryParameters) throws(Problem) -> Int {
        let maximum = limits.geometryViews
        guard let text = query.values["limit"] else { return maximum }
        guard let n = Int(text), n >= 1, n <= maximum else {
            throw Problem.badRequest("limit must be an integer from 1 to \(maximum) (views per geometry page, "
                + "\(Limit.geometryViews.flag) or \(Limit.geometryViews.environmentVariable)), not \"\(text)\".")
        }
        return n
    }

    /// `cursor`: a previous page's `nextCursor` (the position of the page's first view).
    private static func geometryCursor(_ query: QueryParameters, viewCount: Int) throws(Problem) -> Int {
        guard let text = query.cursor() else { return 0 }
        guard let n = Int(text), n >= 1, n < viewCount else {
            throw Problem.badRequest("The cursor is not one this scene's geometry handed out; start again without a cursor.")
        }
        return n
    }
}
