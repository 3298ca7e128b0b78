import Foundation
import TestSupport
import Testing

/// `PUT`/`GET`/`DELETE /v1/scenes/{id}/versions/{n}/screenshot` and the `screenshot` member of
/// version documents, against the real `taptrace serve`.
@Suite struct ScreenshotEndpointTests {
    static let png = [("Content-Type", "image/png")]
    static let jpeg = [("Content-Type", "image/jpeg")]

    static func path(_ id: String, _ version: Int) -> String { "/v1/scenes/\(id)/versions/\(version)/screenshot" }

    /// The lowercase hex SHA-256 of `bytes`, from `sha256sum`: computed outside the service.
    static func sha256(_ bytes: [UInt8]) throws -> String {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("image")
        try Data(bytes).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum", file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(text.prefix(64))
    }

    @Test func pngIsStoredWithItsSizeAndServedBackAsSent() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            let image = TestImages.png(width: 39, height: 84)
            let put = try client.call("PUT", Self.path(id, 1), body: image, headers: Self.png)
            #expect(put.status == 201, "\(put.bodyText)")
            #expect(put.header("Content-Type") == "application/json")
            #expect(put.header("Location") == Self.path(id, 1))
            let hash = try Self.sha256(image)
            #expect(put.header("ETag") == "\"\(hash.prefix(32))\"")
            let body = try put.object()
            #expect(body.string("sceneId") == id)
            #expect(body.int("sceneVersion") == 1)
            #expect(body.string("mediaType") == "image/png")
            #expect(body.int("width") == 39)
            #expect(body.int("height") == 84)
            #expect(body.int("bytes") == image.count)
            #expect(body.string("sha256") == hash)
            #expect(body.string("href") == Self.path(id, 1))
            #expect(body.string("createdAt")?.hasSuffix("Z") == true)

