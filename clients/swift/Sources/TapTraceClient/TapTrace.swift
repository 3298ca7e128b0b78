import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession

/// A TapTrace server, for tests: upload a scene, tap an element, audit a screen.
///
/// ```swift
/// let taptrace = TapTrace(serverURL: URL(string: "http://127.0.0.1:8080")!)
/// let scene = try await taptrace.upload(scene: Data(contentsOf: sceneFile))
/// let run = try await taptrace.tap("buyButton", in: scene.sceneID, label: "buy button buys")
/// #expect(run.firstResponderID == "buyButton")
/// #expect(run.actionNames == ["buyTapped:"])
/// ```
///
/// Scene and touches documents are taken either as JSON `Data` (a scene file exported from an
/// app or written by hand is sent byte for byte, so the server's validation, with its JSON
/// pointers, is the one that answers) or as the generated types (`TapTrace.Scene`,
/// `TapTrace.Touches`), for documents built in Swift. Answers are the generated types.
/// Every error answer is thrown as `TapTraceProblem`.
///
/// `api` is the generated client, for every other operation of openapi.yaml; it reports error
/// answers as its own typed outputs (`.unprocessableContent`, …).
public struct TapTrace: Sendable {
    public typealias Scene = Components.Schemas.Scene
    public typealias Touches = Components.Schemas.Touches
    public typealias Gesture = Components.Schemas.Gesture
    public typealias DispatchRequest = Components.Schemas.DispatchRequest
    /// The result document of a dispatch (contract §3).
    public typealias Result = Components.Schemas.ResultMembers
    /// A stored run: its summary, the request it was dispatched with and its result.
    public typealias Run = Components.Schemas.Run
    /// A stored scene version (without its document).
    public typealias SceneVersion = Components.Schemas.SceneVersionSummary
    public typealias Audit = Components.Schemas.TappabilityAudit
    public typealias AuditElement = Components.Schemas.AuditElement

    /// The generated client for every operation of openapi.yaml.
    public let api: Client
    public let serverURL: URL
    /// The same client with `ProblemMiddleware`, used by the methods below.
    private let checked: Client
    private let transport: URLSessionTransport
    private let authorization: BearerTokenMiddleware?

    /// A client of the server at `serverURL` (e.g. `http://127.0.0.1:8080`), over `session`.
    /// `token` is the bearer token of a server started with `--auth-token-file`, sent with
    /// every request (`BearerTokenMiddleware`, on `api` too); without it, `TAPTRACE_TOKEN` from
    /// the environment is used when set.
    public init(serverURL: URL, session: URLSession = .shared, token: String? = nil) {
        let transport = URLSessionTransport(configuration: .init(session: session))
        let configuration = Configuration(dateTranscoder: ServerDates())
        let authorization = (token ?? BearerTokenMiddleware.environmentToken).map { BearerTokenMiddleware(token: $0) }
        let first: [any ClientMiddleware] = authorization.map { [$0] } ?? []
        self.serverURL = serverURL
        self.transport = transport
        self.authorization = authorization
        self.api = Client(serverURL: serverURL, configuration: configuration, transport: transport, middlewares: first)
        self.checked = Client(
            serverURL: serverURL, configuration: configuration, transport: transport, middlewares: first + [ProblemMiddleware()])
    }

    // MARK: Scenes

    /// Stores a scene document (JSON) as version 1 of a new scene (`POST /v1/scenes`).
    public func upload(scene: Data) async throws -> SceneVersion {
        try await send(.post, "/v1/scenes", operationID: "createScene", body: try validJSON(scene, argument: "scene"))
    }

    /// Stores a scene built in Swift as version 1 of a new scene (`POST /v1/scenes`).
    public func upload(scene: Scene) async throws -> SceneVersion {
        try await unwrapped { try await checked.createScene(body: .json(scene)).created.body.json }
    }

    // MARK: Stored dispatch (the run is kept in the scene's history)

