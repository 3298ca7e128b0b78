import TapTraceCore

/// The last step of every importer: the scene must pass the engine's validation. An importer
/// builds valid scenes by construction; should one slip through, the input is refused at the
/// line and column of the view at fault rather than handed on half-valid.
enum ImportedScene {
    /// `locations[v]`: byte offset in the input where view `v` came from.
    static func check(_ scene: Scene, locations: [Int], src: SourceText) throws(ImportError) {
        let issues = SceneValidator.validate(scene)
        guard let first = issues.issues.first else { return }
        // The view whose pointer is the longest prefix of the issue's pointer.
        var best: (view: Int, length: Int)?
        for v in scene.views.indices {
            let p = SceneValidator.pointer(ofView: v, in: scene)
            if first.pointer == p || first.pointer.hasPrefix(p + "/"), p.count > (best?.length ?? -1) {
                best = (v, p.count)
            }
        }
        let offset = best.map { locations[$0.view] } ?? src.contentStart
        throw src.error(at: offset, "the imported scene is not valid: \(first.description)")
    }
}
