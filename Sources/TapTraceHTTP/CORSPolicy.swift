/// Cross-origin rules derived from the server configuration.
struct CORSPolicy: Sendable {
    let allowedOrigins: [String]
    let allowedHeaders: [String]
    let maxAgeSeconds: Int

    var isEnabled: Bool { !allowedOrigins.isEmpty }

    func allows(origin: String) -> Bool {
        allowedOrigins.contains("*") || allowedOrigins.contains(origin)
    }

    /// Adds `Vary: Origin` (when CORS is on) and `Access-Control-Allow-Origin` for an
    /// allowed `origin` to an ordinary response.
    func decorate(_ response: inout HTTPResponse, origin: String?) {
        guard isEnabled else { return }
        Self.addVaryOrigin(&response.headers)
        if let origin, allows(origin: origin) {
            response.headers["Access-Control-Allow-Origin"] = origin
        }
    }

    /// The answer to an OPTIONS request for a path that answers to `methods`: a preflight from
    /// an allowed origin gets the Access-Control-Allow-* fields, anything else only `Allow`.
    func optionsResponse(methods: [String], origin: String?, isPreflight: Bool) -> HTTPResponse {
        var response = HTTPResponse.empty(status: 204)
        response.headers["Allow"] = methods.joined(separator: ", ")
        guard isEnabled else { return response }
        Self.addVaryOrigin(&response.headers)
        if isPreflight, let origin, allows(origin: origin) {
            response.headers["Access-Control-Allow-Origin"] = origin
            response.headers["Access-Control-Allow-Methods"] = methods.joined(separator: ", ")
            if !allowedHeaders.isEmpty {
                response.headers["Access-Control-Allow-Headers"] = allowedHeaders.joined(separator: ", ")
            }
            response.headers["Access-Control-Max-Age"] = String(maxAgeSeconds)
        }
        return response
    }

    private static func addVaryOrigin(_ headers: inout HTTPHeaders) {
        let existing = headers.values(for: "Vary").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingSpaces() }
        if existing.contains(where: { HTTPHeaders.sameName($0, "Origin") || $0 == "*" }) { return }
        headers.add("Vary", "Origin")
    }
}

private extension Substring {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
