import Foundation
import TestSupport
import Testing

/// `POST /v1/audit` (the body is a scene document) and `POST /v1/scenes/{id}/audit` (an empty
/// body, or `{"version"?, "knobs"?}`) against the real `taptrace serve` (issue 32, item 6).
@Suite struct AuditEndpointTests {
    @Test func statelessAndStoredAuditsAgree() throws {
        try withServer { server in
            let client = try server.client()
            let scene = try Paths.example("tabbar.scene.json")
            let stateless = try client.call("POST", "/v1/audit", body: scene)
            #expect(stateless.status == 200, "\(stateless.bodyText.prefix(300))")
            let audit = try stateless.object()
            #expect(audit.int("unreachable") == 4 && audit.int("count") == 4 && audit.int("small") == 0)
            let first = try #require(audit.array("elements").first)
            #expect(first.string("id") == "tabHome" && first.string("status") == "unreachable")
            #expect(first["hittable"] as? Bool == false && first.object("hitTestView")?.string("id") == "sheet")
            #expect(first.array("reasons").first?.string("kind") == "covered")

            // The stored scene: the same audit, after the scene and version.
            let id = try client.createScene(scene)
            let stored = try client.call("POST", "/v1/scenes/\(id)/audit")
            #expect(stored.status == 200, "\(stored.bodyText.prefix(300))")
            #expect(stored.bodyText.hasPrefix(#"{"sceneId":"\#(id)","sceneVersion":1,"elements":["#))
            #expect(stored.bodyText.hasSuffix(String(stateless.bodyText.dropFirst())))
            let withBody = try client.call("POST", "/v1/scenes/\(id)/audit", json: ["version": 1])
            #expect(withBody.bodyText == stored.bodyText)
            #expect(try client.call("POST", "/v1/scenes/\(id)/audit", json: [String: Any]()).bodyText == stored.bodyText)
        }
    }

    @Test func reachableSceneAndKnobs() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Paths.example("overlay.scene.json"))
            let r = try client.call("POST", "/v1/scenes/\(id)/audit", json: ["knobs": ["hitTestPasses": 2]])
            #expect(r.status == 200, "\(r.bodyText.prefix(300))")
            let audit = try r.object()
            #expect(audit.int("unreachable") == 0 && audit.int("hittable") == 1)
            #expect(audit.array("elements").first?.string("id") == "playButton")
        }
    }

    @Test func refusals() throws {
        try withServer { server in
            let client = try server.client()
            // A scene that does not validate: 422 with the pointer.
            let invalid = try client.call("POST", "/v1/audit", body: Array(#"{"format": "taptrace/scene@1", "windows": [{"id": "W", "class": "UIWindow", "frame": [0, 0, 10]}]}"#.utf8))
            try invalid.problem(422)
            #expect(try invalid.pointers().contains("/windows/0/frame"))
            try client.call("POST", "/v1/audit", body: Array("{\"windows\": ".utf8)).problem(400)
            try client.call("POST", "/v1/audit", body: Array("{}".utf8), headers: [("Content-Type", "text/plain")]).problem(415)
            // Stored: unknown scene, missing version, unknown key.
            try client.call("POST", "/v1/scenes/scn_aaaaaaaaaaaa/audit").problem(404)
            let id = try client.createScene(try Paths.example("overlay.scene.json"))
            let noVersion = try client.call("POST", "/v1/scenes/\(id)/audit", json: ["version": 7])
            try noVersion.problem(422)
            #expect(try noVersion.pointers() == ["/version"])
            let unknown = try client.call("POST", "/v1/scenes/\(id)/audit", json: ["point": [1, 2]])
            try unknown.problem(422)
            #expect(try unknown.pointers() == ["/point"])
        }
    }
}
