import TapTraceCore

/// A scene as an importer built it, before its ids are final: views are named
/// `Class-0xADDRESS` (or `Class-<n>`), view controllers and recognizers that the debugger's
/// add-ons joined likewise. `finish` names everything as the options ask, validates, and hands
/// out the result; every importer ends there, so all formats name and check alike.
struct ImportDraft {
    let src: SourceText
    var scene = Scene()
    var warnings = ImportWarnings()
    /// `locations[v]`: byte offset in the input where view `v` came from.
    var locations: [Int] = []
    /// Views whose line says `gestureRecognizers = <NSArray …>`: warned about unless the
    /// add-ons described their recognizers.
    var viewsWithUndescribedRecognizers: [Int] = []
    /// Warnings that head the list whatever their weight (what kind of tree this is).
    var preamble: [String] = []

    init(src: SourceText) { self.src = src }

    mutating func add(_ spec: ViewSpec, to parent: Int?, at offset: Int) -> Int {
        locations.append(offset)
        return scene.add(spec, to: parent)
    }

    mutating func finish(_ options: ImportOptions) throws(ImportError) -> ImportResult {
        for v in viewsWithUndescribedRecognizers where scene.views[v].gestureRecognizers == nil {
            warnings.add("views with gesture recognizers the dump does not describe (gestureRecognizers = <NSArray …>); paste `po view.gestureRecognizers` after the hierarchy, or add them to the scene, if they matter", view: v, "", .behaviour)
        }
        if options.ids == .stable { ImportIdentity.assignStableIds(&scene) }
        if let name = options.name { scene.name = name }
        try ImportedScene.check(scene, locations: locations, src: src)
        let views = scene.views
        let list = warnings.list { v in
            let view = views[v]
            guard let address = view.address, !view.id.contains(address) else { return view.id }
            return "\(view.id) (\(address))"
        }
        return ImportResult(scene: scene, warnings: preamble + list)
    }
}
