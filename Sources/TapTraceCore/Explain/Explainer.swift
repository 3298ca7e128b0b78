/// "Why is (or isn't) this view the hit-test view for this point?" as an ordered list of
/// reasons, each with its rule id and the views involved. The first reason is the deciding one
/// (see `Explainer.explain`); the others that also hold follow it.
public struct Explanation: Sendable {
    public struct Reason: Sendable, Hashable {
        /// Rule id of dispatch-rules.md (H6, W1, …).
        public var rule: String
        /// A fixed word for clients: hit, pruned, outsideBounds, covered, override, window,
        /// deeperView, disabledControl, noWindow, recognizerScope, recognizerDisabled,
        /// dependsOnRun (a recognizer that receives the touch: whether it recognizes is a
        /// question about a run, for `taptrace why`).
        public var kind: String
        public var text: String
        public var views: [ObjectRef]
    }

    public var point: Point
    public var target: ObjectRef
    public var isHitTestView: Bool
    /// For a recognizer target: whether it would receive the touch (G1).
    public var receivesTouch: Bool?
    public var window: ObjectRef?
    public var hitTestView: ObjectRef?
    public var reasons: [Reason]

    public func text() -> String {
        var out = "\(target.id) at (\(NumberText.format(point.x)), \(NumberText.format(point.y))): "
        if let receivesTouch {
            out += receivesTouch ? "receives the touch\n" : "does not receive the touch\n"
        } else {
            out += isHitTestView ? "is the hit-test view\n" : "is not the hit-test view (it is \(hitTestView?.id ?? "nothing"))\n"
        }
        for (i, r) in reasons.enumerated() { out += "\(i + 1). [\(r.rule)] \(r.text)\n" }
        return out
    }
}

public enum Explainer {
    /// Explains `target` (a view id, or a recognizer id) at a screen point. Throws an `ValidationIssue`
    /// when the target is not in the scene.
    ///
    /// **Order of the reasons** (issue 31, item 1). For a view that is not the hit-test view the
    /// first reason is the deciding one: the one that would still hold if nothing else stood in
    /// the way. Every reason that holds is listed — each alone keeps the target from being hit,
    /// so fixing the first one shows the next — in UIKit's own order:
    /// 1. *pruned*: the target's window (W3), an ancestor or the target itself is hidden (H2),
    ///    not interactive (H2, or H9 for a UILabel/UIImageView left at its default), alpha < 0.01
    ///    (H3) or animating (Z1); window first, down to the target (H1 step 1 comes before
    ///    `pointInside`);
    /// 2. *outside*: the point is outside an ancestor, whose subviews are then never asked (H6),
    ///    or outside the target's bounds (H4; H7 when its `pointInside` override does not reach
    ///    the point either); window first;
    /// 3. *override*: a `pointInside` override that refuses a point its bounds contain (H7),
    ///    window first; then a `hitTest` override that returns another view where `super` would
    ///    find the target (H8), the target's own first, then its ancestors' from the nearest up
    ///    (the order in which the overrides run);
    /// 4. *another view takes the point*: a window in front that owns the touch (W1), a sibling
    ///    in front of the target or of one of its ancestors that takes the point (H1, `covered`;
    ///    outermost first, one per level), a view inside the target that is deeper (H11).
    ///
    /// A window in front ranks after the target's and its ancestors' own reasons (1–3), like a
    /// sibling in front: take that window away and a pruned or outside target is still not hit,
    /// while a target without reasons of its own is hit as soon as nothing is in front of it.
    /// Among the views that take the point the window comes first, because UIKit offers the touch
    /// to it before the target's window is asked at all.
    ///
    /// A disabled control (H13) is a remark after the others when it is not hit; when it *is*
    /// the hit-test view H13 leads, because being hit is then the surprising part (it is hit, but
    /// does not track). For a hit view otherwise: H1 (the path), then H7 when only an override
    /// makes it accept the point.
    ///
    /// For a recognizer: G1 (in scope or not) first. In scope, the reason after it says that
    /// recognizing is a question about a run (`taptrace why`), not about the scene; out of scope,
    /// the reasons of its view follow in the order above.
    public static func explain(_ index: SceneIndex, point: Point, target: String,
                               knobs overrides: KnobOverrides = KnobOverrides()) throws(ValidationIssue) -> Explanation {
        let knobs = index.knobs.applying(overrides)
        let tester = HitTester(index: index, knobs: knobs)
        var quiet = TraceRecorder(enabled: false)
        let found = tester.windowHitTest(screenPoint: point, event: nil, passes: 1, trace: &quiet)
        if let r = index.recognizer(withId: target) {
            return explainRecognizer(index, tester, r, point: point, found: found)
        }
        guard let t = index.view(withId: target) else {
            throw ValidationIssue("/target", "\"\(target)\" is not a view or recognizer id in this scene")
        }
        var e = Explanation(point: point, target: index.ref(view: t), isHitTestView: found?.view == t,
                            receivesTouch: nil, window: found.map { index.ref(view: $0.window) },
                            hitTestView: found.map { index.ref(view: $0.view) }, reasons: [])
        e.reasons = reasons(index, tester, t, point: point, found: found)
        return e
    }

