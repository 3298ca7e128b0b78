/// `taptrace audit` and `POST /v1/audit`, `POST /v1/scenes/{id}/audit` (issue 32, item 6): can
/// every interactive element of a scene be tapped?
///
/// **Interactive elements**, in the scene's document order (a view before its subviews, subviews
/// back to front), windows never:
/// - controls (a `UIControl` base);
/// - views with gesture recognizers declared in the scene (the built-in ones of scroll views do
///   not count: scrolling is not tapping);
/// - views that handle touches themselves (`overrides.touches` with a method set to `handle`);
/// - views with `targets`;
/// - elements imported from accessibility trees (class `XCUIElementType…`) with an
///   `accessibilityIdentifier`, unless their base is `UILabel` or `UIImageView` (static text and
///   images carry identifiers too, and are not meant to be tapped). A control base already
///   counts above; a label alone does not make an element interactive.
///
/// **Each element** is tested as XCUITest's `isHittable` does: its centre on screen (the centre
/// of its bounds, through every transform) is hit-tested (W1, H1–H14, without a trace) and the
/// element is hittable when the hit-test view is the element or a view inside it. When the centre
/// misses, a 3 × 3 grid inside its bounds (at 1/6, 1/2 and 5/6 of each side, so inside its quad
/// on screen) is hit-tested too: some grid points hit → `partlyReachable` (with the first such
/// point, row by row), none → `unreachable`. Before any of this, an element whose centre is
/// outside the visible bounds of its nearest enclosing scroll view but inside that scroll
/// view's content (a table row below the fold) is `offscreen`: scrolling reveals it, so it is
/// neither tested further nor counted as unreachable. Only then is `Explainer.explain` run at the centre,
/// for the reasons (which view takes the point, a pruned ancestor, a superview whose bounds end
/// before the element, …). An element with no area on screen is `unreachable` without a
/// hit-test: no point is inside empty bounds (H4).
///
/// **Small targets**: an element with an area whose size on screen is below 44 × 44 pt in
/// either direction (Apple's Human Interface Guidelines) is flagged `smallTarget`, whatever it
/// is hittable or not. It is a warning: a small target is still reachable.
public struct TappabilityAudit: Sendable {
    public enum Status: String, Sendable {
        case hittable, partlyReachable, unreachable
        /// Outside the visible part of its nearest enclosing scroll view but inside its content:
        /// scrolling brings it on screen (a table's rows below the fold). Not tested further,
        /// and not counted as unreachable.
        case offscreen
    }

    /// Why a view counts as an interactive element (several may hold; in this order).
    public enum Interaction: String, Sendable, CaseIterable {
        case control, recognizers, touches, targets, accessibility
    }

    public struct Element: Sendable {
        public var view: ObjectRef
        public var interactions: [Interaction]
        /// The centre of the element on screen.
        public var point: Point
        /// Width and height on screen (the lengths of its quad's sides).
        public var size: Size
        public var status: Status
        /// XCUITest's isHittable: the centre hit-tests to the element or a view inside it.
        public var hittable: Bool { status == .hittable }
        /// The hit-test view at the centre; nil when no view takes it (or the element has no area).
        public var hitTestView: ObjectRef?
        /// 1 when the centre hits (the grid is not sampled); otherwise the share of the nine
        /// grid points that hit.
        public var reachableFraction: Double
        /// For a partly reachable element: the first grid point that hits (a point to tap).
        public var reachablePoint: Point?
        /// Why the centre does not reach the element (Explainer's reasons, the deciding one
        /// first); empty for a hittable element.
        public var reasons: [Explanation.Reason]
        public var smallTarget: Bool
    }

    public var elements: [Element]
    public static let minimumTarget = 44.0

    public var unreachable: Int { elements.filter { $0.status == .unreachable }.count }
    public var partlyReachable: Int { elements.filter { $0.status == .partlyReachable }.count }
    public var hittableCount: Int { elements.filter { $0.status == .hittable }.count }
    public var offscreen: Int { elements.filter { $0.status == .offscreen }.count }
    public var small: Int { elements.filter { $0.smallTarget }.count }

    /// The interactions that make `v` an interactive element (empty: it is not one).
    public static func interactions(_ index: SceneIndex, _ v: Int) -> [Interaction] {
        let base = index.bases[v]
        if base == .UIWindow { return [] }
        var out: [Interaction] = []
        if base.isControl { out.append(.control) }
        if let r = index.scene.views[v].gestureRecognizers, !r.isEmpty { out.append(.recognizers) }
        if let t = index.scene.views[v].overrides?.touches,
           t.began == .handle || t.moved == .handle || t.ended == .handle || t.cancelled == .handle {
            out.append(.touches)
        }
        if let t = index.scene.views[v].targets, !t.isEmpty { out.append(.targets) }
        // The identifier first: most views have none, and the class name is not read then.
        if index.scene.views[v].accessibilityIdentifier != nil, base != .UILabel, base != .UIImageView,
           index.scene.views[v].className.hasPrefix("XCUIElementType") {
            out.append(.accessibility)
        }
        return out
    }

