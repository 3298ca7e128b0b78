/// One gesture's element target checked against the scene: where the gesture touches and
/// whether that point reaches the element (XCUITest's `isHittable`).
public struct ElementCheck: Sendable, Hashable {
    /// A reason of `Explainer.explain`, without the views it names (the text names them).
    public struct Reason: Sendable, Hashable {
        public var rule: String
        public var kind: String
        public var text: String
        public init(rule: String, kind: String, text: String) { self.rule = rule; self.kind = kind; self.text = text }
    }

    /// The gesture's index in the touches document's `gestures`.
    public var gesture: Int
    /// The view the target named (its id, whichever of id, identifier or label matched).
    public var view: String
    /// The centre of the view's bounds, on screen: where the gesture touches.
    public var point: Point
    /// Whether the point hit-tests to the view or one of its descendants.
    public var hittable: Bool
    /// The hit-test view at the point (nil: no window takes it).
    public var hitTestView: String?
    /// When not hittable: why, as `explain` gives it (the deciding reason first); else empty.
    public var reasons: [Reason]

    public init(gesture: Int, view: String, point: Point, hittable: Bool, hitTestView: String?,
                reasons: [Reason]) {
        self.gesture = gesture; self.view = view; self.point = point; self.hittable = hittable
        self.hitTestView = hitTestView; self.reasons = reasons
    }
}

/// Element targets (`{"tap": {"view": "buyButton"}}`) resolved against a scene: the touches
/// document is decoded and its phases and times checked without the scene (the scene may come
/// later in the body, or from the store), so the points of element targets are filled in here,
/// once the scene is indexed, and the gestures expanded again with them.
public enum ElementTargets {
    /// The view a name means: a view id, else the one view whose `accessibilityIdentifier` is
    /// the name, else the one view whose `label` is. Several views with the identifier (or,
    /// without one, the label) are ambiguous: the issue lists them.
    public static func view(named name: String, in index: SceneIndex) -> Result<Int, AmbiguityOrMissing> {
        if let v = index.view(withId: name) { return .success(v) }
        var byIdentifier: [Int] = [], byLabel: [Int] = []
        for v in 0..<index.viewCount {
            let spec = index.view(v)
            if spec.accessibilityIdentifier == name { byIdentifier.append(v) }
            if spec.label == name { byLabel.append(v) }
        }
        for (found, what) in [(byIdentifier, "accessibilityIdentifier"), (byLabel, "label")] where !found.isEmpty {
            if found.count == 1 { return .success(found[0]) }
            return .failure(.ambiguous(what: what, candidates: found.map { index.view($0).id }))
        }
        return .failure(.missing)
    }

    public enum AmbiguityOrMissing: Error, Sendable, Hashable {
        case missing
        case ambiguous(what: String, candidates: [String])
    }

    /// The records to dispatch, with element targets touched at their views' centres, and a
    /// check per element target (gestures in document order; a drag's `from` before its `to`).
    /// `base` is the touches document's pointer: a name that matches no view, or several, is an
    /// issue at `<base>/gestures/<k>/<kind>/view` (`…/drag/from/view` for a drag).
    public static func resolve(_ seq: TouchSequence, in index: SceneIndex, at base: String = "/touches",
                               knobs overrides: KnobOverrides = KnobOverrides()) throws(ValidationFailure)
        -> (records: [TouchRecord], elements: [ElementCheck]) {
        var issues = IssueList()
        var points: [String: Point] = [:]
        var elements: [ElementCheck] = []
        for (k, g) in seq.gestures.enumerated() {
            let kind: String
            switch g {
            case .tap: kind = "tap"
            case .doubleTap: kind = "doubleTap"
            case .longPress: kind = "longPress"
            case .drag: kind = "drag"
            }
            for (j, target) in g.targets.enumerated() {
                guard let name = target.element else { continue }
                var pointer = base.pointer("gestures").pointer(k).pointer(kind)
                if case .drag = g { pointer = pointer.pointer(j == 0 ? "from" : "to") }
                pointer = pointer.pointer("view")
                switch view(named: name, in: index) {
                case .failure(.missing):
                    issues.add(pointer, "no view has the id, accessibilityIdentifier or label \"\(name)\"")
                case .failure(.ambiguous(let what, let candidates)):
                    issues.add(pointer, "\"\(name)\" is the \(what) of \(candidates.count) views: "
                               + candidates.joined(separator: ", ") + "; name one by its id")
                case .success(let v):
                    let check = self.check(v, in: index, knobs: overrides, gesture: k)
                    points[name] = check.point
                    elements.append(check)
                }
            }
        }
        guard issues.isEmpty else { throw ValidationFailure(issues) }
        let records = TouchSequenceValidator.expand(seq, at: base, issues: &issues) { target in
            switch target {
            case .point(let p): return p
            case .view(let name): return points[name] ?? Point(0, 0)
            }
        }
        guard issues.isEmpty else { throw ValidationFailure(issues) }
        return (records, elements)
    }