    /// Taps the centre of an element (a view's id, else its accessibilityIdentifier, else its
    /// label) in the latest version of a stored scene, or in `version`, and returns the stored
    /// run. `label` names the run in the scene's history (a test's name). An element that
    /// matches no view, or several, is a 422 `TapTraceProblem` at `/touches/gestures/0/tap/view`.
    public func tap(_ element: String, in scene: SceneID, label: String? = nil, version: Int? = nil) async throws -> Run {
        let touches = Touches(gestures: [Gesture(tap: .ElementTarget(.init(view: element)))])
        return try await dispatch(touches, in: scene, label: label, version: version)
    }

    /// Dispatches touches built in Swift against a stored scene and returns the stored run.
    public func dispatch(_ touches: Touches, in scene: SceneID, label: String? = nil, version: Int? = nil) async throws -> Run {
        let request = Components.Schemas.StoredDispatchRequest(touches: touches, version: version, label: label)
        return try await unwrapped {
            try await checked.storedDispatch(path: .init(id: scene.rawValue), body: .json(request)).created.body.json
        }
    }

    /// Dispatches a touches document (JSON) against a stored scene and returns the stored run.
    public func dispatch(_ touches: Data, in scene: SceneID, label: String? = nil, version: Int? = nil) async throws -> Run {
        var members: [(String, Data)] = [("touches", try validJSON(touches, argument: "touches"))]
        if let version { members.append(("version", try JSONEncoder().encode(version))) }
        if let label { members.append(("label", try JSONEncoder().encode(label))) }
        return try await send(.post, "/v1/scenes/\(scene.pathComponent)/dispatch", operationID: "storedDispatch", body: object(members))
    }

    /// A stored run (`GET /v1/runs/{runId}`).
    public func run(_ id: String) async throws -> Run {
        try await unwrapped {
            switch try await checked.getRun(path: .init(runId: id)).ok.body.json {
            case let .Run(run): return run
            case .ChromeTrace:
                throw TapTraceClientError.unexpectedAnswer(operation: "getRun", status: 200, detail: "a Chrome trace, not a run")
            }
        }
    }

    // MARK: Stateless dispatch (nothing is stored)

    /// Runs a touches document against a scene document, both JSON (`POST /v1/dispatch`).
    /// Pointers of a 422 start with `/scene` or `/touches`.
    public func dispatch(scene: Data, touches: Data) async throws -> Result {
        let body = object([
            ("scene", try validJSON(scene, argument: "scene")), ("touches", try validJSON(touches, argument: "touches")),
        ])
        return try await dispatch(request: body)
    }

    /// Runs a dispatch request (JSON: `{"scene": …, "touches": …, "knobs"?: …}`, as
    /// `taptrace dispatch` reads it) (`POST /v1/dispatch`).
    public func dispatch(request: Data) async throws -> Result {
        let result: Components.Schemas.Result = try await send(
            .post, "/v1/dispatch", operationID: "dispatch", body: try validJSON(request, argument: "request"))
        return result.value1
    }

    /// Runs touches against a scene, both built in Swift (`POST /v1/dispatch`).
    public func dispatch(scene: Scene, touches: Touches) async throws -> Result {
        try await dispatch(DispatchRequest(scene: scene, touches: touches))
    }

    /// Runs a dispatch request built in Swift (`POST /v1/dispatch`).
    public func dispatch(_ request: DispatchRequest) async throws -> Result {
        try await unwrapped { try await checked.dispatch(body: .json(request)).ok.body.json.value1 }
    }

    // MARK: Tappability audit (docs/audit.md)

    /// Audits the latest version of a stored scene, or `version`: can every interactive
    /// element be tapped at its centre? `unreachable` is the verdict.
    public func audit(scene: SceneID, version: Int? = nil) async throws -> Audit {
        let body: Operations.AuditScene.Input.Body? = version.map { .json(.init(version: $0)) }
        return try await unwrapped {
            try await checked.auditScene(path: .init(id: scene.rawValue), body: body).ok.body.json.value2
        }
    }

