/// Why `hitTest:withEvent:` returned nil without asking `pointInside:withEvent:` (H1 step 1, H2).
public enum PruneReason: Sendable, Hashable {
    case hidden
    case userInteractionDisabled(classDefault: Bool)
    case transparent(alpha: Float)
    case animating

    public var rule: String {
        switch self {
        case .hidden: return "H2"
        case .userInteractionDisabled(let classDefault): return classDefault ? "H9" : "H2"
        case .transparent: return "H3"
        case .animating: return "Z1"
        }
    }

    /// The trace note of a pruned `hitTest:withEvent:`; constant strings for the common cases,
    /// because most pruned views in a real screen are labels and images (H9).
    public var note: String {
        switch self {
        case .hidden: return "hidden (H2): pointInside not asked"
        case .userInteractionDisabled(let classDefault):
            return classDefault ? "userInteractionEnabled = NO (class default) (H9): pointInside not asked"
                                : "userInteractionEnabled = NO (H2): pointInside not asked"
        case .transparent, .animating: return text + " (\(rule)): pointInside not asked"
        }
    }

    public var text: String {
        switch self {
        case .hidden: return "hidden"
        case .userInteractionDisabled(let classDefault):
            return classDefault ? "userInteractionEnabled = NO (class default)" : "userInteractionEnabled = NO"
        case .transparent(let alpha):
            return "alpha \(Double(alpha)) < 0.01 (stored as Float32)"
        case .animating: return "animating (interaction disabled during the animation)"
        }
    }
}

/// UIKit's hit-testing (H1–H14) and window selection (W1–W3), with the full nested trace.
///
/// The recursion of `hitTest:withEvent:` is run on an explicit stack, so a scene 10,000 views
/// deep is hit-tested without deep native recursion. Its cost follows the views visited: pruned
/// subtrees and subtrees whose root refuses the point are never entered.
public struct HitTester {
    public let index: SceneIndex
    public let alphaThreshold: Double

    public init(index: SceneIndex, knobs: Knobs) {
        self.index = index
        self.alphaThreshold = knobs.alphaThreshold
    }

    /// H1 step 1: hidden, interaction disabled (Z1: animating), alpha < 0.01 (H3).
    public func pruneReason(_ v: Int) -> PruneReason? {
        if index.isHidden(v) { return .hidden }
        if !index.isUserInteractionEnabled(v) {
            return .userInteractionDisabled(classDefault: index.scene.views[v].userInteractionEnabled == nil)
        }
        if index.isTransparent(v, threshold: alphaThreshold) { return .transparent(alpha: index.alpha[v]) }
        if index.isAnimating(v) { return .animating }
        return nil
    }

    /// `pointInside:withEvent:` with the view's override (H4, H7).
    public func pointInside(_ v: Int, _ p: Point) -> Bool {
        let bounds = index.geometry[v].bounds
        switch index.pointInsideOverrides[v] {
        case nil: return bounds.contains(p)
        case .insets(let top, let left, let bottom, let right)?:
            return bounds.inset(top: top, left: left, bottom: bottom, right: right).contains(p)
        case .rects(let rects)?: return rects.contains { $0.contains(p) }
        case .circle?: return bounds.ellipseContains(p)
        case .returns(let answer)?: return answer
        case .orSubviews?:
            if bounds.contains(p) { return true }
            return index.subviews(v).contains { s in
                !index.isHidden(s) && !index.isTransparent(s, threshold: alphaThreshold)
                    && index.geometry[s].bounds.contains(index.geometry[s].convertFromSuperview(p))
            }
        }
    }

    private struct Frame {
        var view: Int
        var point: Point
        var callSeq: Int
        var superSeq: Int
        /// Whether the view overrides hitTest (superSeq is 0 when nothing is traced).
        var overrides: Bool
        var nextChild: Int
    }