    /// Whether the centre of view `v`'s bounds, on screen, hit-tests to `v` or a descendant; if
    /// not, the explanation's reasons.
    public static func check(_ v: Int, in index: SceneIndex, knobs overrides: KnobOverrides = KnobOverrides(),
                             gesture: Int = 0) -> ElementCheck {
        let bounds = index.geometry[v].bounds
        let point = index.convertToScreen(Point(bounds.midX, bounds.midY), from: v)
        let id = index.view(v).id
        // The target exists (`v` is an index of this scene), so the explainer does not throw.
        guard let e = try? Explainer.explain(index, point: point, target: id, knobs: overrides) else {
            return ElementCheck(gesture: gesture, view: id, point: point, hittable: false, hitTestView: nil, reasons: [])
        }
        let hit = e.hitTestView.flatMap { index.view(withId: $0.id) }
        let hittable = hit.map { index.isDescendant($0, of: v) } ?? false
        return ElementCheck(gesture: gesture, view: id, point: point, hittable: hittable, hitTestView: hit.map { index.view($0).id },
                            reasons: hittable ? [] : e.reasons.map { ElementCheck.Reason(rule: $0.rule, kind: $0.kind, text: $0.text) })
    }
}

extension TapTrace {
    /// Dispatches a touch sequence whose gestures may name elements: `records` (decoded and
    /// expanded) when none does; otherwise the records of `ElementTargets.resolve`, and the
    /// result carries the element checks. Its `become`/`resign` records must name views or
    /// view controllers of the scene.
    /// `budget` bounds the run as `dispatch(_:records:until:knobs:trace:budget:)` says.
    public static func dispatch(_ index: SceneIndex, touches: TouchSequence, records: [TouchRecord],
                                at base: String = "/touches", knobs: KnobOverrides = KnobOverrides(),
                                trace: Bool = true, budget: WorkBudget? = nil) throws(ValidationFailure) -> DispatchResult {
        try checkResponders(touches, in: index, at: base)
        guard touches.hasElementTargets else {
            return dispatch(index, records: records, until: touches.until, knobs: knobs, trace: trace, budget: budget)
        }
        let (resolved, elements) = try ElementTargets.resolve(touches, in: index, at: base, knobs: knobs)
        var result = dispatch(index, records: resolved, until: touches.until, knobs: knobs, trace: trace, budget: budget)
        result.elements = elements
        return result
    }

    /// `become`/`resign` records name views or view controllers of this scene (contract §2.1).
    private static func checkResponders(_ touches: TouchSequence, in index: SceneIndex, at base: String) throws(ValidationFailure) {
        guard touches.hasNonTouchEvents else { return }
        let issues = TouchSequenceValidator.checkResponders(touches, in: index.directory, at: base)
        if !issues.isEmpty { throw ValidationFailure(issues) }
    }

    /// The records to dispatch for a decoded touch sequence: `records` as decoded, or, when
    /// gestures name elements, those resolved against the scene.
    public static func records(_ index: SceneIndex, touches: TouchSequence, records: [TouchRecord],
                               at base: String = "/touches", knobs: KnobOverrides = KnobOverrides()) throws(ValidationFailure) -> [TouchRecord] {
        try checkResponders(touches, in: index, at: base)
        guard touches.hasElementTargets else { return records }
        return try ElementTargets.resolve(touches, in: index, at: base, knobs: knobs).records
    }
}
