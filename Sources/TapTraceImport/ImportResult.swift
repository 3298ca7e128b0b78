import TapTraceCore
import TapTraceFormats
import TapTraceJSON

/// What an importer produced: a scene that passes `SceneValidator`, and what the dump did not
/// say or the importer had to assume, in plain words.
public struct ImportResult: Sendable {
    public var scene: Scene
    public var warnings: [String]
    /// The importer that read the dump (set by `ImportFormat.parse`).
    public var format: ImportFormat?

    public init(scene: Scene, warnings: [String]) {
        self.scene = scene; self.warnings = warnings
    }

    /// The scene document alone (`taptrace/scene@1`).
    public func sceneJSON(indent: Int = 0) -> [UInt8] {
        SceneEncoder.encode(scene, indent: indent)
    }

    /// `{"format": "recursive-description", "scene": <scene document>, "warnings": ["…", …]}`.
    public func json(indent: Int = 0) -> [UInt8] {
        var w = JSONWriter(indent: indent, reserving: 256 + scene.views.count * 96)
        w.beginObject()
        if let format { w.key("format"); w.string(format.rawValue) }
        w.key("scene")
        SceneEncoder.write(scene, to: &w)
        w.key("warnings")
        w.strings(warnings)
        w.endObject()
        return w.bytes
    }
}
