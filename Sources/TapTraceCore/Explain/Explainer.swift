/// "Why is (or isn't) this view the hit-test view for this point?" as an ordered list of
/// reasons, each with its rule id and the views involved.
public struct Explanation: Sendable {
    public struct Reason: Sendable, Hashable {
        /// Rule id of dispatch-rules.md (H6, W1, …).
        public var rule: String
        /// A fixed word for clients: hit, pruned, outsideBounds, covered, override, window,
        /// deeperView, disabledControl, noWindow, recognizerScope, recognizerDisabled.
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
        var out: [Explanation.Reason] = []
        let ref = { (v: Int) in index.ref(view: v) }
        let name = { (v: Int) in index.view(v).id }
        func add(_ rule: String, _ kind: String, _ text: String, _ views: [Int]) {
            out.append(.init(rule: rule, kind: kind, text: text, views: views.map(ref)))
        }
        func pt(_ p: Point) -> String { "(\(NumberText.format(p.x)), \(NumberText.format(p.y)))" }
        let path = tester.path(to: t)              // window … t
        let window = path[0]

        if found?.view == t {
            add("H1", "hit", "\(name(t)) is the deepest, front-most view that accepts the point: "
                + path.map(name).joined(separator: " → "), path)
            if index.view(t).overrides?.pointInside != nil,
               !index.geometry[t].bounds.contains(index.convertFromScreen(point, to: t)) {
                add("H7", "override", "\(name(t)) accepts the point only through its pointInside override; its bounds alone would not", [t])
            }
            if index.view(t).base.isControl, !index.isEnabled(t) {
                add("H13", "disabledControl", "\(name(t)) is a disabled control: it is still hit-tested, but it will not track or send actions and passes its touches up the chain (K11)", [t])
            }
            return out
        }

        // Windows: a window in front takes the point (W1, W2), or the target's window is pruned (W3).
        for w in index.windowsFrontToBack {
            if w == window { break }
            let p = index.geometry[w].convertFromSuperview(point)
            if let v = tester.quietHitTest(w, point: p) {
                let level = NumberText.format(index.view(w).level ?? 0)
                add("W1", "window", "window \(name(w)) (level \(level)) is offered the touch before \(name(window)) and its hitTest returns \(name(v)), so it owns the touch"
                    + (v == w || index.view(v).superview == w ? "; a window whose subviews miss the point still returns itself or its root view (W2)" : ""), [w, v])
                return out
            }
        }

        // Down the path from the window to the target.
        var p = index.geometry[window].convertFromSuperview(point)
        for (k, a) in path.enumerated() {
            if k > 0 { p = index.geometry[a].convertFromSuperview(p) }
            if let reason = tester.pruneReason(a) {
                let what = a == t ? "\(name(t)) is" : "its \(a == window ? "window" : "ancestor") \(name(a)) is"
                add(a == window ? "W3" : reason.rule, "pruned",
                    "\(what) \(reason.text): hitTest returns nil without asking pointInside, for it and every view inside it (H1, H2)", [a])
                return out
            }
            if !tester.pointInside(a, p) {
                if a == t {
                    let bounds = index.geometry[t].bounds
                    var text = "the point is \(pt(p)) in \(name(t))'s coordinates, outside its bounds \(rectText(bounds)) (H4: the maximum edges are outside)"
                    if index.view(t).overrides?.pointInside != nil { text += "; its pointInside override answers NO (H7)" }
                    add(index.view(t).overrides?.pointInside != nil ? "H7" : "H4", "outsideBounds", text, [t])
                } else {
                    var text = "the point is outside \(name(a))'s bounds (\(pt(p)) in its coordinates), so none of its subviews is asked"
                    let inTarget = index.geometry[t].bounds.contains(index.convertFromScreen(point, to: t))
                    if inTarget {
                        text += ", even though \(name(t)) extends there"
                        let clips = index.view(a).clipsToBounds == true
                        text += clips ? " (clipsToBounds = YES only hides that part; hit-testing ignores it)"
                                      : " (clipsToBounds = NO draws the overflow, but hit-testing never reaches it)"
                    }
                    add("H6", "outsideBounds", text, [a, t])
                }
                return out
            }
            guard a != t else { break }
            // H1 step 3: a front sibling of the next node on the path may take the point first.
            let next = path[k + 1]
            let subviews = index.view(a).subviews
            if let position = subviews.firstIndex(of: next) {
                for s in subviews[(position + 1)...].reversed() {
                    let sp = index.geometry[s].convertFromSuperview(p)
                    if let hit = tester.quietHitTest(s, point: sp) {
                        add("H1", "covered", "\(name(s)) is in front of \(name(next)) inside \(name(a)) and its hitTest returns \(name(hit)); subviews are asked front to back and the first hit wins, so \(name(next))\(next == t ? "" : " (and \(name(t)) inside it)") is never asked", [s, hit, next])
                        return out
                    }
                }
            }
        }

        // Every view on the path accepts the point: an override or a deeper view decides.
        guard let found else {
            add("W5", "noWindow", "no window takes the point", [])
            return out
        }
        if index.isDescendant(found.view, of: t) {
            add("H11", "deeperView", "\(name(found.view)) inside \(name(t)) accepts the point and is deeper, so it is the hit-test view; \(name(t)) still sees the touch if the views below forward it up the responder chain (T5)", [found.view, t])
        } else {
            for a in path.reversed() {
                guard let o = index.view(a).overrides?.hitTest else { continue }
                switch o {
                case .passThrough:
                    add("H8", "override", "\(name(a)) overrides hitTest to return nil where super returns itself (pass-through)\(a == t ? "" : "; that applies when \(name(a)) itself would be hit")", [a])
                case .returnsSelf:
                    add("H8", "override", "\(name(a)) overrides hitTest to return itself for any point inside it, hiding \(name(t))", [a, t])
                case .redirect(let id):
                    add("H8", "override", "\(name(a)) overrides hitTest to return \(id) instead", [a])
                }
            }
            if out.isEmpty {
                add("H1", "covered", "the hit-test returns \(name(found.view)) in \(name(found.window))", [found.view])
            }
        }
        if index.view(t).base.isControl, !index.isEnabled(t) {
            add("H13", "disabledControl", "\(name(t)) is a disabled control (it would be hit-tested but not track, K11)", [t])
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

    private static func rectText(_ r: Rect) -> String {
        "(\(NumberText.format(r.minX)), \(NumberText.format(r.minY)), \(NumberText.format(r.size.width)), \(NumberText.format(r.size.height)))"
    }
}

extension ValidationIssue: Error {}
