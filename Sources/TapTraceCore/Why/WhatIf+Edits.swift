/// One small edit of a scene, named by the objects' ids so that it applies to the full scene
/// and to the smaller scene the candidates are verified on (`WhatIfScene`).
enum WhatIfEdit: Hashable {
    enum ViewChange: Hashable {
        case userInteractionEnabled(Bool)
        case hidden(Bool)
        case alpha(Double)
        case enabled(Bool)
        case exclusiveTouch(Bool)
        case multipleTouchEnabled(Bool)
        case animating(Bool)
        /// The new geometry in the superview's bounds coordinates: a frame, or a center when
        /// the scene placed the view by its center.
        case frame(Rect)
        case center(Point)
        case removeHitTestOverride
        case removePointInsideOverride
        /// UIView `gestureRecognizerShouldBegin:` (GS7) answering `answer` for `recognizer`;
        /// `others` keeps the class's answers for the other recognizers when there was no
        /// override (X2), `defaultAnswer` the rest.
        case shouldBegin(recognizer: String, answer: Bool, defaultAnswer: Bool, others: [String: Bool])
        /// The view's controller implements `selector` (A2).
        case controllerImplements(String)
        /// Brings the view to the front of its superview's subviews (H1: asked first).
        case bringToFront
        /// UIScrollView settings (SV3, SV6) for its built-in recognizers.
        case delaysContentTouches(Bool)
        case scrollEnabled(Bool)
        case canCancelContentTouches(Bool)
    }

    enum RecognizerChange: Hashable {
        case enabled(Bool)
        case cancelsTouchesInView(Bool)
        case delaysTouchesBegan(Bool)
        case delaysTouchesEnded(Bool)
        /// A delegate answer; `delegate` is the delegate's id (the existing one, or the object
        /// that becomes the delegate).
        case shouldBegin(Bool, delegate: String)
        case shouldReceiveTouch(Bool, delegate: String)
        case recognizeSimultaneouslyWith(String, delegate: String)
        case requireToFailAdd(String)
        case requireToFailRemove(String)
    }

    /// A view, by id.
    case view(String, ViewChange)
    /// A declared recognizer, by id.
    case recognizer(String, RecognizerChange)

    var objectId: String {
        switch self {
        case .view(let id, _), .recognizer(let id, _): return id
        }
    }

    /// Ids the edit makes the scene refer to (beyond the object edited).
    var referencedIds: [String] {
        switch self {
        case .view(_, .shouldBegin(let r, _, _, let others)): return [r] + others.keys.sorted()
        case .recognizer(_, .shouldBegin(_, let d)), .recognizer(_, .shouldReceiveTouch(_, let d)): return [d]
        case .recognizer(_, .recognizeSimultaneouslyWith(let other, let d)): return [other, d]
        case .recognizer(_, .requireToFailAdd(let other)), .recognizer(_, .requireToFailRemove(let other)): return [other]
        default: return []
        }
    }

    /// Applies the edit to `scene`, where `viewIndex` finds a view by id and `recognizerAt` a
    /// declared recognizer (view index, position). False when the object is not there.
    func apply(to scene: inout Scene, viewIndex: (String) -> Int?, recognizerAt: (String) -> (Int, Int)?) -> Bool {
        switch self {
        case .view(let id, let change):
            guard let v = viewIndex(id) else { return false }
            WhatIfEdit.apply(change, to: &scene, v)
            return true
        case .recognizer(let id, let change):
            guard let (v, k) = recognizerAt(id), var list = scene.views[v].gestureRecognizers, k < list.count else { return false }
            WhatIfEdit.apply(change, to: &list[k])
            scene.views[v].gestureRecognizers = list
            return true
        }
    }

