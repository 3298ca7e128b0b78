/// Where every view of a scene is on the screen, with what decides whether it can take a touch:
/// what the trace viewer draws (`GET /v1/scenes/{id}/geometry`).
///
/// The geometry comes from the engine (`SceneIndex.convertToScreen`) rather than being redone in
/// JavaScript, so the picture can never disagree with the hit-test about a transform, a scroll
/// offset or a frame solved from a transformed bounding box.
public struct ScreenLayout: Sendable {
    public struct ViewPlacement: Sendable {
        public var view: Int
        /// Maps the view's bounds coordinates to screen coordinates: [a, b, c, d, tx, ty] as in
        /// CGAffineTransform (x' = a·x + c·y + tx, y' = b·x + d·y + ty). nil when a singular
        /// transform on the way up leaves the view with no area on screen.
        public var toScreen: AffineTransform?
        /// The corners of `bounds` on screen: top-left, top-right, bottom-right, bottom-left.
        public var quad: [Point]?
        /// Why hit-testing never enters this view (H1 step 1, H2, H3, H9, Z1), and which view
        /// says so: itself or the outermost pruned ancestor (whose whole subtree is skipped).
        public var outOfPlay: (reason: PruneReason, by: Int)?
        /// 0 for a window, its superview's plus one otherwise.
        public var depth: Int
    }

    public let index: SceneIndex
    /// Document order: every view after its superview, subviews back to front, so drawing in
    /// this order within one window paints front-most views last.
    public let placements: [ViewPlacement]
    /// Windows in the order they are drawn: back to front by `windowLevel` (W1).
    public let windowsBackToFront: [Int]

    public init(_ index: SceneIndex, knobs overrides: KnobOverrides = KnobOverrides()) {
        self.index = index
        let knobs = Knobs().applying(index.scene.knobs, overrides)
        let tester = HitTester(index: index, knobs: knobs)
        var placements: [ViewPlacement] = []
        placements.reserveCapacity(index.viewCount)
        for v in 0..<index.viewCount {
            // The view's bounds → its superview's bounds, as an affine map read off three points
            // (`convertToSuperview` is affine); then composed with the superview's map, which
            // document order has already computed. Linear in the number of views at any depth.
            let g = index.geometry[v]
            let origin = g.convertToSuperview(Point(0, 0))
            let unitX = g.convertToSuperview(Point(1, 0)), unitY = g.convertToSuperview(Point(0, 1))
            let toSuperview = AffineTransform(a: unitX.x - origin.x, b: unitX.y - origin.y,
                                              c: unitY.x - origin.x, d: unitY.y - origin.y, tx: origin.x, ty: origin.y)
            var toScreen = toSuperview
            var outOfPlay: (PruneReason, Int)?
            var depth = 0
            if let superview = index.superview(v) {
                let parent = placements[superview]
                toScreen = parent.toScreen.map { Self.concatenate(toSuperview, then: $0) } ?? Self.nonFinite
                outOfPlay = parent.outOfPlay
                depth = parent.depth + 1
            }
            // The outermost pruned view is the one hit-testing stops at.
            if outOfPlay == nil, let reason = tester.pruneReason(v) { outOfPlay = (reason, v) }
            let finite = [toScreen.a, toScreen.b, toScreen.c, toScreen.d, toScreen.tx, toScreen.ty].allSatisfy(\.isFinite)
            let b = g.bounds
            let quad = finite ? [Point(b.minX, b.minY), Point(b.maxX, b.minY), Point(b.maxX, b.maxY), Point(b.minX, b.maxY)]
                .map { toScreen.apply($0) } : nil
            placements.append(ViewPlacement(view: v, toScreen: finite ? toScreen : nil, quad: quad,
                                            outOfPlay: outOfPlay, depth: depth))
        }
        self.placements = placements
        self.windowsBackToFront = index.windowsFrontToBack.reversed()
    }

    private static let nonFinite = AffineTransform(a: .nan, b: .nan, c: .nan, d: .nan, tx: .nan, ty: .nan)

