/// The scene the candidates are verified on: the part of the question's scene that a dispatch
/// of the run's touches can reach, with every object it refers to.
///
/// Verifying a candidate validates and indexes the edited scene, which costs in proportion to
/// the scene: on a 1,000-view screen that was several dispatches per candidate. But a dispatch
/// only reaches views whose every ancestor takes a touch's point: a view that does not contain
/// the point (H4) never asks its subviews (H1 step 2, H6), so their subtrees cannot change the
/// hit-test view, the recognizers collected (G1, G2), the responder chain or anything after.
/// The verification scene keeps
///
/// - every window, and every view that contains one of the touches' began points and whose
///   ancestors all do (a view with a `pointInside:` override counts as containing it, and so do
///   all its subviews: an edit may remove it, and `orSubviews` reads them). A subview that does
///   not contain the point answers nil whatever it is (H1 step 2; a `hitTest:` override acts
///   only on a non-nil answer of super, H8), so leaving it out changes only the hit-test calls
///   of a trace, which verifying does not read;
/// - the whole subtree of a view a candidate moves or resizes;
/// - every object referred to by what is kept (targets, delegates, `requireToFail`,
///   `nextResponder`, `presentedBy`, `hitTest` redirects, `gestureRecognizerShouldBegin:`
///   answers, the focused responder) and by the candidates, with its ancestors;
///
/// in document order, ids unchanged, so its runs give the same summaries as the full scene's
/// (`WhatIfTests` checks that they do, candidate by candidate). Small scenes are used whole.
struct WhatIfScene {
    let scene: Scene
    private let viewsById: [String: Int]
    private let recognizersById: [String: (Int, Int)]

    /// Scenes with at most this many views are verified whole.
    static let wholeSceneLimit = 64

    init(index: SceneIndex, records: [TouchRecord], candidates: [WhatIfCandidate], wholeSceneLimit: Int = wholeSceneLimit) {
        let full = index.scene
        let reduced: Scene
        if full.views.count <= wholeSceneLimit {
            reduced = full
        } else {
            var points: [Point] = []
            for r in records { for c in r.touches where c.phase == .began { if let p = c.at { points.append(p) } } }
            var open = Set<Int>()
            var ids: [String] = []
            for c in candidates {
                open.formUnion(c.openViews)
                for e in c.edits { ids.append(e.objectId); ids.append(contentsOf: e.referencedIds) }
            }
            reduced = WhatIfScene.reduce(index, points: points, open: open, keepIds: ids)
        }
        scene = reduced
        var views: [String: Int] = [:]
        var recognizers: [String: (Int, Int)] = [:]
        views.reserveCapacity(reduced.views.count)
        for (v, spec) in reduced.views.enumerated() {
            views[spec.id] = v
            for (k, gr) in (spec.gestureRecognizers ?? []).enumerated() { recognizers[gr.id] = (v, k) }
        }
        viewsById = views
        recognizersById = recognizers
    }

    /// The scene with `edits`; nil when one names an object the scene does not have (one the
    /// dispatch cannot reach, so the edit could not change its outcome).
    func applying(_ edits: [WhatIfEdit]) -> Scene? {
        var s = scene
        for e in edits {
            guard e.apply(to: &s, viewIndex: { viewsById[$0] }, recognizerAt: { recognizersById[$0] }) else { return nil }
        }
        return s
    }

    // MARK: reduction

    static func reduce(_ index: SceneIndex, points: [Point], open forced: Set<Int>, keepIds: [String]) -> Scene {
        let full = index.scene
        let n = full.views.count
        var kept = [Bool](repeating: false, count: n)
        var follow: [Int] = []
        func keep(_ v: Int) {
            var current: Int? = v
            while let c = current, !kept[c] {
                kept[c] = true
                follow.append(c)
                current = full.views[c].superview
            }
        }
        // What hit-testing can reach (H1, H4, H6). `points` are in the superview's coordinates.
        func contains(_ v: Int, _ points: [Point]) -> Bool {
            let g = index.geometry[v]
            return points.contains { g.bounds.contains(g.convertFromSuperview($0)) }
        }
        var stack: [(Int, [Point])] = full.windows.map { ($0, points) }
        while let (v, outer) = stack.popLast() {
            keep(v)
            if forced.contains(v) {
                var sub = [v]
                while let s = sub.popLast() { for c in index.subviews(s) { keep(c); sub.append(c) } }
                continue
            }
            let overridden = index.pointInsideOverrides[v] != nil
            guard overridden || contains(v, outer) else { continue }
            let g = index.geometry[v]
            let inner = outer.map { g.convertFromSuperview($0) }
            for c in index.subviews(v)
            where overridden || forced.contains(c) || index.pointInsideOverrides[c] != nil || contains(c, inner) {
                stack.append((c, inner))
            }
        }
        // What the kept objects and the candidates refer to.
        func owner(_ id: String) -> Int? {
            switch index.directory[id] {
            case .view(let v)?, .viewController(let v)?, .recognizer(let v, _)?, .builtInRecognizer(let v, _)?,
                 .delegateObject(let v, _)?:
                return v
            case .application?, .appDelegate?, nil:
                return nil
            }
        }
        for id in keepIds { if let v = owner(id) { keep(v) } }
        if let app = full.app {
            for id in [app.focusedResponder, app.overrides?.nextResponder, app.delegate?.overrides?.nextResponder] {
                if let id, let v = owner(id) { keep(v) }
            }
        }
        while let v = follow.popLast() {
            for id in references(of: full.views[v]) { if let u = owner(id) { keep(u) } }
        }
        // The smaller scene, in document order.
        var newIndex = [Int](repeating: -1, count: n)
        var count = 0
        for v in 0..<n where kept[v] { newIndex[v] = count; count += 1 }
        var views: [ViewSpec] = []
        views.reserveCapacity(count)
        for v in 0..<n where kept[v] {
            var spec = full.views[v]
            spec.superview = spec.superview.map { newIndex[$0] }
            spec.subviews = spec.subviews.compactMap { newIndex[$0] >= 0 ? newIndex[$0] : nil }
            views.append(spec)
        }
        return Scene(name: full.name, app: full.app, knobs: full.knobs, views: views, windows: full.windows.map { newIndex[$0] })
    }

    /// Ids a view's properties refer to.
    private static func references(of spec: ViewSpec) -> [String] {
        guard spec.hasRareProperties else { return [] }
        var ids: [String] = []
        if let o = spec.overrides {
            if case .redirect(let target)? = o.hitTest { ids.append(target) }
            if let next = o.nextResponder { ids.append(next) }
            if let s = o.gestureRecognizerShouldBegin { ids.append(contentsOf: s.byRecognizer.keys) }
        }
        for t in spec.targets ?? [] { if let target = t.target { ids.append(target) } }
        if let vc = spec.viewController {
            if let p = vc.presentedBy { ids.append(p) }
            if let next = vc.overrides?.nextResponder { ids.append(next) }
        }
        for gr in spec.gestureRecognizers ?? [] {
            ids.append(contentsOf: gr.requireToFail ?? [])
            for t in gr.targets { if let target = t.target { ids.append(target) } }
            if let d = gr.delegate {
                ids.append(d.id)
                for list in [d.shouldRecognizeSimultaneouslyWith, d.shouldRequireFailureOf, d.shouldBeRequiredToFailBy] {
                    if case .ids(let others)? = list { ids.append(contentsOf: others) }
                }
            }
        }
        return ids
    }
}
