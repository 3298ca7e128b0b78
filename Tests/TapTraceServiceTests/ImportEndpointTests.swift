import TestSupport
import Foundation
import Testing

/// `POST /v1/import/…` against the real `taptrace serve` (issue 5, item 4).
@Suite struct ImportEndpointTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TapTraceImportTests/Fixtures")

    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: fixtures.appendingPathComponent(name)))
    }

    static let text = [("Content-Type", "text/plain; charset=utf-8")]
    static let xml = [("Content-Type", "application/xml")]

    @Test func recursiveDescriptionToScene() throws {
        try withServer { server in
            let client = try server.client()
            let dump = try Self.fixture("recursiveDescription_03_sentry-cocoa_transform.txt")
            let r = try client.call("POST", "/v1/import/recursive-description", body: dump, headers: Self.text)
            #expect(r.status == 200)
            let body = try r.object()
            #expect(body.object("scene")?.string("format") == "taptrace/scene@1")
            #expect(body["warnings"] is [Any])
            // Nothing is stored without store=true.
            #expect(try client.call("GET", "/v1/scenes").object().array("items").isEmpty)
        }
    }

    @Test func appiumStoredAndDispatchable() throws {
        try withServer { server in
            let client = try server.client()
            let source = try Self.fixture("appium_pagesource_01_shirates-core_XmlDataIos_iOS1.txt")
            let r = try client.call("POST", "/v1/import/appium?store=true", body: source, headers: Self.xml)
            #expect(r.status == 201)
            let body = try r.object()
            let id = try #require(body.string("id"))
            #expect(r.header("Location") == "/v1/scenes/\(id)")
            #expect(body.int("version") == 1)
            #expect((body["warnings"] as? [String])?.first?.contains("accessibility") == true)
            #expect(body.object("scene")?.string("format") == "taptrace/scene@1")
            // The stored scene takes touches like any other.
            let touches: [String: Any] = ["touches": ["format": "taptrace/touches@1", "gestures": [["tap": [100, 100], "t": 0]]]]
            #expect(try client.call("POST", "/v1/scenes/\(id)/dispatch", json: touches).status == 201)
        }
    }

    @Test func errors() throws {
        try withServer { server in
            let client = try server.client()
            let malformed = try Self.fixture("appium_pagesource_04_appium-desktop_343_excerpt_malformed.txt")
            let bad = try client.call("POST", "/v1/import/appium?store=true", body: malformed, headers: Self.xml).problem(422)
            #expect(bad["line"] as? Int == 2 && bad["column"] as? Int == 117)
            #expect(try client.call("GET", "/v1/scenes").object().array("items").isEmpty)   // nothing stored
            // Any dump media type is read as bytes (ImportVersionTests); JSON is not a dump.
            try client.call("POST", "/v1/import/appium", body: malformed, headers: Self.text).problem(422)
            try client.call("POST", "/v1/import/appium", body: malformed, headers: RawHTTPClient.json).problem(415)
            try client.call("POST", "/v1/import/recursive-description", body: [0x3C], headers: RawHTTPClient.json).problem(415)
            try client.call("POST", "/v1/import/json", body: [0x3C], headers: Self.text).problem(404)
            try client.call("POST", "/v1/import/appium?store=maybe", body: malformed, headers: Self.xml).problem(400)
            try client.call("GET", "/v1/import/appium").problem(405)
        }
    }
}
