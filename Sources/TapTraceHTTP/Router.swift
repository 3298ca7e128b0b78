/// A route handler: the request and the values of the pattern's `{param}` segments
/// (percent-decoded). Handlers run on libmicrohttpd's threads, several at once.
public typealias HTTPHandler = @Sendable (HTTPRequest, [String: String]) -> HTTPResponse

/// The outcome of looking a request up in a `Router`.
public enum RouteMatch: Sendable {
    case found(HTTPHandler, parameters: [String: String])
    /// The path is known but not for this method; `allowed` is the value for an `Allow` header.
    case methodNotAllowed(allowed: [String])
    case notFound
}

/// Maps method + path patterns such as `/scenes/{id}/touches` to handlers.
///
/// Segments are literal or `{name}`; a `{name}` segment matches exactly one non-empty
/// segment. Empty segments are ignored, so `/a/b/` matches `/a/b`. When several patterns
/// match a path, the one with a literal segment earliest wins over a parameter
/// (`/scenes/new` beats `/scenes/{id}`); equal patterns resolve in registration order.
/// `HEAD` is served by the `GET` route unless a `HEAD` route exists. Routes may be added
/// at any time, also while the server runs.
public final class Router: Sendable {
    private enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    private struct Route: Sendable {
        let method: String
        let segments: [Segment]
        let handler: HTTPHandler
    }

    private let routes = Locked<[Route]>([])

    public init() {}

    /// Registers `handler` for `method` (case-sensitive, e.g. "GET") and `pattern`.
    public func add(_ method: String, _ pattern: String, handler: @escaping HTTPHandler) {
        let segments: [Segment] = pattern.split(separator: "/").map { part in
            if part.hasPrefix("{") && part.hasSuffix("}") && part.count > 2 {
                return .parameter(String(part.dropFirst().dropLast()))
            }
            return .literal(PercentDecoding.decode(part))
        }
        routes.withLock { $0.append(Route(method: method, segments: segments, handler: handler)) }
    }

    public func get(_ pattern: String, handler: @escaping HTTPHandler) { add("GET", pattern, handler: handler) }
    public func post(_ pattern: String, handler: @escaping HTTPHandler) { add("POST", pattern, handler: handler) }
    public func put(_ pattern: String, handler: @escaping HTTPHandler) { add("PUT", pattern, handler: handler) }
    public func patch(_ pattern: String, handler: @escaping HTTPHandler) { add("PATCH", pattern, handler: handler) }
    public func delete(_ pattern: String, handler: @escaping HTTPHandler) { add("DELETE", pattern, handler: handler) }

    /// Looks up `method` and `rawPath` (the still percent-encoded path, without query).
    public func resolve(method: String, rawPath: String) -> RouteMatch {
        let parts = rawPath.split(separator: "/").map { PercentDecoding.decode($0) }
        let candidates = routes.withLock { routes in
            routes.compactMap { route in Self.match(route.segments, parts).map { (route, $0) } }
        }
        guard !candidates.isEmpty else { return .notFound }
        let best: (Route, [String: String])? =
            Self.mostSpecific(candidates.filter { $0.0.method == method })
            ?? (method == "HEAD" ? Self.mostSpecific(candidates.filter { $0.0.method == "GET" }) : nil)
        if let (route, parameters) = best {
            return .found(route.handler, parameters: parameters)
        }
        return .methodNotAllowed(allowed: Self.allowHeaderMethods(candidates.map(\.0.method)))
    }

    /// The methods a path answers to (with HEAD when GET is present, and OPTIONS), or [] when
    /// no pattern matches it.
    public func allowedMethods(rawPath: String) -> [String] {
        let parts = rawPath.split(separator: "/").map { PercentDecoding.decode($0) }
        let methods = routes.withLock { routes in
            routes.filter { Self.match($0.segments, parts) != nil }.map(\.method)
        }
        return methods.isEmpty ? [] : Self.allowHeaderMethods(methods)
    }

    private static func allowHeaderMethods(_ methods: [String]) -> [String] {
        var set = Set(methods)
        if set.contains("GET") { set.insert("HEAD") }
        set.insert("OPTIONS")
        return set.sorted()
    }

    private static func match(_ segments: [Segment], _ parts: [String]) -> [String: String]? {
        guard segments.count == parts.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let text): if text != part { return nil }
            case .parameter(let name): parameters[name] = part
            }
        }
        return parameters
    }

    private static func mostSpecific(_ candidates: [(Route, [String: String])]) -> (Route, [String: String])? {
        var best: (Route, [String: String])?
        for candidate in candidates {
            guard let current = best else { best = candidate; continue }
            if isMoreSpecific(candidate.0.segments, than: current.0.segments) { best = candidate }
        }
        return best
    }

    private static func isMoreSpecific(_ a: [Segment], than b: [Segment]) -> Bool {
        for (x, y) in zip(a, b) {
            switch (x, y) {
            case (.literal, .parameter): return true
            case (.parameter, .literal): return false
            default: continue
            }
        }
        return false
    }
}
