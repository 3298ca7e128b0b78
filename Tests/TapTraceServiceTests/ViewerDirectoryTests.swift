import Foundation
import Testing
import TapTraceStore
import TestSupport
@testable import TapTraceService

/// `TAPTRACE_VIEWER_DIR`: the viewer's files served from a directory on disk (for editing the
/// viewer without rebuilding), with the embedded files' Content-Types, tags and policy.
@Suite struct ViewerDirectoryTests {
    /// A viewer directory holding `files`, inside a parent that holds `secret.js` (which no
    /// request may reach).
    struct Checkout {
        let root: TemporaryDirectory
        let viewer: URL

        init(_ files: [String: String]) throws {
            root = try TemporaryDirectory()
            viewer = root.url.appendingPathComponent("viewer", isDirectory: true)
            try FileManager.default.createDirectory(at: viewer, withIntermediateDirectories: true)
            try Data("export const secret = 1;\n".utf8).write(to: root.url.appendingPathComponent("secret.js"))
            for (name, text) in files { try write(name, text) }
        }

        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: viewer.appendingPathComponent(name))
        }
    }

    static func tag(_ text: String) -> String {
        "\"" + ContentHash.sha256Hex(Array(text.utf8)).prefix(32) + "\""
    }

    @Test func filesComeFromTheDirectoryWithTheirTypesTagsAndPolicy() throws {
        let page = "<!doctype html><title>dev</title><script type=\"module\" src=\"/viewer/main.js\"></script>\n"
        let files = ["index.html": page, "main.js": "console.log('dev');\n", "viewer.css": "body { margin: 0; }\n",
                     "icon.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n", "notes.txt": "not served\n"]
        let checkout = try Checkout(files)
        defer { checkout.root.remove() }
        try withServer(environment: ["TAPTRACE_VIEWER_DIR": checkout.viewer.path]) { server in
            let client = try server.client()
            let index = try client.call("GET", "/")
            #expect(index.status == 200)
            #expect(index.bodyText == page)
            #expect(index.header("Content-Type") == "text/html; charset=utf-8")
            #expect(index.header("Content-Security-Policy") == ViewerAssets.contentSecurityPolicy)
            #expect(index.header("Cache-Control") == "no-cache")
            #expect(index.header("ETag") == Self.tag(page))
            let types = ["main.js": "text/javascript; charset=utf-8", "viewer.css": "text/css; charset=utf-8",
                         "icon.svg": "image/svg+xml"]
            for (name, type) in types {
                let response = try client.call("GET", "/viewer/\(name)")
                #expect(response.status == 200, "\(name)")
                #expect(response.header("Content-Type") == type, "\(name)")
                #expect(response.bodyText == files[name], "\(name)")
                #expect(response.header("ETag") == Self.tag(files[name]!), "\(name)")
                #expect(response.header("Content-Security-Policy") == nil, "\(name)")
            }
            // A kind of file the service has no Content-Type for is not served, as when embedded.
            try client.call("GET", "/viewer/notes.txt").problem(404)
        }
    }

    @Test func anEditShowsOnTheNextRequestWithANewTag() throws {
        let checkout = try Checkout(["index.html": "<p>one</p>\n", "main.js": "export const n = 1;\n"])
        defer { checkout.root.remove() }
        try withServer(environment: ["TAPTRACE_VIEWER_DIR": checkout.viewer.path]) { server in
            let client = try server.client()
            let first = try client.call("GET", "/viewer/main.js")
            let etag = try #require(first.header("ETag"))
            #expect(try client.call("GET", "/viewer/main.js", headers: [("If-None-Match", etag)]).status == 304)

            try checkout.write("main.js", "export const n = 2;\n")
            let edited = try client.call("GET", "/viewer/main.js", headers: [("If-None-Match", etag)])
            #expect(edited.status == 200)
            #expect(edited.bodyText == "export const n = 2;\n")
            #expect(edited.header("ETag") == Self.tag("export const n = 2;\n"))
            // A file added while the server runs is served too.
            try checkout.write("layers.js", "export {};\n")
            #expect(try client.call("GET", "/viewer/layers.js").status == 200)
        }
    }

    @Test func aFileMissingThereIs404EvenWhenTheBinaryHasIt() throws {
        let checkout = try Checkout(["index.html": "<p>dev</p>\n"])
        defer { checkout.root.remove() }
        #expect(EmbeddedViewer.files.contains { $0.name == "canvas.js" })
        try withServer(environment: ["TAPTRACE_VIEWER_DIR": checkout.viewer.path]) { server in
            let client = try server.client()
            try client.call("GET", "/viewer/canvas.js").problem(404)
            // Nothing outside the directory, nor the directory itself, nor a hidden file.
            try client.call("GET", "/viewer/..%2Fsecret.js").problem(404)
            try client.call("GET", "/viewer/%2E%2E%2Fsecret.js").problem(404)
            try client.call("GET", "/viewer/..").problem(404)
            try client.call("GET", "/viewer/.").problem(404)
            try checkout.write(".hidden.js", "export {};\n")
            try client.call("GET", "/viewer/.hidden.js").problem(404)
            try client.call("GET", "/viewer/a/index.html").problem(404)
        }
    }

    @Test func plainFileNames() {
        for name in ["main.js", "virtual-list.js", "under_point.js", "icon.svg"] {
            #expect(ViewerAssets.isPlainFileName(name), "\(name)")
        }
        for name in ["", ".", "..", "../x.js", "..%2Fx.js", "a/b.js", "a\\b.js", ".env", "x.js\u{0}", "é.js"] {
            #expect(!ViewerAssets.isPlainFileName(name), "\(name)")
        }
    }
}