    /// Audits a scene document (JSON) without storing it (`POST /v1/audit`).
    public func audit(scene: Data) async throws -> Audit {
        try await send(.post, "/v1/audit", operationID: "audit", body: try validJSON(scene, argument: "scene"))
    }

    /// Audits a scene built in Swift without storing it (`POST /v1/audit`).
    public func audit(scene: Scene) async throws -> Audit {
        try await unwrapped { try await checked.audit(body: .json(scene)).ok.body.json }
    }

    // MARK: Plumbing

    /// Rethrows the `TapTraceProblem` that `ProblemMiddleware` raised, which the generated client
    /// wraps in a `ClientError`.
    private func unwrapped<T>(_ call: () async throws -> T) async throws -> T {
        do {
            return try await call()
        } catch let error as ClientError {
            if let problem = error.underlyingError as? TapTraceProblem { throw problem }
            throw error
        }
    }

    /// Sends a JSON body as given, through the same transport, and decodes a 2xx answer as the
    /// generated type `T`. This is the path for documents given as `Data`: the generated client
    /// takes only the generated types, and decoding a document into them first would answer a
    /// bad scene with a Swift `DecodingError` instead of the server's problem with pointers.
    private func send<T: Decodable>(_ method: HTTPRequest.Method, _ path: String, operationID: String, body: Data) async throws -> T {
        var request = HTTPRequest(method: method, scheme: nil, authority: nil, path: path)
        request.headerFields[.contentType] = "application/json"
        request.headerFields[.accept] = "application/json"
        try authorization?.authorize(&request)
        let (response, responseBody) = try await transport.send(
            request, body: HTTPBody(body), baseURL: serverURL, operationID: operationID)
        var data = Data()
        if let responseBody { for try await chunk in responseBody { data.append(contentsOf: chunk) } }
        guard (200..<300).contains(response.status.code) else { throw TapTraceProblem(status: response.status, body: data) }
        do {
            return try ServerDates.jsonDecoder.decode(T.self, from: data)
        } catch {
            throw TapTraceClientError.unexpectedAnswer(operation: operationID, status: response.status.code, detail: "\(error)")
        }
    }

    /// Checks that `data` is one JSON value before it is sent or spliced into a request body:
    /// a splice of malformed JSON would be reported at a line and column of the whole body.
    private func validJSON(_ data: Data, argument: String) throws -> Data {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw TapTraceClientError.malformedJSON(argument: argument, detail: error.localizedDescription)
        }
        return data
    }

    /// `{"k1": v1, "k2": v2}` from already-valid JSON values, byte for byte.
    private func object(_ members: [(String, Data)]) -> Data {
        var data = Data("{".utf8)
        for (index, (key, value)) in members.enumerated() {
            if index > 0 { data.append(contentsOf: Data(",".utf8)) }
            data.append(contentsOf: Data("\"\(key)\":".utf8))
            data.append(value)
        }
        data.append(contentsOf: Data("}".utf8))
        return data
    }
}

/// A scene's id (`scn_` and 12 base32 characters), as `upload(scene:)` answers it.
public struct SceneID: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// The id as one path segment (ids are base32, but a wrong one must not change the path).
    var pathComponent: String {
        rawValue.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? rawValue
    }
}

/// The server writes `createdAt` with milliseconds (`2026-11-27T05:05:52.805Z`); the runtime's
/// default transcoder reads whole seconds only. Both are read here; dates are written with
/// milliseconds.
struct ServerDates: DateTranscoder {
    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let withoutFraction = Date.ISO8601FormatStyle()

    func encode(_ date: Date) throws -> String { Self.withFraction.format(date) }

    func decode(_ string: String) throws -> Date {
        if let date = try? Self.withFraction.parse(string) { return date }
        return try Self.withoutFraction.parse(string)
    }

    /// A decoder that reads dates as the generated client does.
    static var jsonDecoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            try ServerDates().decode(try decoder.singleValueContainer().decode(String.self))
        }
        return decoder
    }
}
