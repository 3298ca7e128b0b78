import Foundation
import TapTraceCore
import TapTraceHTTP
import TapTraceJSON
import TapTraceStore

/// A scene version's screenshot: `PUT`, `GET` and `DELETE /v1/scenes/{id}/versions/{n}/screenshot`.
///
/// The body of a PUT is the image file itself (PNG or JPEG, as its Content-Type says and its
/// magic bytes confirm), at most the server's screenshot limit; its size in pixels is read from
/// its header. A GET answers the stored bytes under the stored media type.
extension TapTraceService {
    static let screenshotPath = "/v1/scenes/{id}/versions/{n}/screenshot"

    func addScreenshotRoutes(to router: Router) {
        router.put(Self.screenshotPath, handler: handler(.light) { [self] request, parameters in
            let (id, version) = try Self.screenshotTarget(parameters)
            let body = try ScreenshotBody(request, limit: screenshotLimit)
            // Hashing and writing megabytes takes a while: off the worker thread, whose other
            // connections would wait meanwhile (a deferred response, as DELETE /v1/scenes does).
            return answered(on: .global(), for: request) { [store] in
                let stored = try store.putScreenshot(sceneID: id, version: version, body.screenshot)
                var response = HTTPResponse.jsonBytes(
                    Representations.screenshot(stored.info), status: stored.replaced ? 200 : 201)
                response.headers["Location"] = Self.screenshotLocation(id, version)
                response.headers["ETag"] = Self.screenshotETag(stored.info)
                return response
            }
        })

        router.get(Self.screenshotPath, handler: handler(.light) { [store] request, parameters in
            let (id, version) = try Self.screenshotTarget(parameters)
            // The tag first, from the metadata: a revalidation that matches never reads the image.
            guard let info = try store.screenshotInfo(sceneID: id, version: version) else {
                throw try Self.noScreenshot(store, id, version)
            }
            if Self.matches(request.header("If-None-Match"), etag: Self.screenshotETag(info)) {
                return HTTPResponse(status: 304, headers: Self.screenshotHeaders(info))
            }
            // Replaced or deleted since the metadata was read: answer what is stored now.
            guard let screenshot = try store.screenshot(sceneID: id, version: version) else {
                throw Self.noScreenshotProblem(id, version)
            }
            var headers = Self.screenshotHeaders(screenshot.info)
            headers["Content-Type"] = screenshot.mediaType
            return HTTPResponse(status: 200, headers: headers, body: [UInt8](screenshot.image))
        })

        router.delete(Self.screenshotPath, handler: handler(.light) { [store] _, parameters in
            let (id, version) = try Self.screenshotTarget(parameters)
            guard try store.deleteScreenshot(sceneID: id, version: version) else {
                throw Self.noScreenshotProblem(id, version)
            }
            return .empty(status: 204)
        })
    }

    /// The scene id and version of the path; ids and versions that cannot exist are 404 without
    /// a database round trip.
    static func screenshotTarget(_ parameters: [String: String]) throws(Problem) -> (String, Int) {
        let id = try requireSceneID(parameters["id"])
        let text = parameters["n"] ?? ""
        guard let version = Int(text), version >= 1 else {
            throw Problem.notFound("Scene \(id) has no version \(text); versions are numbered from 1.")
        }
        return (id, version)
    }

    static func screenshotLocation(_ id: String, _ version: Int) -> String {
        "/v1/scenes/\(id)/versions/\(version)/screenshot"
    }

    /// The image's entity tag: the first 128 bits of its SHA-256, quoted (strong: equal tags
    /// mean equal bytes), as the viewer's files have theirs.
    static func screenshotETag(_ info: ScreenshotInfo) -> String {
        "\"\(info.contentHash.prefix(32))\""
    }

    /// What a 200 and a 304 both carry. `no-cache`: a version's screenshot can be replaced or
    /// deleted, so a cached copy is revalidated on every use (a 304 without the image when it
    /// is current) instead of being trusted for a while.
    static func screenshotHeaders(_ info: ScreenshotInfo) -> HTTPHeaders {
        [
            "ETag": screenshotETag(info),
            "Cache-Control": "no-cache",
            // The bytes are the client's upload: never let a browser read them as anything
            // but the stored image type.
            "X-Content-Type-Options": "nosniff",
        ]
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

    /// The 404 for a version without a screenshot, or the store's own when the scene or the
    /// version does not exist.
    static func noScreenshot(_ store: any TraceStore, _ id: String, _ version: Int) throws -> Problem {
        _ = try store.screenshot(sceneID: id, version: version)  // throws for a missing version
        return noScreenshotProblem(id, version)
    }

    static func noScreenshotProblem(_ id: String, _ version: Int) -> Problem {
        .notFound("Scene \(id) version \(version) has no screenshot.")
    }
}

/// A PUT's body checked as a screenshot: 415 unless sent as `image/png` or `image/jpeg`, 413
/// above the limit, 422 unless its magic bytes are the declared type's and its header is
/// readable.
struct ScreenshotBody {
    var screenshot: NewScreenshot

    init(_ request: HTTPRequest, limit: Int) throws(Problem) {
        let declared = try Self.format(request.header("Content-Type"))
        let body = request.body
        guard body.count <= limit else {
            throw Problem(kind: .payloadTooLarge, title: "Payload too large",
                          detail: "The screenshot is \(body.count) bytes, more than the server's screenshot limit of \(limit) bytes (--screenshot-limit).")
        }
        guard !body.isEmpty else {
            throw Self.unreadable("The body is empty: send the image file's bytes.")
        }
        if let found = ImageHeader.sniff(body), found != declared {
            throw Self.unreadable(
                "The body is a \(found.name) image, but Content-Type says \(declared.mediaType); send it as \(found.mediaType).")
        }
        let header: ImageHeader
        do throws(ImageHeader.Unreadable) {
            header = try ImageHeader.read(body, as: declared)
        } catch {
            throw Self.unreadable(error.reason)
        }
        screenshot = NewScreenshot(mediaType: declared.mediaType, width: header.width, height: header.height, image: Data(body))
    }

    /// The format a Content-Type names: `image/png` or `image/jpeg` in any case, parameters
    /// allowed (an image has no charset to check).
    static func format(_ contentType: String?) throws(Problem) -> ImageHeader.Format {
        let type = contentType.map { $0.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces).lowercased() }
        if let type, let format = ImageHeader.Format.allCases.first(where: { $0.mediaType == type }) {
            return format
        }
        let given = contentType.map { "\"\($0)\"" } ?? "no Content-Type"
        throw Problem.unsupportedMediaType(
            "A screenshot is sent as Content-Type: image/png or image/jpeg (got \(given)).")
    }

    /// 422: the body is not the image it claims to be. A `validation` problem (the document, an
    /// image here, is invalid) whose detail says where; no `errors`, as no JSON pointer applies.
    static func unreadable(_ detail: String) -> Problem {
        Problem(kind: .validation, title: "Unreadable image", detail: detail)
    }
}