    /// `[view hitTest:point withEvent:]` with `point` in the view's bounds coordinates (for a
    /// window: window coordinates). `event` is n of `E<n>` (nil: no event, for explain);
    /// `pass` is H12's pass number when it is not the first.
    public func hitTest(_ root: Int, point: Point, event: Int?, trace: inout TraceRecorder, pass: Int? = nil) -> Int? {
        let eventArg = event.map { TraceRecorder.Argument(.event, .event(Int32($0))) }
        let passArg = pass.map { TraceRecorder.Argument(.pass, .number(Double($0))) }
        var stack: [Frame] = []
        // Grown from empty, the stack was reallocated at depths 1, 2, 4 and 8 of every tap.
        stack.reserveCapacity(16)
        var returned: Int?? = nil // result of the frame that just finished, for its parent

        /// Starts `hitTest:` on v; returns the result at once when the view is pruned or refuses
        /// the point, or nil (pushed a frame) when its subviews must be asked.
        func enter(_ v: Int, _ p: Point, isRoot: Bool) -> Int?? {
            let pointArg = TraceRecorder.Argument(.point, .point(p))
            let outer = trace.call(TraceObject(view: v), .hitTest, pointArg, eventArg, isRoot ? passArg : nil)
            trace.push(outer)
            var superSeq = 0
            let overrides = index.hitTestOverrides[v] != nil
            if overrides {
                superSeq = trace.call(TraceObject(view: v), .hitTest, pointArg, eventArg, note: "super")
                trace.push(superSeq)
            }
            if let reason = pruneReason(v) {
                trace.setNote(superSeq != 0 ? superSeq : outer, reason.note)
                return .some(finish(Frame(view: v, point: p, callSeq: outer, superSeq: superSeq, overrides: overrides, nextChild: -1), nil))
            }
            let insideSeq = trace.call(TraceObject(view: v), .pointInside, pointArg, eventArg)
            let inside = pointInside(v, p)
            trace.setResult(insideSeq, .bool(inside))
            if index.pointInsideOverrides[v] != nil { trace.setNote(insideSeq, "override (H7)") }
            let frame = Frame(view: v, point: p, callSeq: outer, superSeq: superSeq, overrides: overrides,
                              nextChild: index.childStart[v + 1] - 1)
            if !inside { return .some(finish(frame, nil)) }
            stack.append(frame)
            return nil
        }

        /// Ends a view's `hitTest:` with super's result, applying the override (H8).
        func finish(_ f: Frame, _ superResult: Int?) -> Int? {
            let v = f.view
            var result = superResult
            if f.overrides {
                trace.setResult(f.superSeq, view: superResult)
                trace.pop()
                switch index.hitTestOverrides[v] {
                case .passThrough?:
                    if superResult == v { result = nil; trace.setNote(f.callSeq, "override: passThrough (H8)") }
                case .returnsSelf?:
                    if superResult != nil { result = v; trace.setNote(f.callSeq, "override: returns self (H8)") }
                case .redirect(let target)?:
                    if superResult != nil, let t = index.view(withId: target) {
                        result = t; trace.setNote(f.callSeq, "override: redirect to \(target) (H8)")
                    }
                case nil: break
                }
            }
            trace.setResult(f.callSeq, view: result)
            trace.pop()
            return result
        }

        if let immediate = enter(root, point, isRoot: true) { return immediate }
        while !stack.isEmpty {
            let top = stack.count - 1
            if let r = returned {
                returned = nil
                if let hit = r {
                    // H1 step 3: the first non-nil subview result is returned at once.
                    let f = stack.removeLast()
                    returned = .some(finish(f, hit))
                    continue
                }
            }
            let f = stack[top]
            if f.nextChild >= index.childStart[f.view] {
                let s = index.children[f.nextChild]
                stack[top].nextChild -= 1
                let p = index.geometry[s].convertFromSuperview(f.point)
                if let immediate = enter(s, p, isRoot: false) { returned = .some(immediate) }
            } else {
                // H1 step 4: no subview took the point: the view itself.
                let f = stack.removeLast()
                returned = .some(finish(f, f.view))
            }
        }
        return returned ?? nil
    }

    /// W1: offers a screen point to the windows from front to back; the first non-nil result
    /// owns the touch. H12: with `passes = 2` the identical selection runs twice (only the last
    /// result matters; overrides are side-effect free).
    public func windowHitTest(screenPoint: Point, event: Int?, passes: Int,
                              trace: inout TraceRecorder) -> (window: Int, view: Int)? {
        var found: (Int, Int)?
        for pass in 1...max(1, passes) {
            if pass > 1 {
                trace.marker(.hitTestPass, .none, TraceRecorder.Argument(.pass, .number(Double(pass))),
                             note: "hit-test pass \(String(pass)) (H12): the same pass again; only the last result counts")
            }
            found = nil
            for w in index.windowsFrontToBack {
                let p = index.geometry[w].convertFromSuperview(screenPoint)
                if let v = hitTest(w, point: p, event: event, trace: &trace, pass: pass > 1 ? pass : nil) {
                    found = (w, v)
                    break
                }
            }
        }
        return found
    }

    /// A hit-test without a trace.
    public func quietHitTest(_ root: Int, point: Point) -> Int? {
        var quiet = TraceRecorder(enabled: false)
        return hitTest(root, point: point, event: nil, trace: &quiet)
    }

    /// The hit-test path: the window down to the hit view.
    public func path(to v: Int) -> [Int] { index.ancestry(v).reversed() }
}