    private static func apply(_ change: ViewChange, to scene: inout Scene, _ v: Int) {
        switch change {
        case .userInteractionEnabled(let b): scene.views[v].userInteractionEnabled = b
        case .hidden(let b): scene.views[v].hidden = b
        case .alpha(let a): scene.views[v].alpha = a
        case .enabled(let b): scene.views[v].enabled = b
        case .exclusiveTouch(let b): scene.views[v].exclusiveTouch = b
        case .multipleTouchEnabled(let b): scene.views[v].multipleTouchEnabled = b
        case .animating(let b): scene.views[v].animating = b
        case .frame(let f):
            scene.views[v].frame = f
            // Without a transform the bounds size is the frame's (a resize keeps them equal).
            if let b = scene.views[v].bounds, (scene.views[v].transform ?? .identity).isIdentity {
                scene.views[v].bounds = Rect(b.minX, b.minY, f.size.width, f.size.height)
            }
        case .center(let c): scene.views[v].center = c
        case .removeHitTestOverride: editOverrides(&scene, v) { $0.hitTest = nil }
        case .removePointInsideOverride: editOverrides(&scene, v) { $0.pointInside = nil }
        case .shouldBegin(let r, let answer, let defaultAnswer, let others):
            editOverrides(&scene, v) { o in
                var s = o.gestureRecognizerShouldBegin ?? ShouldBeginOverride(defaultAnswer: defaultAnswer, byRecognizer: others)
                s.byRecognizer[r] = answer
                o.gestureRecognizerShouldBegin = s
            }
        case .controllerImplements(let selector):
            guard var vc = scene.views[v].viewController else { return }
            vc.implements = (vc.implements ?? []) + [selector]
            scene.views[v].viewController = vc
        case .bringToFront:
            guard let s = scene.views[v].superview, let k = scene.views[s].subviews.firstIndex(of: v) else {
                // A window: the front-most of its level is the last one listed (W1).
                if let k = scene.windows.firstIndex(of: v) { scene.windows.remove(at: k); scene.windows.append(v) }
                return
            }
            scene.views[s].subviews.remove(at: k)
            scene.views[s].subviews.append(v)
        case .delaysContentTouches(let b): editScrollView(&scene, v) { $0.delaysContentTouches = b }
        case .scrollEnabled(let b): editScrollView(&scene, v) { $0.scrollEnabled = b }
        case .canCancelContentTouches(let b): editScrollView(&scene, v) { $0.canCancelContentTouches = b }
        }
    }

    private static func apply(_ change: RecognizerChange, to gr: inout RecognizerSpec) {
        switch change {
        case .enabled(let b): gr.enabled = b
        case .cancelsTouchesInView(let b): gr.cancelsTouchesInView = b
        case .delaysTouchesBegan(let b): gr.delaysTouchesBegan = b
        case .delaysTouchesEnded(let b): gr.delaysTouchesEnded = b
        case .shouldBegin(let b, let d):
            var delegate = gr.delegate ?? RecognizerDelegateSpec(id: d)
            delegate.shouldBegin = b
            gr.delegate = delegate
        case .shouldReceiveTouch(let b, let d):
            var delegate = gr.delegate ?? RecognizerDelegateSpec(id: d)
            delegate.shouldReceiveTouch = b
            gr.delegate = delegate
        case .recognizeSimultaneouslyWith(let other, let d):
            var delegate = gr.delegate ?? RecognizerDelegateSpec(id: d)
            switch delegate.shouldRecognizeSimultaneouslyWith {
            case .all?: break
            case .ids(let ids)?: delegate.shouldRecognizeSimultaneouslyWith = .ids(ids + [other])
            case nil: delegate.shouldRecognizeSimultaneouslyWith = .ids([other])
            }
            gr.delegate = delegate
        case .requireToFailAdd(let other): gr.requireToFail = (gr.requireToFail ?? []) + [other]
        case .requireToFailRemove(let other):
            let rest = (gr.requireToFail ?? []).filter { $0 != other }
            gr.requireToFail = rest.isEmpty ? nil : rest
        }
    }

    private static func editOverrides(_ scene: inout Scene, _ v: Int, _ body: (inout ViewOverrides) -> Void) {
        var o = scene.views[v].overrides ?? ViewOverrides()
        body(&o)
        scene.views[v].overrides = o == ViewOverrides() ? nil : o
    }

    private static func editScrollView(_ scene: inout Scene, _ v: Int, _ body: (inout ScrollViewSpec) -> Void) {
        var s = scene.views[v].scrollView ?? ScrollViewSpec()
        body(&s)
        scene.views[v].scrollView = s
    }
}
