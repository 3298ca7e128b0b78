import Foundation
import TapTraceJSON
import TapTraceRuns
import TestSupport
import Testing

/// Every conformance case (Tests/TapTraceCoreTests/Conformance, the shared cases copied
/// unchanged) through the HTTP endpoints: stateless `POST /v1/dispatch`, and stored, a scene
/// made with `POST /v1/scenes` and dispatched with `POST /v1/scenes/{id}/dispatch`, whose run
/// `GET /v1/runs/{id}` reads back. The `expect` of each case is checked against every answer
/// by the checker of `taptrace check` (`CaseChecker`).
@Suite struct ConformanceEndpointTests {
    static let folder = Paths.packageRoot.appendingPathComponent("Tests/TapTraceCoreTests/Conformance")
    static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".case.json") }.sorted()
    }

    /// The members of a case file other than the case's own (`name`, `rules`, `expect`).
    static func members(_ name: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(name))) as! [String: Any]
    }

    static func failures(_ expect: Any, _ result: [UInt8]) throws -> [String] {
        let document = try JSONSerialization.data(withJSONObject: ["expect": expect])
        let tape = try JSONTape(parsing: Array(document))
        var expectations: [(key: String, value: JSONValue)] = []
        for (k, v) in tape.members(tape.root) where tape.string(k) == "expect" {
            for (ek, ev) in tape.members(v) { expectations.append((tape.string(ek)!, JSONValue(tape: tape, node: ev))) }
        }
        return CaseChecker.check(expectations, against: try JSONTape(parsing: result)).map(\.text)
    }

    @Test func everyCaseThroughTheEndpoints() throws {
        #expect(Self.names.count >= 27)
        try withServer { server in
            let client = try server.client()
            for name in Self.names {
                let c = try Self.members(name)
                var request: [String: Any] = ["scene": c["scene"]!, "touches": c["touches"]!]
                if let knobs = c["knobs"] { request["knobs"] = knobs }
                let stateless = try client.call("POST", "/v1/dispatch", json: request)
                #expect(stateless.status == 200, "\(name): \(stateless.bodyText.prefix(300))")
                #expect(try Self.failures(c["expect"]!, stateless.body) == [], "\(name) (POST /v1/dispatch)")

                let id = try client.createScene(Array(try JSONSerialization.data(withJSONObject: c["scene"]!)))
                var body: [String: Any] = ["touches": c["touches"]!]
                if let knobs = c["knobs"] { body["knobs"] = knobs }
                let stored = try client.call("POST", "/v1/scenes/\(id)/dispatch", json: body)
                #expect(stored.status == 201, "\(name): \(stored.bodyText.prefix(300))")
                let run = try stored.object()
                let result = try JSONSerialization.data(withJSONObject: try #require(run["result"]))
                #expect(try Self.failures(c["expect"]!, Array(result)) == [], "\(name) (POST /v1/scenes/{id}/dispatch)")
                let runID = try #require(run["id"] as? String)
                let read = try client.call("GET", "/v1/runs/\(runID)").object()
                let readResult = try JSONSerialization.data(withJSONObject: try #require(read["result"]))
                #expect(try Self.failures(c["expect"]!, Array(readResult)) == [], "\(name) (GET /v1/runs/{id})")
            }
        }
    }
}
