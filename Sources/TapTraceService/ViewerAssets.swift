import Foundation
import TapTraceHTTP
import TapTraceStore

/// The trace viewer's files (viewer/, compiled in by the EmbedFiles build plugin), ready to
/// serve: bytes, Content-Type and an entity tag from a hash of the content, computed once.
struct ViewerAssets: Sendable {
    struct Asset: Sendable {
        var contentType: String
        var body: [UInt8]
        /// A strong entity tag: the first 128 bits of the content's SHA-256, so a changed file
        /// (a new binary) is never answered 304 from an old copy.
        var etag: String
    }

    /// The page itself may load only what the service serves: no CDN, no inline script, no
    /// other origin. A violation shows up as a console error in the browser test.
    static let contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    static let shared = ViewerAssets(EmbeddedViewer.files)

    /// What each kind of file is served as. JavaScript modules must have a JavaScript type or
    /// the browser refuses them; a file of another kind in viewer/ is not served.
    static let contentTypes = [
        "html": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "svg": "image/svg+xml",
    ]

    let assets: [String: Asset]

    init(_ files: [(name: String, text: String)]) {
        var assets: [String: Asset] = [:]
        for file in files {
            guard let dot = file.name.lastIndex(of: "."),
                  let contentType = Self.contentTypes[String(file.name[file.name.index(after: dot)...])] else { continue }
            let body = Array(file.text.utf8)
            let etag = "\"" + ContentHash.sha256Hex(body).prefix(32) + "\""
            assets[file.name] = Asset(contentType: contentType, body: body, etag: etag)
        }
        self.assets = assets
    }

    /// The response for `name`: the file, 304 when `If-None-Match` names its current tag, or a
    /// 404 problem.
    func response(for name: String, request: HTTPRequest) -> HTTPResponse {
        guard let asset = assets[name] else {
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