    private static func reasons(_ index: SceneIndex, _ tester: HitTester, _ t: Int, point: Point,
                                found: (window: Int, view: Int)?) -> [Explanation.Reason] {
        let ref = { (v: Int) in index.ref(view: v) }
        let name = { (v: Int) in index.view(v).id }
        func reason(_ rule: String, _ kind: String, _ text: String, _ views: [Int]) -> Explanation.Reason {
            .init(rule: rule, kind: kind, text: text, views: views.map(ref))
        }
        func pt(_ p: Point) -> String { "(\(NumberText.format(p.x)), \(NumberText.format(p.y)))" }
        let path = tester.path(to: t)              // window … t
        let window = path[0]
        let disabledControl = index.view(t).base.isControl && !index.isEnabled(t)

        if found?.view == t {
            var out: [Explanation.Reason] = []
            if disabledControl {
                out.append(reason("H13", "disabledControl", "\(name(t)) is a disabled control, and disabled controls are still hit-tested (only userInteractionEnabled prunes): it is the hit-test view, but it will not track or send actions and passes its touches up the chain (K11)", [t]))
            }
            out.append(reason("H1", "hit", "\(name(t)) is the deepest, front-most view that accepts the point: "
                + path.map(name).joined(separator: " → "), path))
            if index.view(t).overrides?.pointInside != nil,
               !index.geometry[t].bounds.contains(index.convertFromScreen(point, to: t)) {
                out.append(reason("H7", "override", "\(name(t)) accepts the point only through its pointInside override; its bounds alone would not", [t]))
            }
            return out
        }

        // 1–3 down the path from the window to the target; 4 (covered) on the way.
        var pruned: [Explanation.Reason] = []
        var outside: [Explanation.Reason] = []
        var narrowed: [Explanation.Reason] = []
        var covered: [Explanation.Reason] = []
        let targetInside = index.geometry[t].bounds.contains(index.convertFromScreen(point, to: t))
        var p = index.geometry[window].convertFromSuperview(point)
        for (k, a) in path.enumerated() {
            if k > 0 { p = index.geometry[a].convertFromSuperview(p) }
            let what = a == t ? "\(name(t)) is" : "its \(a == window ? "window" : "ancestor") \(name(a)) is"
            if let r = tester.pruneReason(a) {
                let because: String
                if case .userInteractionDisabled(classDefault: true) = r {
                    let v = index.view(a)
                    let cls = v.className == v.base.rawValue ? "a \(v.base.rawValue)" : "\(article(v.className)) \(v.className) (a \(v.base.rawValue))"
                    because = "\(what) \(cls), whose userInteractionEnabled is NO unless the scene sets it (H9)"
                } else {
                    because = "\(what) \(r.text)"
                }
                pruned.append(reason(a == window ? "W3" : r.rule, "pruned",
                                     "\(because): hitTest returns nil without asking pointInside, for it and every view inside it (H1, H2)", [a]))
            }
            let inside = tester.pointInside(a, p)
            if !inside {
                let bounds = index.geometry[a].bounds
                let hasOverride = index.view(a).overrides?.pointInside != nil
                if bounds.contains(p) {
                    // Only an override refuses a point its bounds contain.
                    narrowed.append(reason("H7", "override",
                        "\(name(a))'s pointInside override answers NO at \(pt(p)) in its coordinates, although its bounds \(rectText(bounds)) contain it"
                        + (a == t ? "" : ", so none of its subviews is asked (H6)"), a == t ? [a] : [a, t]))
                } else if a == t {
                    var text = "the point is \(pt(p)) in \(name(t))'s coordinates, \(offside(p, bounds))"
                    if hasOverride { text += "; its pointInside override does not accept it either (H7)" }
                    outside.append(reason(hasOverride ? "H7" : "H4", "outsideBounds", text, [t]))
                } else {
                    var text = "the point is \(pt(p)) in \(name(a))'s coordinates, \(offside(p, bounds)), so none of \(name(a))'s subviews is asked"
                    if targetInside {
                        text += ", even though \(name(t)) extends there"
                        let clips = index.view(a).clipsToBounds == true
                        text += clips ? " (clipsToBounds = YES only hides that part; hit-testing ignores it)"
                                      : " (clipsToBounds = NO draws the overflow, but hit-testing never reaches it)"
                    }
                    if hasOverride { text += "; its pointInside override does not accept it either (H7)" }
                    outside.append(reason("H6", "outsideBounds", text, [a, t]))
                }
            }
            guard a != t else { break }
            // H1 step 3: a front sibling of the next node on the path may take the point first
            // (only asked when `a` passes the point on).
            guard inside else { continue }
            let next = path[k + 1]
            let subviews = index.view(a).subviews
            if let position = subviews.firstIndex(of: next) {
                for s in subviews[(position + 1)...].reversed() {
                    let sp = index.geometry[s].convertFromSuperview(p)
                    if let hit = tester.quietHitTest(s, point: sp) {
                        covered.append(reason("H1", "covered", "\(name(s)) is in front of \(name(next)) inside \(name(a)) and its hitTest returns \(name(hit)); subviews are asked front to back and the first hit wins, so \(name(next))\(next == t ? "" : " (and \(name(t)) inside it)") is never asked", [s, hit, next]))
                        break
                    }
                }
            }
        }
        let targetPoint = p

        // 3: hitTest overrides that return another view where super would find the target.
        var replaced: [Explanation.Reason] = []
        for a in path.reversed() {
            switch index.view(a).overrides?.hitTest {
            case .passThrough?:
                if a == t {
                    replaced.append(reason("H8", "override", "\(name(t)) overrides hitTest to return nil where super returns itself (pass-through): it is never the hit-test view itself, only views inside it can be", [t]))
                }
            case .returnsSelf?:
                if a != t {
                    replaced.append(reason("H8", "override", "\(name(a)) overrides hitTest to return itself for any point inside it, hiding \(name(t))", [a, t]))
                }
            case .redirect(let id)?:
                if id != index.view(t).id {
                    replaced.append(reason("H8", "override", "\(name(a)) overrides hitTest to return \(id) instead\(a == t ? " of itself" : " of whatever super finds, hiding \(name(t))")", a == t ? [a] : [a, t]))
                }
            case nil:
                break
            }
        }

        // 4: a window in front owns the touch (W1, W2).
        var front: [Explanation.Reason] = []
        for w in index.windowsFrontToBack {
            if w == window { break }
            let wp = index.geometry[w].convertFromSuperview(point)
            if let v = tester.quietHitTest(w, point: wp) {
                let level = NumberText.format(index.view(w).level ?? 0)
                front.append(reason("W1", "window", "window \(name(w)) (level \(level)) is offered the touch before \(name(window)) and its hitTest returns \(name(v)), so it owns the touch"
                    + (v == w || index.view(v).superview == w ? "; a window whose subviews miss the point still returns itself or its root view (W2)" : ""), [w, v]))
                break
            }
        }

        // 4: a deeper view inside the target (H11), unless the target returns itself anyway.
        var deeper: [Explanation.Reason] = []
        if tester.pointInside(t, targetPoint), index.view(t).overrides?.hitTest != .returnsSelf {
            if let found, index.isDescendant(found.view, of: t) {
                deeper.append(reason("H11", "deeperView", "\(name(found.view)) inside \(name(t)) accepts the point and is deeper, so it is the hit-test view; \(name(t)) still sees the touch if the views below forward it up the responder chain (T5)", [found.view, t]))
            } else {
                for s in index.subviews(t).reversed() {
                    if let hit = tester.quietHitTest(s, point: index.geometry[s].convertFromSuperview(targetPoint)) {
                        deeper.append(reason("H11", "deeperView", "were \(name(t)) asked, \(name(hit)) inside it would accept the point and be deeper: subviews are asked before a view returns itself", [hit, t]))
                        break
                    }
                }
            }
        }

        var out = pruned + outside + narrowed + replaced + front + covered + deeper
        if out.isEmpty {
            if let found {
                out.append(reason("H1", "covered", "the hit-test returns \(name(found.view)) in \(name(found.window))", [found.view]))
            } else {
                out.append(reason("W5", "noWindow", "no window takes the point", []))
            }
        }
        if disabledControl {
            out.append(reason("H13", "disabledControl", "\(name(t)) is a disabled control (it would be hit-tested but not track, K11)", [t]))
        }
        return out
    }