            let get = try client.call("GET", Self.path(id, 1))
            #expect(get.status == 200)
            #expect(get.body == image)
            #expect(get.header("Content-Type") == "image/png")
            #expect(get.header("ETag") == put.header("ETag"))
            #expect(get.header("Cache-Control") == "no-cache")
            #expect(get.header("X-Content-Type-Options") == "nosniff")
        }
    }

    @Test func jpegIsStoredWithItsSize() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            #expect(try client.call("PUT", "/v1/scenes/\(id)", body: try Fixtures.checkoutV2Scene()).status == 200)
            let cases = [(1, TestImages.jpegBaseline39x84, 39, 84), (2, TestImages.jpegProgressive52x30, 52, 30)]
            for (version, image, width, height) in cases {
                // Media type parameters and case do not matter.
                let put = try client.call("PUT", Self.path(id, version), body: image,
                                          headers: [("Content-Type", "Image/JPEG; name=screen.jpg")])
                #expect(put.status == 201, "\(put.bodyText)")
                let body = try put.object()
                #expect(body.string("mediaType") == "image/jpeg")
                #expect(body.int("width") == width && body.int("height") == height)
                let get = try client.call("GET", Self.path(id, version))
                #expect(get.header("Content-Type") == "image/jpeg")
                #expect(get.body == image)
            }
        }
    }

    @Test func storingAgainReplacesTheScreenshot() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            let first = try client.call("PUT", Self.path(id, 1), body: TestImages.png(width: 10, height: 20), headers: Self.png)
            #expect(first.status == 201)
            let second = try client.call("PUT", Self.path(id, 1), body: TestImages.jpegBaseline39x84, headers: Self.jpeg)
            #expect(second.status == 200, "\(second.bodyText)")
            #expect(second.header("ETag") != first.header("ETag"))
            #expect(try second.object().int("width") == 39)
            let get = try client.call("GET", Self.path(id, 1))
            #expect(get.body == TestImages.jpegBaseline39x84)
            #expect(get.header("Content-Type") == "image/jpeg")
            #expect(get.header("ETag") == second.header("ETag"))
            // The same bytes again: replaced, and the same tag (it names the bytes).
            let same = try client.call("PUT", Self.path(id, 1), body: TestImages.jpegBaseline39x84, headers: Self.jpeg)
            #expect(same.status == 200)
            #expect(same.header("ETag") == second.header("ETag"))
        }
    }

    @Test func conditionalGetAnswers304WithoutTheImage() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            let etag = try #require(try client.call("PUT", Self.path(id, 1), body: TestImages.png(width: 3, height: 3),
                                                    headers: Self.png).header("ETag"))
            for field in [etag, "W/\(etag)", "\"other\", \(etag)", "*"] {
                let cached = try client.call("GET", Self.path(id, 1), headers: [("If-None-Match", field)])
                #expect(cached.status == 304, "If-None-Match: \(field)")
                #expect(cached.body.isEmpty)
                #expect(cached.header("ETag") == etag)
                #expect(cached.header("Cache-Control") == "no-cache")
            }
            let stale = try client.call("GET", Self.path(id, 1), headers: [("If-None-Match", "\"0123456789abcdef0123456789abcdef\"")])
            #expect(stale.status == 200)
            #expect(stale.body == TestImages.png(width: 3, height: 3))
            // Replaced: the old tag no longer matches.
            #expect(try client.call("PUT", Self.path(id, 1), body: TestImages.png(width: 4, height: 3), headers: Self.png).status == 200)
            let changed = try client.call("GET", Self.path(id, 1), headers: [("If-None-Match", etag)])
            #expect(changed.status == 200)
            #expect(changed.body == TestImages.png(width: 4, height: 3))
        }
    }

    @Test func bodiesThatAreNotTheImageTheyClaimAre422AndStoreNothing() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            let mismatched = try client.call("PUT", Self.path(id, 1), body: TestImages.jpegBaseline39x84, headers: Self.png).problem(422)
            #expect(mismatched.string("title") == "Unreadable image")
            #expect(mismatched.string("detail") ==
                    "The body is a JPEG image, but Content-Type says image/png; send it as image/jpeg.")
            let reversed = try client.call("PUT", Self.path(id, 1), body: TestImages.png(width: 2, height: 2), headers: Self.jpeg).problem(422)
            #expect(reversed.string("detail")?.contains("is a PNG image") == true)
            let text = try client.call("PUT", Self.path(id, 1), body: Array("hello".utf8), headers: Self.png).problem(422)
            #expect(text.string("detail")?.contains("PNG signature") == true)
            var damaged = TestImages.png(width: 5, height: 5)
            damaged[18] ^= 0x40
            try client.call("PUT", Self.path(id, 1), body: damaged, headers: Self.png).problem(422)
            let truncated = try client.call("PUT", Self.path(id, 1), body: Array(TestImages.jpegBaseline39x84.prefix(100)),
                                            headers: Self.jpeg).problem(422)
            #expect(truncated.string("detail")?.hasPrefix("The JPEG") == true)
            let empty = try client.call("PUT", Self.path(id, 1), body: [], headers: Self.png).problem(422)
            #expect(empty.string("detail") == "The body is empty: send the image file's bytes.")
            try client.call("GET", Self.path(id, 1)).problem(404)
            #expect(try client.call("GET", "/v1/scenes/\(id)").object()["screenshot"] == nil)
        }
    }

    @Test func otherMediaTypesAre415() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            let image = TestImages.png(width: 2, height: 2)
            for contentType in ["image/gif", "image/jpg", "application/octet-stream", "application/json", "image/png+x"] {
                let problem = try client.call("PUT", Self.path(id, 1), body: image, headers: [("Content-Type", contentType)]).problem(415)
                #expect(problem.string("detail") ==
                        "A screenshot is sent as Content-Type: image/png or image/jpeg (got \"\(contentType)\").")
            }
            let none = try client.call("PUT", Self.path(id, 1), body: image, headers: []).problem(415)
            #expect(none.string("detail")?.contains("no Content-Type") == true)
            try client.call("GET", Self.path(id, 1)).problem(404)
        }
    }

    @Test func screenshotsAboveTheLimitAre413() throws {
        // The screenshot limit, below the body limit: the service answers.
        try withServer(extraArguments: ["--screenshot-limit", "1K"]) { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            let big = TestImages.png(width: 20, height: 20)  // 1,282 bytes of pixels and more
            #expect(big.count > 1024)
            let problem = try client.call("PUT", Self.path(id, 1), body: big, headers: Self.png).problem(413)
            #expect(problem.string("detail") ==
                    "The screenshot is \(big.count) bytes, more than the server's screenshot limit of 1024 bytes (--screenshot-limit).")
            try client.call("GET", Self.path(id, 1)).problem(404)
            let small = TestImages.png(width: 8, height: 8)
            #expect(small.count <= 1024)
            #expect(try client.call("PUT", Self.path(id, 1), body: small, headers: Self.png).status == 201)
        }
        // Unset, the limit follows a body limit below 8M; bodies above it are the server's 413.
        try withServer(environment: ["TAPTRACE_BODY_LIMIT": "4K"]) { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            let big = TestImages.png(width: 40, height: 40)
            #expect(big.count > 4096)
            let problem = try client.call("PUT", Self.path(id, 1), body: big, headers: Self.png).problem(413)
            #expect(problem.string("detail")?.contains("4096") == true)
            try server.client().call("GET", Self.path(id, 1)).problem(404)
        }
        try withServer(environment: ["TAPTRACE_SCREENSHOT_LIMIT": "512"]) { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            let exactly = TestImages.png(width: 12, height: 12)
            #expect(exactly.count == 512)
            #expect(try client.call("PUT", Self.path(id, 1), body: exactly, headers: Self.png).status == 201)
            try client.call("PUT", Self.path(id, 1), body: TestImages.png(width: 13, height: 12), headers: Self.png).problem(413)
        }
    }

    @Test func screenshotLimitAboveTheBodyLimitOrMalformedStopsTheServer() throws {
        for arguments in [["--screenshot-limit", "16M"], ["--body-limit", "2K", "--screenshot-limit", "3K"],
                          ["--screenshot-limit", "big"], ["--screenshot-limit", "0"]] {
            let bad = Process()
            bad.executableURL = try ServerProcess.binary()
            bad.arguments = ["serve", "--port", "0", "--db", ":memory:"] + arguments
            let stderr = Pipe()
            bad.standardError = stderr
            bad.standardOutput = Pipe()
            try bad.run()
            let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            bad.waitUntilExit()
            #expect(bad.terminationStatus != 0, "\(arguments)")
            #expect(message.contains("screenshot limit"), "\(arguments): \(message)")
        }
    }

    @Test func unknownScenesAndVersionsAre404() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            let image = TestImages.png(width: 2, height: 2)
            let missingVersion = try client.call("PUT", Self.path(id, 2), body: image, headers: Self.png).problem(404)
            #expect(missingVersion.string("detail") == "Scene \(id) has no version 2.")
            try client.call("PUT", Self.path("scn_aaaaaaaaaaaa", 1), body: image, headers: Self.png).problem(404)
            try client.call("PUT", "/v1/scenes/nonsense/versions/1/screenshot", body: image, headers: Self.png).problem(404)
            for version in ["0", "-1", "two", "99999999999999999999"] {
                let problem = try client.call("PUT", "/v1/scenes/\(id)/versions/\(version)/screenshot", body: image,
                                              headers: Self.png).problem(404)
                #expect(problem.string("detail")?.contains("has no version \(version)") == true)
            }
            try client.call("GET", Self.path(id, 2)).problem(404)
            try client.call("DELETE", Self.path(id, 2)).problem(404)
            try client.call("GET", Self.path("scn_aaaaaaaaaaaa", 1)).problem(404)
            // The version exists but has no screenshot.
            let none = try client.call("GET", Self.path(id, 1)).problem(404)
            #expect(none.string("detail") == "Scene \(id) version 1 has no screenshot.")
            try client.call("DELETE", Self.path(id, 1)).problem(404)
        }
    }

    @Test func deletingRemovesOnlyTheScreenshot() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            #expect(try client.call("PUT", Self.path(id, 1), body: TestImages.png(width: 2, height: 2), headers: Self.png).status == 201)
            let deleted = try client.call("DELETE", Self.path(id, 1))
            #expect(deleted.status == 204)
            #expect(deleted.body.isEmpty)
            try client.call("GET", Self.path(id, 1)).problem(404)
            try client.call("DELETE", Self.path(id, 1)).problem(404)
            #expect(try client.call("GET", "/v1/scenes/\(id)").status == 200)
        }
    }

    @Test func deletingTheSceneDeletesItsScreenshots() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            #expect(try client.call("PUT", "/v1/scenes/\(id)", body: try Fixtures.checkoutV2Scene()).status == 200)
            let other = try client.createScene(try Fixtures.checkoutScene())
            for version in [1, 2] {
                #expect(try client.call("PUT", Self.path(id, version), body: TestImages.png(width: version, height: 1),
                                        headers: Self.png).status == 201)
            }
            #expect(try client.call("PUT", Self.path(other, 1), body: TestImages.png(width: 9, height: 9), headers: Self.png).status == 201)
            #expect(try client.call("DELETE", "/v1/scenes/\(id)").status == 204)
            for version in [1, 2] {
                let gone = try client.call("GET", Self.path(id, version)).problem(404)
                #expect(gone.string("detail") == "Scene \(id) not found.")
            }
            #expect(try client.call("GET", Self.path(other, 1)).body == TestImages.png(width: 9, height: 9))
        }
    }

    @Test func versionDocumentsDescribeTheScreenshotOnlyWhenThereIsOne() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            #expect(try client.call("PUT", "/v1/scenes/\(id)", body: try Fixtures.checkoutV2Scene()).status == 200)
            let sceneBefore = try client.call("GET", "/v1/scenes/\(id)").body
            let firstBefore = try client.call("GET", "/v1/scenes/\(id)?version=1").body
            let versionsBefore = try client.call("GET", "/v1/scenes/\(id)/versions").body

            let image = TestImages.jpegBaseline39x84
            let put = try client.call("PUT", Self.path(id, 2), body: image, headers: Self.jpeg).object()

            let scene = try client.call("GET", "/v1/scenes/\(id)").object()
            let screenshot = try #require(scene.object("screenshot"))
            #expect(Set(screenshot.keys) == ["mediaType", "width", "height", "bytes", "sha256", "createdAt", "href"])
            #expect(screenshot.string("mediaType") == "image/jpeg")
            #expect(screenshot.int("width") == 39 && screenshot.int("height") == 84)
            #expect(screenshot.int("bytes") == image.count)
            #expect(screenshot.string("sha256") == (try Self.sha256(image)))
            #expect(screenshot.string("href") == Self.path(id, 2))
            #expect(screenshot.string("createdAt") == put.string("createdAt"))
            // Version 1 has none: its document is as it was.
            #expect(try client.call("GET", "/v1/scenes/\(id)?version=1").body == firstBefore)

            let versions = try client.call("GET", "/v1/scenes/\(id)/versions").object().array("items")
            #expect(versions.map { $0.int("version") } == [1, 2])
            #expect(versions[0]["screenshot"] == nil)
            #expect(versions[1].object("screenshot")?.int("width") == 39)
            #expect(versions[1].object("screenshot")?.string("href") == Self.path(id, 2))

            // Without it again, every document is byte for byte the one before.
            #expect(try client.call("DELETE", Self.path(id, 2)).status == 204)
            #expect(try client.call("GET", "/v1/scenes/\(id)").body == sceneBefore)
            #expect(try client.call("GET", "/v1/scenes/\(id)/versions").body == versionsBefore)
        }
    }
}
