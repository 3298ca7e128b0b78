import Foundation
import TapTraceCore
import TapTraceJSON
import TapTraceStore

/// The JSON shapes of stored things, as openapi.yaml documents them. Stored documents (scenes,
/// requests, results, the actions column) are JSON the service wrote itself and are copied into
/// responses byte for byte, never re-encoded.
enum Representations {
    /// `{"views", "windows", "recognizers"}` of a version.
    static func writeCounts(_ info: SceneVersionInfo, to w: inout JSONWriter) {
        w.beginObject()
        w.key("views"); w.number(info.viewCount)
        w.key("windows"); w.number(info.windowCount)
        w.key("recognizers"); w.number(info.recognizerCount)
        w.endObject()
    }

    /// `POST`/`PUT /v1/scenes…` answer; with `document`, the `GET /v1/scenes/{id}` answer, which
    /// describes the version's screenshot when it has one (and has no `screenshot` otherwise).
    static func scene(_ stored: StoredScene, includeDocument: Bool, warnings: [String]? = nil,
                      format: String? = nil, screenshot: ScreenshotInfo? = nil) -> [UInt8] {
        var w = JSONWriter(reserving: 256 + (includeDocument ? stored.version.document.count : 0))
        w.beginObject()
        w.key("id"); w.string(stored.scene.id)
        w.key("name"); w.string(stored.scene.name)
        w.key("version"); w.number(stored.version.version)
        w.key("latestVersion"); w.number(stored.scene.latestVersion)
        w.key("createdAt"); w.string(stored.version.createdAt)
        w.key("contentHash"); w.string(stored.version.contentHash)
        w.key("counts"); writeCounts(stored.version.info, to: &w)
        if let screenshot { w.key("screenshot"); writeScreenshot(screenshot, to: &w) }
        if let format { w.key("format"); w.string(format) }
        if includeDocument {
            w.key("scene"); w.raw(Array(stored.version.document))
        }
        if let warnings { w.key("warnings"); w.strings(warnings) }
        w.endObject()
        return w.bytes
    }

    static func sceneList(_ page: Page<SceneRecord>) -> [UInt8] {
        var w = JSONWriter(reserving: 64 + page.items.count * 160)
        w.beginObject()
        w.key("items")
        w.beginArray()
        for s in page.items {
            w.beginObject()
            w.key("id"); w.string(s.id)
            w.key("name"); w.string(s.name)
            w.key("latestVersion"); w.number(s.latestVersion)
            w.key("createdAt"); w.string(s.createdAt)
            w.key("updatedAt"); w.string(s.updatedAt)
            w.endObject()
        }
        w.endArray()
        w.key("nextCursor"); w.string(page.nextCursor)
        w.endObject()
        return w.bytes
    }

    /// `GET /v1/scenes/{id}/versions`; a version with a screenshot (in `screenshots`, by version
    /// ascending as the store lists them) describes it.
    static func versionList(_ versions: [SceneVersionInfo], screenshots: [ScreenshotInfo] = []) -> [UInt8] {
        var w = JSONWriter(reserving: 64 + versions.count * 200 + screenshots.count * 200)
        var screenshots = screenshots[...]
        w.beginObject()
        w.key("items")
        w.beginArray()
        for v in versions {
            w.beginObject()
            w.key("version"); w.number(v.version)
            w.key("createdAt"); w.string(v.createdAt)
            w.key("contentHash"); w.string(v.contentHash)
            w.key("counts"); writeCounts(v, to: &w)
            w.key("size"); w.number(v.documentSize)
            while let first = screenshots.first, first.version < v.version { screenshots.removeFirst() }
            if let screenshot = screenshots.first, screenshot.version == v.version {
                w.key("screenshot"); writeScreenshot(screenshot, to: &w)
            }
            w.endObject()
        }
        w.endArray()
        w.key("nextCursor"); w.null()
        w.endObject()
        return w.bytes
    }

    /// `{"mediaType", "width", "height", "bytes", "sha256", "createdAt", "href"}`: a version's
    /// screenshot without its image (`href` fetches it).
    static func writeScreenshot(_ info: ScreenshotInfo, to w: inout JSONWriter) {
        w.beginObject()
        writeScreenshotMembers(info, to: &w)
        w.endObject()
    }