    private static func explainRecognizer(_ index: SceneIndex, _ tester: HitTester, _ r: Int, point: Point,
                                          found: (window: Int, view: Int)?) -> Explanation {
        let info = index.recognizers[r]
        var reasons: [Explanation.Reason] = []
        var receives = false
        let viewName = index.view(info.view).id
        if let found, index.isDescendant(found.view, of: info.view) {
            receives = info.enabled
            reasons.append(.init(rule: "G1", kind: "recognizerScope",
                                 text: "the touch is hit-tested to \(index.view(found.view).id), which is \(found.view == info.view ? "" : "inside ")\(viewName), the view \(info.id) is attached to",
                                 views: [index.ref(view: found.view), index.ref(view: info.view)]))
            if !info.enabled {
                reasons.append(.init(rule: "G4", kind: "recognizerDisabled", text: "\(info.id) is disabled and receives nothing", views: []))
            }
            if info.delegate?.shouldReceiveTouch == false {
                receives = false
                reasons.append(.init(rule: "G6", kind: "recognizerDisabled", text: "its delegate \(info.delegate!.id) answers NO to gestureRecognizer:shouldReceiveTouch:", views: []))
            }
            if receives {
                reasons.append(.init(rule: "GS1", kind: "dependsOnRun",
                                     text: "receiving the touch is not recognizing it: whether \(info.id) ends recognized or failed depends on the run (the touches, the other recognizers and the delegates' answers), which a hit-test does not have; ask `taptrace why REQUEST.json --recognizer \(info.id)`",
                                     views: []))
            }
        } else {
            reasons.append(.init(rule: "G1", kind: "recognizerScope",
                                 text: "a recognizer receives only touches hit-tested to its view (\(viewName)) or a view inside it; this touch goes to \(found.map { index.view($0.view).id } ?? "no view")",
                                 views: [index.ref(view: info.view)] + (found.map { [index.ref(view: $0.view)] } ?? [])))
            let why = Explainer.reasons(index, tester, info.view, point: point, found: found)
            reasons.append(contentsOf: why.filter { $0.kind != "hit" })
        }
        return Explanation(point: point, target: info.ref, isHitTestView: false, receivesTouch: receives,
                           window: found.map { index.ref(view: $0.window) },
                           hitTestView: found.map { index.ref(view: $0.view) }, reasons: reasons)
    }

