import Foundation
import TapTraceHTTP
import TapTraceStore

/// The trace viewer's files, ready to serve: bytes, Content-Type and an entity tag from a hash
/// of the content. They come from the binary (viewer/, compiled in by the EmbedFiles build
/// plugin), computed once; or, when `TAPTRACE_VIEWER_DIR` names a directory, from that
/// directory, read again on every request, so a viewer edit shows on reload without a build.
struct ViewerAssets: Sendable {
    struct Asset: Sendable {
        var contentType: String
        var body: [UInt8]
        /// A strong entity tag: the first 128 bits of the content's SHA-256, so a changed file
        /// (a new binary) is never answered 304 from an old copy.
        var etag: String

        /// `body` served as `name` is served, or nil when its extension has no Content-Type.
        init?(name: String, body: [UInt8]) {
            guard let dot = name.lastIndex(of: "."),
                  let contentType = ViewerAssets.contentTypes[String(name[name.index(after: dot)...])] else { return nil }
            self.contentType = contentType
            self.body = body
            self.etag = "\"" + ContentHash.sha256Hex(body).prefix(32) + "\""
        }
    }

    /// Where the files come from.
    enum Source: Sendable {
        case embedded([String: Asset])
        /// A development checkout's `viewer/`: whatever is on disk now.
        case directory(URL)
    }

    /// The environment variable that points the service at a viewer directory on disk.
    static let directoryVariable = "TAPTRACE_VIEWER_DIR"

    /// The page itself may load only what the service serves: no CDN, no inline script, no
    /// other origin. A violation shows up as a console error in the browser test.
    static let contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    static let shared: ViewerAssets = {
        if let path = ProcessInfo.processInfo.environment[directoryVariable], !path.isEmpty {
            return ViewerAssets(directory: URL(fileURLWithPath: path, isDirectory: true))
        }
        return ViewerAssets(EmbeddedViewer.files)
    }()

    /// What each kind of file is served as. JavaScript modules must have a JavaScript type or
    /// the browser refuses them; a file of another kind in viewer/ is not served.
    static let contentTypes = [
        "html": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "svg": "image/svg+xml",
    ]

    let source: Source

    init(_ files: [(name: String, text: String)]) {
        var assets: [String: Asset] = [:]
        for file in files {
            if let asset = Asset(name: file.name, body: Array(file.text.utf8)) { assets[file.name] = asset }
        }
        source = .embedded(assets)
    }

    init(directory: URL) {
        source = .directory(directory)
    }

    /// The file called `name`, or nil. From a directory only a plain file name is looked up
    /// (letters, digits, `.`, `-`, `_`; no leading dot), so no request can reach a file
    /// outside it.
    func asset(named name: String) -> Asset? {
        switch source {
        case .embedded(let assets):
            return assets[name]
        case .directory(let directory):
            guard Self.isPlainFileName(name) else { return nil }
            let url = directory.appendingPathComponent(name, isDirectory: false)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                  let data = FileManager.default.contents(atPath: url.path) else { return nil }
            return Asset(name: name, body: Array(data))
        }
    }

    static func isPlainFileName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first != "." else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", ".", "-", "_": return true
            default: return false
            }
        }
    }

    /// The response for `name`: the file, 304 when `If-None-Match` names its current tag, or a
    /// 404 problem.
    func response(for name: String, request: HTTPRequest) -> HTTPResponse {
        guard let asset = asset(named: name) else {
            return .problem(.notFound("The viewer has no file \(name)."))
        }
        var headers: HTTPHeaders = [
            "ETag": asset.etag,
            // Always revalidate: a new binary may carry a new viewer under the same names,
            // and a revalidation costs one 304.
            "Cache-Control": "no-cache",
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
        ]
        if Self.matches(request.header("If-None-Match"), etag: asset.etag) {
            return HTTPResponse(status: 304, headers: headers)
        }
        headers["Content-Type"] = asset.contentType
        if asset.contentType.hasPrefix("text/html") {
            headers["Content-Security-Policy"] = Self.contentSecurityPolicy
        }
        return HTTPResponse(status: 200, headers: headers, body: asset.body)
    }

    /// `If-None-Match` uses the weak comparison (RFC 9110 §13.1.2): `W/` is ignored, `*` matches.
    static func matches(_ field: String?, etag: String) -> Bool {
        guard let field else { return false }
        for part in field.split(separator: ",") {
            var tag = part.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            if tag == etag { return true }
        }
        return false
    }
}
