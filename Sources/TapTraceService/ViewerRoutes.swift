import TapTraceHTTP

/// The trace viewer: `GET /` is its page, `GET /viewer/<file>` its stylesheet and JavaScript
/// modules (HEAD too, through the router). It runs in the browser against this same API.
extension TapTraceService {
    func addViewerRoutes(to router: Router) {
        let assets = ViewerAssets.shared
        router.get("/") { request, _ in
            assets.response(for: "index.html", request: request)
        }
        router.get("/viewer/{file}") { request, parameters in
            assets.response(for: parameters["file"] ?? "", request: request)
        }
    }
}
