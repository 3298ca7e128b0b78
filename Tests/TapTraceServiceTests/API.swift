import TestSupport
import Foundation
import Testing

/// JSON over a RawHTTPClient, for readable tests.
extension RawHTTPClient {
    static let json = [("Content-Type", "application/json")]

    /// Sends `body` (bytes) with `Content-Type: application/json` unless `headers` say otherwise.
    func call(_ method: String, _ target: String, body: [UInt8]? = nil,
              headers: [(String, String)]? = nil) throws -> Response {
        try request(method, target, headers: headers ?? (body == nil ? [] : Self.json), body: body ?? [])
    }

    func call(_ method: String, _ target: String, json: Any, headers: [(String, String)]? = nil) throws -> Response {
        try call(method, target, body: Array(try JSONSerialization.data(withJSONObject: json)), headers: headers)
    }
}

extension RawHTTPClient.Response {
    /// The body as a JSON object (fails the test when it is not one).
    func object(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])
        return try #require(value as? [String: Any], "not a JSON object: \(bodyText.prefix(300))",
                            sourceLocation: sourceLocation)
    }

    /// Checks an RFC 9457 problem answer and returns its document.
    @discardableResult
    func problem(_ status: Int, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        #expect(self.status == status, "expected \(status), got \(self.status): \(bodyText.prefix(400))",
                sourceLocation: sourceLocation)
        #expect(header("Content-Type") == "application/problem+json", sourceLocation: sourceLocation)
        let problem = try object(sourceLocation: sourceLocation)
        #expect(problem["status"] as? Int == status, sourceLocation: sourceLocation)
        #expect((problem["type"] as? String)?.hasPrefix("https://taptrace.dev/problems/") == true,
                sourceLocation: sourceLocation)
        #expect(problem["title"] is String, sourceLocation: sourceLocation)
        #expect(problem["detail"] is String, sourceLocation: sourceLocation)
        return problem
    }

    /// The JSON pointers of a validation problem's `errors`.
    func pointers() throws -> [String] {
        let errors = try object()["errors"] as? [[String: Any]] ?? []
        return errors.compactMap { $0["pointer"] as? String }
    }
}

/// Fixtures from examples/.
enum Fixtures {
    static func checkoutScene() throws -> [UInt8] { try Paths.example("checkout.scene.json") }
    static func checkoutV2Scene() throws -> [UInt8] { try Paths.example("checkout-v2.scene.json") }
    static func checkoutTouches() throws -> Any {
        try JSONSerialization.jsonObject(with: Data(Paths.example("checkout.touches.json")))
    }

    /// `{"touches": <checkout.touches.json>}` for a stored dispatch.
    static func storedDispatchBody(version: Int? = nil) throws -> Any {
        var body: [String: Any] = ["touches": try checkoutTouches()]
        if let version { body["version"] = version }
        return body
    }
}

/// Helpers that create things through the API.
extension RawHTTPClient {
    /// POST /v1/scenes with `scene`; returns the new id.
    func createScene(_ scene: [UInt8]) throws -> String {
        let response = try call("POST", "/v1/scenes", body: scene)
        #expect(response.status == 201, "\(response.bodyText.prefix(300))")
        return try #require(try response.object()["id"] as? String)
    }

    /// POST /v1/scenes/{id}/dispatch with the checkout touches; returns the response object.
    func storeDispatch(_ sceneID: String, version: Int? = nil) throws -> [String: Any] {
        let response = try call("POST", "/v1/scenes/\(sceneID)/dispatch", json: try Fixtures.storedDispatchBody(version: version))
        #expect(response.status == 201, "\(response.bodyText.prefix(300))")
        return try response.object()
    }

    /// Every item of a paginated listing, following `nextCursor`.
    func allItems(_ path: String, limit: Int) throws -> [[String: Any]] {
        var items: [[String: Any]] = []
        var cursor: String?
        repeat {
            let target = path + "?limit=\(limit)" + (cursor.map { "&cursor=\($0)" } ?? "")
            let page = try call("GET", target).object()
            items += page["items"] as? [[String: Any]] ?? []
            cursor = page["nextCursor"] as? String
        } while cursor != nil
        return items
    }
}

extension Dictionary where Key == String, Value == Any {
    func string(_ key: String) -> String? { self[key] as? String }
    func int(_ key: String) -> Int? { self[key] as? Int }
    func object(_ key: String) -> [String: Any]? { self[key] as? [String: Any] }
    func array(_ key: String) -> [[String: Any]] { self[key] as? [[String: Any]] ?? [] }
}
