import TestSupport
import Foundation
import Testing

/// `PATCH /v1/scenes/{id}` (JSON Patch, RFC 6902) and the views' pointers in
/// `GET /v1/scenes/{id}/geometry`, against the real `taptrace serve`.
@Suite struct ScenePatchRouteTests {
    static let buyButton = "/windows/0/subviews/0/subviews/0/subviews/0/subviews/1"

    @Test func aPatchStoresTheNextVersionWithTheEditApplied() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())

            // The client finds the view's pointer by its id in the geometry, and edits it.
            let geometry = try client.call("GET", "/v1/scenes/\(id)/geometry").object()
            let pointer = try #require(geometry.array("views").first { $0.string("id") == "buyButton" }?.string("pointer"))
            #expect(pointer == Self.buyButton)
            let patched = try client.patch(id, [
                ["op": "test", "path": "\(pointer)/id", "value": "buyButton"],
                ["op": "replace", "path": "\(pointer)/frame", "value": [200, 100, 120, 44]],
                ["op": "add", "path": "\(pointer)/label", "value": "Buy it"],
            ], ifMatch: "\"1\"")
            #expect(patched.status == 200, "\(patched.bodyText.prefix(400))")
            #expect(patched.header("ETag") == "\"2\"")
            #expect(patched.header("Location") == "/v1/scenes/\(id)")
            let summary = try patched.object()
            #expect(summary.string("id") == id)
            #expect(summary.int("version") == 2)
            #expect(summary.int("latestVersion") == 2)
            #expect(summary.object("counts")?.int("views") == 6)
            #expect(summary["scene"] == nil)

            let read = try client.call("GET", "/v1/scenes/\(id)")
            #expect(read.header("ETag") == "\"2\"")
            let document = try #require(try read.object().object("scene"))
            let button = try #require(Self.resolve(pointer, in: document) as? [String: Any])
            #expect(button["frame"] as? [Double] == [200, 100, 120, 44])
            #expect(button["label"] as? String == "Buy it")
            // Version 1 is untouched; the new version's geometry has the button moved.
            let first = try #require(try client.call("GET", "/v1/scenes/\(id)?version=1").object().object("scene"))
            #expect((Self.resolve(pointer, in: first) as? [String: Any])?["frame"] as? [Double] == [24, 190, 120, 44])
            let moved = try client.call("GET", "/v1/scenes/\(id)/geometry").object()
            #expect(moved.int("sceneVersion") == 2)
            #expect(moved.array("views").first { $0.string("id") == "buyButton" }?["quad"] as? [[Double]]
                    == [[216, 220], [336, 220], [336, 264], [216, 264]])
            // The cached index of the new version answers a hit-test where the button now is.
            let hit = try client.call("POST", "/v1/scenes/\(id)/hit-test", json: ["point": [270, 240]]).object()
            #expect(hit.object("hitTestView")?.string("id") == "buyButton")

            // Without If-Match the patch applies to the latest version.
            let unconditional = try client.patch(id, [["op": "replace", "path": "/name", "value": "Moved"]])
            #expect(unconditional.status == 200)
            #expect(unconditional.header("ETag") == "\"3\"")
            #expect(try unconditional.object().string("name") == "Moved")
            #expect(try client.call("GET", "/v1/scenes/\(id)").object().object("scene")?.string("name") == "Moved")
            // An empty patch stores the same document again, byte for byte: the same content hash.
            let again = try client.patch(id, [] as [Any], ifMatch: "\"3\"")
            #expect(again.header("ETag") == "\"4\"")
            let versions = try client.call("GET", "/v1/scenes/\(id)/versions").object().array("items")
            #expect(versions.map { $0.int("version") } == [1, 2, 3, 4])
            #expect(versions[3].string("contentHash") == versions[2].string("contentHash"))
            #expect(versions[1].string("contentHash") != versions[0].string("contentHash"))
        }
    }

    @Test func ifMatchGuardsAPatchAsItGuardsAPut() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            let edit: [Any] = [["op": "replace", "path": "\(Self.buyButton)/frame/0", "value": 30]]
            #expect(try client.patch(id, edit, ifMatch: "\"1\"").status == 200)
            // Based on version 1, but 2 is current: the project answers 409, as for PUT
            // (decision 34), and nothing is stored.
            let stale = try client.patch(id, edit, ifMatch: "\"1\"").problem(409)
            #expect((stale["detail"] as? String)?.contains("version 2") == true)
            try client.patch(id, edit, ifMatch: "1").problem(400)
            #expect(try client.patch(id, edit, ifMatch: "W/\"2\"").status == 409)
            #expect(try client.call("GET", "/v1/scenes/\(id)/versions").object().array("items").count == 2)
            #expect(try client.patch(id, edit, ifMatch: "\"7\", \"2\"").status == 200)
            #expect(try client.patch(id, edit, ifMatch: "*").header("ETag") == "\"4\"")
        }
    }

    @Test func aPatchThatFailsNamesTheOperationAndItsPointer() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            let button = Self.buyButton

            let unknown = try client.patch(id, [["op": "test", "path": "/format", "value": "taptrace/scene@1"],
                                                ["op": "update", "path": "\(button)/frame", "value": [0, 0, 1, 1]]]).problem(422)
            #expect(unknown["type"] as? String == "https://taptrace.dev/problems/json-patch")
            #expect(unknown["operation"] as? Int == 1)
            #expect(unknown["pointer"] as? String == "\(button)/frame")
            #expect((unknown["detail"] as? String)?.contains("\"update\" is not an operation") == true)

            let missing = try client.patch(id, [["op": "replace", "path": "/windows/0/subviews/0/subviews/3/frame", "value": [0, 0, 1, 1]]]).problem(422)
            #expect(missing["operation"] as? Int == 0)
            #expect(missing["pointer"] as? String == "/windows/0/subviews/0/subviews/3/frame")
            #expect((missing["detail"] as? String)?.contains("/windows/0/subviews/0/subviews has 1 element") == true)
            #expect((missing["detail"] as? String)?.contains("against version 1") == true)

            let failedTest = try client.patch(id, [["op": "replace", "path": "/name", "value": "x"],
                                                   ["op": "test", "path": "\(button)/id", "value": "cancelButton"]]).problem(422)
            #expect(failedTest["operation"] as? Int == 1)
            #expect(failedTest["pointer"] as? String == "\(button)/id")
            #expect((failedTest["detail"] as? String)?.contains(#"is "buyButton", not "cancelButton""#) == true)

            let notAnArray = try client.patch(id, ["op": "remove", "path": "/name"]).problem(422)
            #expect(notAnArray["type"] as? String == "https://taptrace.dev/problems/json-patch")
            #expect(notAnArray["operation"] == nil && notAnArray["pointer"] == nil)

            let intoChild = try client.patch(id, [["op": "move", "from": "/windows/0", "path": "/windows/0/subviews/-"]]).problem(422)
            #expect(intoChild["pointer"] as? String == "/windows/0/subviews/-")

            // Nothing was stored by any of them.
            #expect(try client.call("GET", "/v1/scenes/\(id)/versions").object().array("items").count == 1)
            #expect(try client.call("GET", "/v1/scenes/\(id)").object().string("name") == "Checkout (iPhone 15)")
        }
    }

    @Test func aPatchThatLeavesAnInvalidSceneIsAValidationProblemAboutThePatchedDocument() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            let button = Self.buyButton
            let invalid = try client.patch(id, [["op": "replace", "path": "\(button)/frame", "value": "wide"],
                                                ["op": "add", "path": "\(button)/colour", "value": "red"],
                                                ["op": "replace", "path": "\(button)/id", "value": "W"]])
            let problem = try invalid.problem(422)
            #expect(problem["type"] as? String == "https://taptrace.dev/problems/validation")
            #expect((problem["detail"] as? String)?.contains("patched document (version 1 with the patch applied)") == true)
            let pointers = try invalid.pointers()
            #expect(pointers.contains("\(button)/frame"), "\(pointers)")
            #expect(pointers.contains("\(button)/colour"), "\(pointers)")
            #expect(problem["operation"] == nil)
            #expect(try client.call("GET", "/v1/scenes/\(id)/versions").object().array("items").count == 1)

            // Removing the last window leaves no scene worth the name.
            let empty = try client.patch(id, [["op": "remove", "path": "/windows/0"]])
            try empty.problem(422)
            #expect(try client.call("GET", "/v1/scenes/\(id)/versions").object().array("items").count == 1)
        }
    }

    @Test func aPatchIsSentAsJSONPatch() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            let body = Array(#"[{"op": "replace", "path": "/name", "value": "Renamed"}]"#.utf8)
            for type in ["application/json", "text/plain", "application/merge-patch+json", "application/json-patch+json; charset=latin1"] {
                let problem = try client.call("PATCH", "/v1/scenes/\(id)", body: body, headers: [("Content-Type", type)]).problem(415)
                #expect((problem["detail"] as? String)?.contains("application/json-patch+json") == true, "\(type)")
            }
            try client.call("PATCH", "/v1/scenes/\(id)", body: body, headers: []).problem(415)
            let malformed = try client.call("PATCH", "/v1/scenes/\(id)", body: Array("[{\"op\": ".utf8),
                                            headers: RawHTTPClient.jsonPatch).problem(400)
            #expect(malformed["type"] as? String == "https://taptrace.dev/problems/malformed-json")
            #expect(malformed["line"] as? Int == 1)
            #expect(try client.call("GET", "/v1/scenes/\(id)/versions").object().array("items").count == 1)

            let accepted = try client.call("PATCH", "/v1/scenes/\(id)", body: body,
                                           headers: [("Content-Type", "Application/JSON-Patch+JSON; charset=\"UTF-8\"")])
            #expect(accepted.status == 200, "\(accepted.bodyText.prefix(300))")
            // The route is announced to browsers' preflights.
            let options = try client.call("OPTIONS", "/v1/scenes/\(id)")
            #expect(options.header("Allow")?.contains("PATCH") == true)
        }
    }

    @Test func anUnknownSceneIsNotFound() throws {
        try withServer { server in
            let client = try server.client()
            let edit: [Any] = [["op": "replace", "path": "/name", "value": "x"]]
            try client.patch("scn_aaaaaaaaaaaa", edit).problem(404)
            try client.patch("scn_aaaaaaaaaaaa", edit, ifMatch: "\"1\"").problem(404)
            try client.patch("not-an-id", edit).problem(404)
            let id = try client.createScene(try Fixtures.checkoutScene())
            #expect(try client.call("DELETE", "/v1/scenes/\(id)").status == 204)
            try client.patch(id, edit).problem(404)
        }
    }

    /// Every view's pointer in the geometry leads to that view in the stored document.
    @Test func geometryGivesEachViewsPointerIntoTheDocument() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            let document = try #require(try client.call("GET", "/v1/scenes/\(id)").object().object("scene"))
            let views = try client.call("GET", "/v1/scenes/\(id)/geometry").object().array("views")
            #expect(views.count == 6)
            for view in views {
                let pointer = try #require(view.string("pointer"), "\(view)")
                #expect((Self.resolve(pointer, in: document) as? [String: Any])?["id"] as? String == view.string("id"))
            }
            #expect(views.map { $0.string("pointer")! } == [
                "/windows/0", "/windows/0/subviews/0", "/windows/0/subviews/0/subviews/0",
                "/windows/0/subviews/0/subviews/0/subviews/0", "/windows/0/subviews/0/subviews/0/subviews/0/subviews/0",
                Self.buyButton,
            ])
        }
    }

    /// The value a JSON pointer leads to in a document read by `JSONSerialization`.
    static func resolve(_ pointer: String, in document: Any) -> Any? {
        var current: Any? = document
        for raw in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let token = raw.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if let array = current as? [Any] {
                guard let i = Int(token), array.indices.contains(i) else { return nil }
                current = array[i]
            } else if let object = current as? [String: Any] {
                current = object[token]
            } else {
                return nil
            }
        }
        return current
    }
}

extension RawHTTPClient {
    static let jsonPatch = [("Content-Type", "application/json-patch+json")]

    /// PATCH /v1/scenes/{id} with `operations` as a JSON Patch.
    func patch(_ id: String, _ operations: Any, ifMatch: String? = nil) throws -> Response {
        try call("PATCH", "/v1/scenes/\(id)", json: operations,
                 headers: Self.jsonPatch + (ifMatch.map { [("If-Match", $0)] } ?? []))
    }
}
