extension SceneIndex {
    public static let windowSceneRef = ObjectRef(id: "UIWindowScene", className: "UIWindowScene")

    public func ref(_ r: Responder) -> ObjectRef {
        switch r {
        case .view(let v): return ref(view: v)
        case .viewController(let v):
            let vc = scene.views[v].viewController!
            return ObjectRef(id: vc.id, className: vc.className)
        case .windowScene: return SceneIndex.windowSceneRef
        case .application: return applicationRef
        case .appDelegate: return appDelegateRef!
        }
    }

    /// `role` in the result's `responderChain`.
    public func role(_ r: Responder) -> String {
        switch r {
        case .view(let v): return scene.views[v].superview == nil ? "window" : "view"
        case .viewController: return "viewController"
        case .windowScene: return "windowScene"
        case .application: return "application"
        case .appDelegate: return "appDelegate"
        }
    }

    public func responder(withId id: String) -> Responder? {
        switch directory[id] {
        case .view(let v)?: return .view(v)
        case .viewController(let v)?: return .viewController(ofView: v)
        case .application?: return .application
        case .appDelegate?: return appDelegateIsResponder ? .appDelegate : nil
        default: return nil
        }
    }

    private func nextResponderOverride(_ r: Responder) -> String? {
        switch r {
        case .view(let v): return scene.views[v].overrides?.nextResponder
        case .viewController(let v): return scene.views[v].viewController?.overrides?.nextResponder
        case .application: return scene.app?.overrides?.nextResponder
        case .appDelegate: return scene.app?.delegate?.overrides?.nextResponder
        case .windowScene: return nil
        }
    }

    /// `nextResponder` (R2–R7).
    public func nextResponder(_ r: Responder, includeWindowScene: Bool) -> Responder? {
        // R7: an override replaces the default rules.
        if let id = nextResponderOverride(r) { return responder(withId: id) }
        // The view's fields are read in place: `let view = scene.views[v]` copied the whole
        // ViewSpec (a dozen reference-counted fields) for every link of a chain.
        switch r {
        case .view(let v):
            if scene.views[v].viewController != nil { return .viewController(ofView: v) }  // R2
            if let s = scene.views[v].superview { return .view(s) }                         // R2
            return includeWindowScene ? .windowScene : .application                       // R4, R6
        case .viewController(let v):
            if let presenter = scene.views[v].viewController?.presentedBy, let p = responder(withId: presenter) {
                return p                                                                   // R3
            }
            guard let s = scene.views[v].superview else { return nil }
            return .view(s)                                   // R3: the window, or the superview (R5)
        case .windowScene:
            return .application
        case .application:
            return appDelegateRef != nil && appDelegateIsResponder ? .appDelegate : nil  // R4
        case .appDelegate:
            return nil                                                                     // R4
        }
    }

    /// R9: the chain from `first` by repeated `nextResponder`. A cycle (possible only through R7
    /// overrides) ends the chain; `cycle` names the responder that would have repeated.
    ///
    /// The chain itself is the set of responders seen: a short one (every real chain) is
    /// scanned, and a `Set` is built only past 32 links. Hashing every link of a seven-link
    /// chain cost 14k instructions per tap (callgrind; `cancelTimers` does without a `Set` for
    /// the same reason).
    public func responderChain(from first: Responder, includeWindowScene: Bool) -> (chain: [Responder], cycle: Responder?) {
        var chain: [Responder] = []
        chain.reserveCapacity(8)
        var seen = Set<Responder>()
        var current: Responder? = first
        while let r = current {
            if chain.count < 32 {
                if chain.contains(r) { return (chain, r) }
            } else {
                if seen.isEmpty { seen = Set(chain) }
                if !seen.insert(r).inserted { return (chain, r) }
            }
            chain.append(r)
            current = nextResponder(r, includeWindowScene: includeWindowScene)
        }
        return (chain, nil)
    }

    public func touchOverrides(_ r: Responder) -> TouchOverrides? {
        switch r {
        case .view(let v): return viewTouchOverrides[v]
        case .viewController(let v): return scene.views[v].viewController?.overrides?.touches
        case .application: return scene.app?.overrides?.touches
        case .appDelegate: return scene.app?.delegate?.overrides?.touches
        case .windowScene: return nil
        }
    }

    /// Action selectors the responder implements (A2, A4).
    public func implements(_ r: Responder, _ selector: String) -> Bool {
        switch r {
        case .view(let v): return scene.views[v].implements?.contains(selector) ?? false
        case .viewController(let v): return scene.views[v].viewController?.implements?.contains(selector) ?? false
        case .application: return scene.app?.implements?.contains(selector) ?? false
        case .appDelegate: return scene.app?.delegate?.implements?.contains(selector) ?? false
        case .windowScene: return false
        }
    }

    /// A declared `canPerformAction:withSender:` answer (A4), if any.
    public func canPerformOverride(_ r: Responder, _ selector: String) -> Bool? {
        switch r {
        case .view(let v): return scene.views[v].overrides?.canPerformAction?[selector]
        case .viewController(let v): return scene.views[v].viewController?.overrides?.canPerformAction?[selector]
        case .application: return scene.app?.overrides?.canPerformAction?[selector]
        case .appDelegate: return scene.app?.delegate?.overrides?.canPerformAction?[selector]
        case .windowScene: return nil
        }
    }

    /// Whether an object with this id implements a selector (targets that are not responders,
    /// like a recognizer's delegate object, are taken to implement what they are sent).
    public func implements(objectId id: String, _ selector: String) -> Bool {
        guard let r = responder(withId: id) else { return true }
        return implements(r, selector)
    }
}