    /// Where a point outside `bounds` lies, in the view's own coordinates: "172 pt below its
    /// bounds (0, 0, 326, 24)", or on a maximum edge (H4: those are outside).
    private static func offside(_ p: Point, _ bounds: Rect) -> String {
        let rect = rectText(bounds)
        if bounds.isEmpty { return "and its bounds \(rect) are empty: they contain no point (H4)" }
        var beyond: [String] = []
        var edges: [String] = []
        if p.x < bounds.minX { beyond.append("\(NumberText.format(bounds.minX - p.x)) pt left of") }
        else if p.x > bounds.maxX { beyond.append("\(NumberText.format(p.x - bounds.maxX)) pt right of") }
        else if p.x == bounds.maxX { edges.append("right") }
        if p.y < bounds.minY { beyond.append("\(NumberText.format(bounds.minY - p.y)) pt above") }
        else if p.y > bounds.maxY { beyond.append("\(NumberText.format(p.y - bounds.maxY)) pt below") }
        else if p.y == bounds.maxY { edges.append("bottom") }
        if !beyond.isEmpty { return beyond.joined(separator: " and ") + " its bounds \(rect) (H4)" }
        if !edges.isEmpty {
            return "on the \(edges.joined(separator: " and ")) edge of its bounds \(rect), and the maximum edges are outside (H4)"
        }
        return "outside its bounds \(rect) (H4)"
    }

    /// "an" before a class name that starts with a vowel letter other than U (UIKit's "UI" is
    /// read "you-eye"): an ImageTile, a UILabel.
    private static func article(_ word: String) -> String {
        guard let first = word.first else { return "a" }
        return "AEIOaeio".contains(first) ? "an" : "a"
    }

    private static func rectText(_ r: Rect) -> String {
        "(\(NumberText.format(r.minX)), \(NumberText.format(r.minY)), \(NumberText.format(r.size.width)), \(NumberText.format(r.size.height)))"
    }
}

extension ValidationIssue: Error {}
