import Foundation

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
    /// The routes as registered, and compiled for matching.
    private let table = Locked(RouteTable(routes: []))

    public init() {}

    /// Registers `handler` for `method` (case-sensitive, e.g. "GET") and `pattern`.
    public func add(_ method: String, _ pattern: String, handler: @escaping HTTPHandler) {
        let segments: [RouteTable.Segment] = pattern.split(separator: "/").map { part in
            if part.hasPrefix("{") && part.hasSuffix("}") && part.count > 2 {
                return .parameter(String(part.dropFirst().dropLast()))
            }
            return .literal(PercentDecoding.decode(part))
        }
        table.withLock { $0 = RouteTable(routes: $0.routes + [.init(method: method, segments: segments, handler: handler)]) }
    }

    public func get(_ pattern: String, handler: @escaping HTTPHandler) { add("GET", pattern, handler: handler) }
    public func post(_ pattern: String, handler: @escaping HTTPHandler) { add("POST", pattern, handler: handler) }
    public func put(_ pattern: String, handler: @escaping HTTPHandler) { add("PUT", pattern, handler: handler) }
    public func patch(_ pattern: String, handler: @escaping HTTPHandler) { add("PATCH", pattern, handler: handler) }
    public func delete(_ pattern: String, handler: @escaping HTTPHandler) { add("DELETE", pattern, handler: handler) }

    /// Looks up `method` and `rawPath` (the still percent-encoded path, without query).
    public func resolve(method: String, rawPath: String) -> RouteMatch {
        let table = table.withLock { $0 }
        var path = rawPath
        return path.withUTF8 { bytes in
            let parts = PathSegments(bytes)
            guard let best = table.best(method: method, parts: parts) else {
                let methods = table.methods(matching: parts)
                return methods.isEmpty ? .notFound : .methodNotAllowed(allowed: Self.allowHeaderMethods(methods))
            }
            return .found(table.routes[best].handler, parameters: table.parameters(best, parts))
        }
    }

    /// The methods a path answers to (with HEAD when GET is present, and OPTIONS), or [] when
    /// no pattern matches it.
    public func allowedMethods(rawPath: String) -> [String] {
        let table = table.withLock { $0 }
        var path = rawPath
        let methods = path.withUTF8 { table.methods(matching: PathSegments($0)) }
        return methods.isEmpty ? [] : Self.allowHeaderMethods(methods)
    }

    private static func allowHeaderMethods(_ methods: [String]) -> [String] {
        var set = Set(methods)
        if set.contains("GET") { set.insert("HEAD") }
        set.insert("OPTIONS")
        return set.sorted()
    }
}

/// The non-empty segments of a still percent-encoded path, as byte ranges of it.
struct PathSegments {
    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var ranges: [Range<Int>] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        var start = 0
        for i in 0..<bytes.count where bytes[i] == UInt8(ascii: "/") {
            if start < i { ranges.append(start..<i) }
            start = i + 1
        }
        if start < bytes.count { ranges.append(start..<bytes.count) }
    }

    var count: Int { ranges.count }

    /// Whether segment `i` decodes to exactly `literal`'s bytes.
    func segment(_ i: Int, equals literal: UnsafeBufferPointer<UInt8>) -> Bool {
        let part = UnsafeBufferPointer(rebasing: bytes[ranges[i]])
        if part.contains(UInt8(ascii: "%")) { return Array(decoded(i).utf8).elementsEqual(literal) }
        return part.count == literal.count && (part.isEmpty || memcmp(part.baseAddress!, literal.baseAddress!, part.count) == 0)
    }

    /// Segment `i`, percent-decoded.
    func decoded(_ i: Int) -> String {
        PercentDecoding.decode(Substring(decoding: UnsafeBufferPointer(rebasing: bytes[ranges[i]]), as: UTF8.self))
    }
}

/// Routes compiled for matching: every literal segment's bytes in one array, so that matching a
/// request compares bytes in place. Matching runs for every request; comparing `String`
/// segments (split as `Character`s, then copied route by route) cost 12.6k instructions per
/// request and, with the routes' arrays and closures retained and released route by route,
/// 2 % of a worker's time under load. The rules are `Router`'s.
final class RouteTable: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    struct Route: Sendable {
        let method: String
        let segments: [Segment]
        let handler: HTTPHandler
    }

    /// Where a route's segments are in `segments`.
    private struct Span: Sendable {
        let start: Int
        let count: Int
    }

    /// A segment: a literal's bytes in `literals`, or a parameter (`count` -1).
    private struct CompiledSegment: Sendable {
        let start: Int
        let count: Int
        var isParameter: Bool { count < 0 }
    }

    let routes: [Route]
    private let spans: [Span]
    private let segments: [CompiledSegment]
    private let literals: [UInt8]

    init(routes: [Route]) {
        self.routes = routes
        var spans: [Span] = [], segments: [CompiledSegment] = [], literals: [UInt8] = []
        for route in routes {
            spans.append(Span(start: segments.count, count: route.segments.count))
            for segment in route.segments {
                switch segment {
                case .literal(let text):
                    segments.append(CompiledSegment(start: literals.count, count: text.utf8.count))
                    literals += text.utf8
                case .parameter:
                    segments.append(CompiledSegment(start: 0, count: -1))
                }
            }
        }
        self.spans = spans
        self.segments = segments
        self.literals = literals
    }

    /// The route that serves `method` for the path, by the rules above.
    func best(method: String, parts: PathSegments) -> Int? {
        var best: Int?, bestGET: Int?
        for r in routes.indices where matches(r, parts) {
            let routeMethod = routes[r].method
            if routeMethod == method {
                if best.map({ isMoreSpecific(r, than: $0) }) ?? true { best = r }
            } else if method == "HEAD", routeMethod == "GET" {
                if bestGET.map({ isMoreSpecific(r, than: $0) }) ?? true { bestGET = r }
            }
        }
        return best ?? bestGET
    }

    /// The methods of every route whose pattern matches the path.
    func methods(matching parts: PathSegments) -> [String] {
        routes.indices.filter { matches($0, parts) }.map { routes[$0].method }
    }

    /// The decoded values of route `r`'s `{name}` segments.
    func parameters(_ r: Int, _ parts: PathSegments) -> [String: String] {
        var parameters: [String: String] = [:]
        for (i, segment) in routes[r].segments.enumerated() {
            if case .parameter(let name) = segment { parameters[name] = parts.decoded(i) }
        }
        return parameters
    }

    private func matches(_ r: Int, _ parts: PathSegments) -> Bool {
        let span = spans[r]
        guard span.count == parts.count else { return false }
        return literals.withUnsafeBufferPointer { literals in
            for i in 0..<span.count {
                let segment = segments[span.start + i]
                if segment.isParameter { continue }
                let literal = UnsafeBufferPointer(rebasing: literals[segment.start..<segment.start + segment.count])
                if !parts.segment(i, equals: literal) { return false }
            }
            return true
        }
    }

    /// The first segment where the two differ in kind decides: a literal beats a parameter.
    private func isMoreSpecific(_ a: Int, than b: Int) -> Bool {
        for i in 0..<min(spans[a].count, spans[b].count) {
            switch (segments[spans[a].start + i].isParameter, segments[spans[b].start + i].isParameter) {
            case (false, true): return true
            case (true, false): return false
            default: continue
            }
        }
        return false
    }
}