    static func writeScreenshotMembers(_ info: ScreenshotInfo, to w: inout JSONWriter) {
        w.key("mediaType"); w.string(info.mediaType)
        w.key("width"); w.number(info.width)
        w.key("height"); w.number(info.height)
        w.key("bytes"); w.number(info.byteSize)
        w.key("sha256"); w.string(info.contentHash)
        w.key("createdAt"); w.string(info.createdAt)
        w.key("href"); w.string("/v1/scenes/\(info.sceneID)/versions/\(info.version)/screenshot")
    }

    /// The answer of `PUT …/versions/{n}/screenshot`: `{"sceneId", "sceneVersion", …}` and the
    /// screenshot's members.
    static func screenshot(_ info: ScreenshotInfo) -> [UInt8] {
        var w = JSONWriter(reserving: 384)
        w.beginObject()
        w.key("sceneId"); w.string(info.sceneID)
        w.key("sceneVersion"); w.number(info.version)
        writeScreenshotMembers(info, to: &w)
        w.endObject()
        return w.bytes
    }

    /// The summary members of a run (history items, run reads). `firstResponder` is the
    /// `{id, class}` object the result has (`firstResponderClass`: the class of that view in the
    /// run's scene version), or null.
    static func writeRunSummaryMembers(_ run: RunSummary, firstResponderClass: String?, to w: inout JSONWriter) {
        w.key("id"); w.string(run.id)
        w.key("sceneId"); w.string(run.sceneID)
        w.key("sceneVersion"); w.number(run.sceneVersion)
        w.key("createdAt"); w.string(run.createdAt)
        if let label = run.label { w.key("label"); w.string(label) }
        w.key("firstResponder")
        if let id = run.firstResponder {
            w.beginObject()
            w.key("id"); w.string(id)
            w.key("class"); w.string(firstResponderClass ?? id)
            w.endObject()
        } else {
            w.null()
        }
        w.key("actions"); w.raw(Array(run.actions.utf8))
        w.key("actionCount"); w.number(run.actionCount)
        w.key("outcome"); w.string(run.outcome)
    }

    static func runList(_ page: Page<RunSummary>, firstResponderClass: (RunSummary) -> String?) -> [UInt8] {
        var w = JSONWriter(reserving: 64 + page.items.count * 300)
        w.beginObject()
        w.key("items")
        w.beginArray()
        for run in page.items {
            w.beginObject()
            writeRunSummaryMembers(run, firstResponderClass: firstResponderClass(run), to: &w)
            w.endObject()
        }
        w.endArray()
        w.key("nextCursor"); w.string(page.nextCursor)
        w.endObject()
        return w.bytes
    }

    /// A run: its summary, the request and the result. `GET /v1/runs/{id}` and the stored
    /// dispatch answer with this same document (issue 32: one shape for a run).
    static func run(_ run: RunSummary, firstResponderClass: String?, request: [UInt8], result: [UInt8]) -> [UInt8] {
        var w = JSONWriter(reserving: 400 + request.count + result.count)
        w.beginObject()
        writeRunSummaryMembers(run, firstResponderClass: firstResponderClass, to: &w)
        w.key("request"); w.raw(request)
        w.key("result"); w.raw(result)
        w.endObject()
        return w.bytes
    }

    /// `{"id", "sceneId", "sceneVersion", "createdAt", "label"?}`: a run named inside another
    /// answer (compare).
    static func writeRunReference(_ run: RunSummary, to w: inout JSONWriter) {
        w.beginObject()
        w.key("id"); w.string(run.id)
        w.key("sceneId"); w.string(run.sceneID)
        w.key("sceneVersion"); w.number(run.sceneVersion)
        w.key("createdAt"); w.string(run.createdAt)
        if let label = run.label { w.key("label"); w.string(label) }
        w.endObject()
    }

    /// `{"sceneId": …, "sceneVersion": N, …the members of object…}`.
    static func prefixed(sceneID: String, version: Int, object: [UInt8]) -> [UInt8] {
        var w = JSONWriter(reserving: object.count + 64)
        w.beginObject()
        w.key("sceneId"); w.string(sceneID)
        w.key("sceneVersion"); w.number(version)
        var out = w.bytes
        if object.count > 2 { out.append(0x2C) }
        out.append(contentsOf: object.dropFirst())
        return out
    }
}
