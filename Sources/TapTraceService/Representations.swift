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

    /// `POST`/`PUT /v1/scenes…` answer; with `document`, the `GET /v1/scenes/{id}` answer.
    static func scene(_ stored: StoredScene, includeDocument: Bool, warnings: [String]? = nil,
                      format: String? = nil) -> [UInt8] {
        var w = JSONWriter(reserving: 256 + (includeDocument ? stored.version.document.count : 0))
        w.beginObject()
        w.key("id"); w.string(stored.scene.id)
        w.key("name"); w.string(stored.scene.name)
        w.key("version"); w.number(stored.version.version)
        w.key("latestVersion"); w.number(stored.scene.latestVersion)
        w.key("createdAt"); w.string(stored.version.createdAt)
        w.key("contentHash"); w.string(stored.version.contentHash)
        w.key("counts"); writeCounts(stored.version.info, to: &w)
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

    static func versionList(_ versions: [SceneVersionInfo]) -> [UInt8] {
        var w = JSONWriter(reserving: 64 + versions.count * 200)
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
            w.endObject()
        }
        w.endArray()
        w.key("nextCursor"); w.null()
        w.endObject()
        return w.bytes
    }

    /// The summary members of a run (history items, run reads).
    static func writeRunSummaryMembers(_ run: RunSummary, to w: inout JSONWriter) {
        w.key("id"); w.string(run.id)
        w.key("sceneId"); w.string(run.sceneID)
        w.key("sceneVersion"); w.number(run.sceneVersion)
        w.key("createdAt"); w.string(run.createdAt)
        w.key("firstResponder"); w.string(run.firstResponder)
        w.key("actions"); w.raw(Array(run.actions.utf8))
        w.key("actionCount"); w.number(run.actionCount)
        w.key("outcome"); w.string(run.outcome)
        if let label = run.label { w.key("label"); w.string(label) }
    }

    static func runList(_ page: Page<RunSummary>) -> [UInt8] {
        var w = JSONWriter(reserving: 64 + page.items.count * 300)
        w.beginObject()
        w.key("items")
        w.beginArray()
        for run in page.items {
            w.beginObject()
            writeRunSummaryMembers(run, to: &w)
            w.endObject()
        }
        w.endArray()
        w.key("nextCursor"); w.string(page.nextCursor)
        w.endObject()
        return w.bytes
    }

    /// `GET /v1/runs/{id}`: the summary, the request and the result.
    static func run(_ run: RunRecord) -> [UInt8] {
        var w = JSONWriter(reserving: 400 + run.request.count + run.result.count)
        w.beginObject()
        writeRunSummaryMembers(run.summary, to: &w)
        w.key("request"); w.raw(Array(run.request))
        w.key("result"); w.raw(Array(run.result))
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

    /// A result document with `"run": {…}` added as its last member (stored dispatch). The
    /// result bytes are the ones stored; only the closing brace moves.
    static func result(_ resultBytes: [UInt8], run: RunSummary) -> [UInt8] {
        var w = JSONWriter(reserving: 160)
        w.beginObject()
        w.key("run")
        w.beginObject()
        w.key("id"); w.string(run.id)
        w.key("sceneId"); w.string(run.sceneID)
        w.key("sceneVersion"); w.number(run.sceneVersion)
        w.key("createdAt"); w.string(run.createdAt)
        w.key("outcome"); w.string(run.outcome)
        if let label = run.label { w.key("label"); w.string(label) }
        w.endObject()
        w.endObject()
        var out = resultBytes
        out.reserveCapacity(resultBytes.count + w.bytes.count)
        guard out.last == 0x7D else { return out }
        out.removeLast()
        out.append(0x2C)
        out.append(contentsOf: w.bytes.dropFirst())
        return out
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