    public static func run(_ index: SceneIndex, knobs overrides: KnobOverrides = KnobOverrides()) -> TappabilityAudit {
        let knobs = index.knobs.applying(overrides)
        let tester = HitTester(index: index, knobs: knobs)
        var elements: [Element] = []
        for v in 0..<index.viewCount {
            let interactions = interactions(index, v)
            if interactions.isEmpty { continue }
            elements.append(audit(index, tester, v, interactions, knobs: overrides))
        }
        return TappabilityAudit(elements: elements)
    }

    private static func audit(_ index: SceneIndex, _ tester: HitTester, _ v: Int, _ interactions: [Interaction],
                              knobs: KnobOverrides) -> Element {
        let b = index.geometry[v].bounds
        let centre = index.convertToScreen(b.center, from: v)
        let c0 = index.convertToScreen(Point(b.minX, b.minY), from: v)
        let c1 = index.convertToScreen(Point(b.maxX, b.minY), from: v)
        let c3 = index.convertToScreen(Point(b.minX, b.maxY), from: v)
        func distance(_ p: Point, _ q: Point) -> Double { ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot() }
        let finite = [centre.x, centre.y, c0.x, c0.y, c1.x, c1.y, c3.x, c3.y].allSatisfy(\.isFinite)
        let size = finite ? Size(distance(c0, c1), distance(c0, c3)) : Size(0, 0)
        // Below a millionth of a point the element has no area (rounding of transforms).
        let hasArea = size.width > 1e-6 && size.height > 1e-6 && !b.isEmpty
        let small = hasArea && (size.width < minimumTarget - 1e-9 || size.height < minimumTarget - 1e-9)
        var element = Element(view: index.ref(view: v), interactions: interactions, point: finite ? centre : b.center,
                              size: size, status: .unreachable, hitTestView: nil, reachableFraction: 0,
                              reachablePoint: nil, reasons: [], smallTarget: small)

        func hit(_ p: Point) -> Int? {
            var quiet = TraceRecorder(enabled: false)
            return tester.windowHitTest(screenPoint: p, event: nil, passes: 1, trace: &quiet)?.view
        }
        func reaches(_ h: Int?) -> Bool { h.map { $0 == v || index.isDescendant($0, of: v) } ?? false }

        guard hasArea else {
            let rect = rectText(b)
            element.reasons = [Explanation.Reason(rule: "H4", kind: "zeroSize",
                text: "\(index.view(v).id) has no area on screen (bounds \(rect)\(finite ? "" : ", or a singular transform on the way up")): no point is inside it, so no tap can reach it",
                views: [index.ref(view: v)])]
            if finite { element.hitTestView = hit(centre).map { index.ref(view: $0) } }
            return element
        }

        // Below the fold of a scroll view: scrolling reveals it, no tap can reach it now.
        if let sv = index.enclosingScrollView(of: v) {
            let p = index.convertFromScreen(centre, to: sv)
            let visible = index.geometry[sv].bounds
            let content = index.view(sv).scrollView?.contentSize ?? visible.size
            if !visible.contains(p), p.x >= 0, p.y >= 0, p.x < max(content.width, visible.maxX), p.y < max(content.height, visible.maxY) {
                element.status = .offscreen
                element.hitTestView = hit(centre).map { index.ref(view: $0) }
                element.reasons = [Explanation.Reason(rule: "H6", kind: "offscreen",
                    text: "\(index.view(v).id)'s centre is \(pointText(p)) in scroll view \(index.view(sv).id)'s coordinates, outside its visible bounds \(rectText(visible)) but inside its content: scroll to bring it on screen (set contentOffset in the scene) and audit again",
                    views: [index.ref(view: sv), index.ref(view: v)])]
                return element
            }
        }

        let found = hit(centre)
        element.hitTestView = found.map { index.ref(view: $0) }
        if reaches(found) {
            element.status = .hittable
            element.reachableFraction = 1
            return element
        }
        // The centre misses: the 3 × 3 grid (the centre is its middle point, known to miss).
        var hits = 0
        for fy in [1.0 / 6, 0.5, 5.0 / 6] {
            for fx in [1.0 / 6, 0.5, 5.0 / 6] {
                if fx == 0.5 && fy == 0.5 { continue }
                let p = index.convertToScreen(Point(b.minX + b.size.width * fx, b.minY + b.size.height * fy), from: v)
                if reaches(hit(p)) {
                    hits += 1
                    if element.reachablePoint == nil { element.reachablePoint = p }
                }
            }
        }
        element.reachableFraction = Double(hits) / 9
        element.status = hits > 0 ? .partlyReachable : .unreachable
        element.reasons = (try? Explainer.explain(index, point: centre, target: index.view(v).id, knobs: knobs))?.reasons ?? []
        return element
    }

    private static func rectText(_ r: Rect) -> String {
        "(\(NumberText.format(r.minX)), \(NumberText.format(r.minY)), \(NumberText.format(r.size.width)), \(NumberText.format(r.size.height)))"
    }

    private static func pointText(_ p: Point) -> String { "(\(NumberText.format(p.x)), \(NumberText.format(p.y)))" }
}