    /// `first` followed by `second` (CGAffineTransformConcat(first, second)).
    static func concatenate(_ first: AffineTransform, then second: AffineTransform) -> AffineTransform {
        AffineTransform(a: second.a * first.a + second.c * first.b, b: second.b * first.a + second.d * first.b,
                        c: second.a * first.c + second.c * first.d, d: second.b * first.c + second.d * first.d,
                        tx: second.a * first.tx + second.c * first.ty + second.tx,
                        ty: second.b * first.tx + second.d * first.ty + second.ty)
    }

    /// The bounding box of every window on screen (the drawing's extent); nil when no window
    /// has an area.
    public var screenBox: Rect? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for w in index.scene.windows {
            for p in placements[w].quad ?? [] {
                minX = min(minX, p.x); minY = min(minY, p.y); maxX = max(maxX, p.x); maxY = max(maxY, p.y)
            }
        }
        guard minX <= maxX, minY <= maxY else { return nil }
        return Rect(minX, minY, maxX - minX, maxY - minY)
    }

    public func json() -> [UInt8] {
        var w = JSONWriter(reserving: 256 + placements.count * 420)
        w.beginObject()
        w.key("name"); w.string(index.scene.name)
        w.key("screen")
        if let box = screenBox { w.numbers(box.minX, box.minY, box.size.width, box.size.height) } else { w.null() }
        w.key("windows")
        w.strings(windowsBackToFront.map { index.view($0).id })
        w.key("views")
        w.beginArray()
        for p in placements { write(p, to: &w) }
        w.endArray()
        w.endObject()
        return w.bytes
    }

    private func write(_ p: ViewPlacement, to w: inout JSONWriter) {
        let v = p.view
        let spec = index.view(v)
        w.beginObject()
        w.key("id"); w.string(spec.id)
        w.key("class"); w.string(spec.className)
        w.key("base"); w.string(spec.base.rawValue)
        if let label = spec.label { w.key("label"); w.string(label) }
        w.key("superview"); w.string(index.superview(v).map { index.view($0).id })
        w.key("window"); w.string(index.view(index.windowOf[v]).id)
        w.key("depth"); w.number(p.depth)
        let bounds = index.geometry[v].bounds
        w.key("bounds"); w.numbers(bounds.minX, bounds.minY, bounds.size.width, bounds.size.height)
        let frame = index.geometry[v].frame
        w.key("frame"); w.numbers(frame.minX, frame.minY, frame.size.width, frame.size.height)
        w.key("toScreen")
        if let m = p.toScreen { w.numbers(m.a, m.b, m.c, m.d, m.tx, m.ty) } else { w.null() }
        w.key("quad")
        if let quad = p.quad {
            w.beginArray()
            for q in quad { w.numbers(q.x, q.y) }
            w.endArray()
        } else {
            w.null()
        }
        if let t = spec.transform, !t.isIdentity { w.key("transform"); w.numbers(t.a, t.b, t.c, t.d, t.tx, t.ty) }
        w.key("hidden"); w.bool(index.isHidden(v))
        w.key("alpha"); w.number(Double(index.alpha[v]))
        w.key("userInteractionEnabled"); w.bool(index.isUserInteractionEnabled(v))
        w.key("clipsToBounds"); w.bool(spec.clipsToBounds == true)
        if index.isAnimating(v) { w.key("animating"); w.bool(true) }
        if spec.base.isControl { w.key("enabled"); w.bool(index.isEnabled(v)) }
        if spec.superview == nil {
            w.key("level"); w.number(spec.level ?? 0)
            w.key("isKey"); w.bool(spec.isKey == true)
        }
        w.key("outOfPlay")
        if let (reason, by) = p.outOfPlay {
            w.beginObject()
            w.key("rule"); w.string(reason.rule)
            w.key("text"); w.string(reason.text)
            w.key("view"); w.string(index.view(by).id)
            w.endObject()
        } else {
            w.null()
        }
        w.key("recognizers")
        w.beginArray()
        for r in index.recognizers(ofView: v) { ResultEncoder.writeRef(index.recognizers[r].ref, to: &w) }
        w.endArray()
        w.key("viewController")
        if let vc = spec.viewController {
            w.beginObject()
            w.key("id"); w.string(vc.id)
            w.key("class"); w.string(vc.className)
            w.endObject()
        } else {
            w.null()
        }
        if let targets = spec.targets, !targets.isEmpty {
            w.key("actions"); w.strings(targets.map(\.action))
        }
        w.endObject()
    }
}
