/// What the scene declares about the first responder, the keyboard and the non-touch methods of
/// each responder, with UIKit's defaults (contract §2.1; F1, KC2, P3, M2, RC2), and where
/// non-touch events go (N2, N3).
extension SceneIndex {
    /// The declarations of a responder (empty for the window scene).
    func traits(_ r: Responder) -> ResponderTraits {
        switch r {
        case .view(let v): return scene.views[v].traits
        case .viewController(let v): return scene.views[v].viewController?.traits ?? ResponderTraits()
        case .application: return scene.app?.traits ?? ResponderTraits()
        case .appDelegate: return scene.app?.delegate?.traits ?? ResponderTraits()
        case .windowScene: return ResponderTraits()
        }
    }

    /// Whether a view's class is a base text class (UITextField, UITextView).
    private func isTextView(_ r: Responder) -> Bool {
        guard case .view(let v) = r else { return false }
        return bases[v] == .UITextField || bases[v] == .UITextView
    }

    /// F1: false by default; true for base UITextField and UITextView unless `enabled` is false.
    func canBecomeFirstResponder(_ r: Responder) -> Bool {
        if let declared = traits(r).canBecomeFirstResponder { return declared }
        if case .view(let v) = r, isTextView(r) { return isEnabled(v) }
        return false
    }

    /// F1: true by default.
    func canResignFirstResponder(_ r: Responder) -> Bool { traits(r).canResignFirstResponder ?? true }

    /// KC2: the responder's text input takes typed keys; by default base UITextField and
    /// UITextView.
    func hasTextInput(_ r: Responder) -> Bool { traits(r).textInput ?? isTextView(r) }

    func pressOverrides(_ r: Responder) -> PressOverrides? {
        switch r {
        case .view(let v): return scene.views[v].overrides?.presses
        case .viewController(let v): return scene.views[v].viewController?.overrides?.presses
        case .application: return scene.app?.overrides?.presses
        case .appDelegate: return scene.app?.delegate?.overrides?.presses
        case .windowScene: return nil
        }
    }

    func motionOverrides(_ r: Responder) -> MotionOverrides? {
        switch r {
        case .view(let v): return scene.views[v].overrides?.motion
        case .viewController(let v): return scene.views[v].viewController?.overrides?.motion
        case .application: return scene.app?.overrides?.motion
        case .appDelegate: return scene.app?.delegate?.overrides?.motion
        case .windowScene: return nil
        }
    }

    func remoteControlOverride(_ r: Responder) -> RemoteControlOverride? {
        switch r {
        case .view(let v): return scene.views[v].overrides?.remoteControl
        case .viewController(let v): return scene.views[v].viewController?.overrides?.remoteControl
        case .application: return scene.app?.overrides?.remoteControl
        case .appDelegate: return scene.app?.delegate?.overrides?.remoteControl
        case .windowScene: return nil
        }
    }

    /// N2: the window with `isKey`, else the first window listed; nil in a scene without windows.
    var keyWindow: Int? {
        scene.windows.first { scene.views[$0].isKey == true } ?? scene.windows.first
    }

    /// The window a responder belongs to: a view's window, a controller's root view's window;
    /// nil for the application, its delegate and the window scene.
    func window(of r: Responder) -> Int? {
        switch r {
        case .view(let v), .viewController(let v): return windowOf[v]
        case .application, .appDelegate, .windowScene: return nil
        }
    }

    /// N3: where a non-touch event starts when the key window has no first responder.
    /// `deepestViewController`: the controller of the window's back-most subview that is not
    /// presented, then, following `presentedBy` links, the front-most controller presented over
    /// it; the window itself when it has no controller. `keyWindow`: the window.
    func fallbackResponder(window w: Int, _ fallback: KeyResponderFallback) -> Responder {
        guard fallback == .deepestViewController else { return .view(w) }
        var root: Int?
        if scene.views[w].viewController != nil { root = w }
        if root == nil {
            root = subviews(w).first { scene.views[$0].viewController != nil && scene.views[$0].viewController?.presentedBy == nil }
        }
        guard var current = root else { return .view(w) }
        // Presented controllers are children of the window in the scene (contract §1); the
        // front-most one presented by the current controller wins, step by step.
        var seen: Set<Int> = [current]
        while let presenter = scene.views[current].viewController?.id,
              let next = viewsInWindow(w).last(where: { scene.views[$0].viewController?.presentedBy == presenter }),
              seen.insert(next).inserted {
            current = next
        }
        return .viewController(ofView: current)
    }

    /// Every view of window `w` with a controller, in document order.
    private func viewsInWindow(_ w: Int) -> [Int] {
        var out: [Int] = []
        var stack = [w]
        while let v = stack.popLast() {
            if scene.views[v].viewController != nil { out.append(v) }
            stack.append(contentsOf: subviews(v).reversed())
        }
        return out
    }
}
