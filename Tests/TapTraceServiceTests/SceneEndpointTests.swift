import TestSupport
import Foundation
import Testing

/// Scenes CRUD with versions, against the real `taptrace serve`.
@Suite struct SceneEndpointTests {
    @Test func createReadListAndDelete() throws {
        try withServer { server in
            let client = try server.client()
            let created = try client.call("POST", "/v1/scenes", body: try Fixtures.checkoutScene())
            #expect(created.status == 201)
            let body = try created.object()
            let id = try #require(body.string("id"))
            #expect(id.hasPrefix("scn_"))
            #expect(created.header("Location") == "/v1/scenes/\(id)")
            #expect(created.header("ETag") == "\"1\"")
            #expect(body.int("version") == 1)
            #expect(body.string("name") == "Checkout (iPhone 15)")
            #expect(body.string("contentHash")?.count == 64)
            #expect(body.object("counts")?.int("views") == 6)
            #expect(body.object("counts")?.int("windows") == 1)
            #expect(body.object("counts")?.int("recognizers") == 1)
            #expect(body["scene"] == nil)

            let read = try client.call("GET", "/v1/scenes/\(id)")
            #expect(read.status == 200)
            #expect(read.header("ETag") == "\"1\"")
            let document = try #require(try read.object().object("scene"))
            #expect(document.string("format") == "taptrace/scene@1")
            #expect(document.array("windows").first?.string("id") == "W")

            // The stored document is canonical: posting it back gives the same content hash.
            let again = try client.call("POST", "/v1/scenes", json: document)
            #expect(try again.object().string("contentHash") == body.string("contentHash"))

            let list = try client.call("GET", "/v1/scenes").object()
            #expect(list.array("items").map { $0.string("id") } == [try again.object().string("id"), id])
            #expect(list["nextCursor"] is NSNull)

            #expect(try client.call("DELETE", "/v1/scenes/\(id)").status == 204)
            try client.call("GET", "/v1/scenes/\(id)").problem(404)
            try client.call("DELETE", "/v1/scenes/\(id)").problem(404)
            try client.call("GET", "/v1/scenes/\(id)/versions").problem(404)
        }
    }

    @Test func putAddsVersionsAndIfMatchGuardsThem() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())

            let v2 = try client.call("PUT", "/v1/scenes/\(id)", body: try Fixtures.checkoutV2Scene(),
                                     headers: RawHTTPClient.json + [("If-Match", "\"1\"")])
            #expect(v2.status == 200)
            #expect(v2.header("ETag") == "\"2\"")
            let summary = try v2.object()
            #expect(summary.int("version") == 2)
            #expect(summary.string("name") == "Checkout (iPhone 15), button moved right")

            // Based on version 1, but 2 is current: 409, and nothing is stored.
            let stale = try client.call("PUT", "/v1/scenes/\(id)", body: try Fixtures.checkoutScene(),
                                        headers: RawHTTPClient.json + [("If-Match", "\"1\"")])
            try stale.problem(409)
            try client.call("PUT", "/v1/scenes/\(id)", body: try Fixtures.checkoutScene(),
                            headers: RawHTTPClient.json + [("If-Match", "1")]).problem(400)
            let versions = try client.call("GET", "/v1/scenes/\(id)/versions").object()
            #expect(versions.array("items").map { $0.int("version") } == [1, 2])
            #expect(versions["nextCursor"] is NSNull)
            #expect(versions.array("items")[0].string("contentHash") != versions.array("items")[1].string("contentHash"))

            // `*` and an unconditional PUT both append.
            let v3 = try client.call("PUT", "/v1/scenes/\(id)", body: try Fixtures.checkoutScene(),
                                     headers: RawHTTPClient.json + [("If-Match", "*")])
            #expect(try v3.object().int("version") == 3)
            #expect(try client.call("PUT", "/v1/scenes/\(id)", body: try Fixtures.checkoutScene()).object().int("version") == 4)

            // Latest by default, any version on request.
            #expect(try client.call("GET", "/v1/scenes/\(id)").object().int("version") == 4)
            let first = try client.call("GET", "/v1/scenes/\(id)?version=1")
            #expect(first.header("ETag") == "\"1\"")
            #expect(try first.object().int("latestVersion") == 4)
            try client.call("GET", "/v1/scenes/\(id)?version=9").problem(404)
            try client.call("GET", "/v1/scenes/\(id)?version=zero").problem(400)
            try client.call("PUT", "/v1/scenes/scn_aaaaaaaaaaaa", body: try Fixtures.checkoutScene()).problem(404)
        }
    }

    @Test func listingsPaginateNewestFirst() throws {
        try withServer { server in
            let client = try server.client()
            var ids: [String] = []
            for _ in 0..<5 { ids.append(try client.createScene(try Fixtures.checkoutScene())) }
            let first = try client.call("GET", "/v1/scenes?limit=2").object()
            #expect(first.array("items").map { $0.string("id")! } == Array(ids.reversed().prefix(2)))
            let cursor = try #require(first.string("nextCursor"))
            // A scene created between pages does not shift the next page.
            _ = try client.createScene(try Fixtures.checkoutScene())
            let second = try client.call("GET", "/v1/scenes?limit=2&cursor=\(cursor)").object()
            #expect(second.array("items").map { $0.string("id")! } == Array(ids.reversed().dropFirst(2).prefix(2)))
            #expect(try client.allItems("/v1/scenes", limit: 4).count == 6)
            try client.call("GET", "/v1/scenes?limit=0").problem(400)
            try client.call("GET", "/v1/scenes?limit=1001").problem(400)
            try client.call("GET", "/v1/scenes?cursor=bogus").problem(400)
        }
    }
}
