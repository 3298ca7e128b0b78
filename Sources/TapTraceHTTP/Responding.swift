/// Turns a complete request into a response: routing, automatic OPTIONS, 404/405 and CORS.
extension HTTPServer {
    func respond(to request: HTTPRequest) -> HTTPResponse {
        let origin = request.headers["Origin"]
        var response: HTTPResponse
        switch router.resolve(method: request.method, rawPath: request.rawPath) {
        case .found(let handler, let parameters):
            if let repeated = Self.repeatedQueryParameter(request.queryItems) {
                // `HTTPRequest.query` keeps one value per name: refusing the request beats
                // guessing which one the client meant (`?limit=1&limit=2`).
                response = errorResponse(400, "query parameter '\(repeated)' is given more than once; give it once")
            } else {
                response = handler(request, parameters)
            }
        case .methodNotAllowed(let allowed):
            if request.method == "OPTIONS" {
                return cors.optionsResponse(methods: allowed, origin: origin,
                                            isPreflight: request.headers.contains("Access-Control-Request-Method"))
            }
            response = errorResponse(405, "method \(request.method) not allowed for \(request.path)")
            response.headers["Allow"] = allowed.joined(separator: ", ")
        case .notFound:
            response = errorResponse(404, "no route for \(request.path)")
        }
        cors.decorate(&response, origin: origin)
        return response
    }

    /// The first query parameter name that occurs twice, or nil.
    static func repeatedQueryParameter(_ items: [(name: String, value: String)]) -> String? {
        guard items.count > 1 else { return nil }
        var seen = Set<String>()
        for item in items where !seen.insert(item.name).inserted { return item.name }
        return nil
    }

    /// An error the server answers by itself, in the configured format.
    func errorResponse(_ status: Int, _ detail: String) -> HTTPResponse {
        configuration.errorResponder?(status, detail) ?? .error(status, detail)
    }
}
