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
        let knobs = index.knobs.applying(overrides)
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
}
