import Foundation
import Testing
import TapTraceStore
@testable import TapTraceService

/// The trace viewer's files (`GET /`, `GET /viewer/<file>`) and the geometry it draws from.
@Suite struct ViewerEndpointTests {
    static let viewerDirectory = Paths.packageRoot.appendingPathComponent("viewer")

    @Test func thePageIsServedWithItsTypeTagAndPolicy() throws {
        try withServer { server in
            let client = try server.client()
            let page = try client.call("GET", "/")
            #expect(page.status == 200)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.bodyText.contains(#"<script type="module" src="/viewer/main.js"></script>"#))
            let csp = try #require(page.header("Content-Security-Policy"))
            #expect(csp.contains("default-src 'self'") && csp.contains("script-src 'self'"))
            #expect(page.header("Cache-Control") == "no-cache")
            #expect(page.header("X-Content-Type-Options") == "nosniff")
            let etag = try #require(page.header("ETag"))
            let body = Array(try Data(contentsOf: Self.viewerDirectory.appendingPathComponent("index.html")))
            #expect(etag == "\"" + ContentHash.sha256Hex(body).prefix(32) + "\"")
            #expect(page.body == body)
            // Deep links are the same page: the query is read by the page itself.
            #expect(try client.call("GET", "/?run=run_aaaaaaaaaaaa").body == body)
        }
    }

    @Test func everyFileIsServedWithTheContentTypeItsExtensionNeeds() throws {
        let types = ["html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8",
                     "js": "text/javascript; charset=utf-8", "svg": "image/svg+xml"]
        try withServer { server in
            let client = try server.client()
            for file in EmbeddedViewer.files {
                let response = try client.call("GET", "/viewer/\(file.name)")
                #expect(response.status == 200, "\(file.name)")
                let ext = String(file.name.split(separator: ".").last ?? "")
                #expect(response.header("Content-Type") == types[ext], "\(file.name)")
                #expect(response.bodyText == file.text, "\(file.name)")
                #expect(response.header("ETag")?.count == 34, "\(file.name)")
            }
        }
    }

    @Test func revalidationAnswers304AndHEADHasNoBody() throws {
        try withServer { server in
            let client = try server.client()
            let first = try client.call("GET", "/viewer/main.js")
            let etag = try #require(first.header("ETag"))
            let same = try client.call("GET", "/viewer/main.js", headers: [("If-None-Match", etag)])
            #expect(same.status == 304)
            #expect(same.body.isEmpty)
            #expect(same.header("ETag") == etag)
            // If-None-Match compares weakly and takes a list.
            #expect(try client.call("GET", "/viewer/main.js", headers: [("If-None-Match", "\"x\", W/\(etag)")]).status == 304)
            #expect(try client.call("GET", "/viewer/main.js", headers: [("If-None-Match", "*")]).status == 304)
            let other = try client.call("GET", "/viewer/main.js", headers: [("If-None-Match", "\"0123\"")])
            #expect(other.status == 200 && other.body == first.body)
            // Each file has its own tag.
            #expect(try client.call("GET", "/viewer/viewer.css").header("ETag") != etag)

            let head = try client.call("HEAD", "/")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Type") == "text/html; charset=utf-8")
            #expect(head.header("Content-Length") == String(try client.call("GET", "/").body.count))
            // The connection is still in step after a HEAD (no stray body bytes).
            #expect(try client.call("GET", "/health").status == 200)
        }
    }

    @Test func unknownFilesAndEscapesAre404() throws {
        try withServer { server in
            let client = try server.client()
            try client.call("GET", "/viewer/nope.js").problem(404)
            try client.call("GET", "/viewer/..%2Fopenapi.yaml").problem(404)
            try client.call("GET", "/viewer/").problem(404)
            try client.call("GET", "/viewer/a/main.js").problem(404)
            let post = try client.call("POST", "/", body: Array("{}".utf8))
            #expect(post.status == 405)
        }
    }

    @Test func geometryPlacesEveryViewOnTheScreen() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            let response = try client.call("GET", "/v1/scenes/\(id)/geometry")
            #expect(response.status == 200)
            #expect(response.header("ETag") == "\"1\"")
            let geometry = try response.object()
            #expect(geometry.string("sceneId") == id)
            #expect(geometry.int("sceneVersion") == 1)
            #expect(geometry.string("name") == "Checkout (iPhone 15)")
            #expect(geometry["screen"] as? [Double] == [0, 0, 390, 844])
            #expect(geometry["windows"] as? [String] == ["W"])
            let views = geometry.array("views")
            #expect(views.map { $0.string("id")! } == ["W", "checkoutRoot", "scroll", "card", "title", "buyButton"])
            let button = try #require(views.first { $0.string("id") == "buyButton" })
            #expect(button["quad"] as? [[Double]] == [[40, 310], [160, 310], [160, 354], [40, 354]])
            #expect(button["toScreen"] as? [Double] == [1, 0, 0, 1, 40, 310])
            #expect(button.string("superview") == "card")
            #expect(button.int("depth") == 4)
            #expect(button["enabled"] as? Bool == true)
            #expect(button["actions"] as? [String] == ["buyTapped:"])
            #expect(button["outOfPlay"] is NSNull)
            let title = try #require(views.first { $0.string("id") == "title" })
            #expect(title["userInteractionEnabled"] as? Bool == false)
            #expect(title.object("outOfPlay")?.string("rule") == "H9")
            #expect(title.object("outOfPlay")?.string("view") == "title")
            let card = try #require(views.first { $0.string("id") == "card" })
            #expect(card.array("recognizers").map { $0.string("id")! } == ["cardTap"])
            let root = try #require(views.first { $0.string("id") == "checkoutRoot" })
            #expect(root.object("viewController")?.string("id") == "checkoutVC")
            let window = try #require(views.first { $0.string("id") == "W" })
            #expect(window["level"] as? Double == 0 && window["isKey"] as? Bool == true)
            #expect(window["superview"] is NSNull)
        }
    }

    @Test func geometryOfAnOlderVersionAndErrors() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            #expect(try client.call("PUT", "/v1/scenes/\(id)", body: try Fixtures.checkoutV2Scene()).status == 200)
            let latest = try client.call("GET", "/v1/scenes/\(id)/geometry").object()
            let first = try client.call("GET", "/v1/scenes/\(id)/geometry?version=1").object()
            #expect(latest.int("sceneVersion") == 2)
            #expect(first.int("sceneVersion") == 1)
            let quad = { (g: [String: Any]) in g.array("views").first { $0.string("id") == "buyButton" }?["quad"] as? [[Double]] }
            #expect(quad(first) != quad(latest), "v2 moves the button")
            try client.call("GET", "/v1/scenes/\(id)/geometry?version=3").problem(404)
            try client.call("GET", "/v1/scenes/\(id)/geometry?version=zero").problem(400)
            try client.call("GET", "/v1/scenes/scn_aaaaaaaaaaaa/geometry").problem(404)
        }
    }
}
