/// A validated scene, indexed once for dispatch: effective property values, resolved geometry,
/// recognizers (built-in ones included) and the id directory. Immutable and shared by every run
/// against the scene; a run never copies it (brief: "no work per request that could be done
/// once per scene").
public final class SceneIndex: Sendable {
    public let scene: Scene
    public let directory: ObjectDirectory
    public let geometry: [ViewGeometry]
    /// H3: alpha is stored as a Float32, like the layer's opacity.
    public let alpha: [Float]
    let flags: [ViewFlags]
    /// View index of each view's window.
    public let windowOf: [Int]
    /// Windows in the order a new touch is offered to them (W1): higher level first; among
    /// equal levels the later (front-most) one first.
    public let windowsFrontToBack: [Int]
    public let recognizers: [RecognizerInfo]
    /// Recognizer indices per view, in `gestureRecognizers` order (SV1's built-ins first).
    let recognizersOfView: [Int: [Int]]
    let recognizerIndexById: [String: Int]
    public let applicationRef: ObjectRef
    public let appDelegateRef: ObjectRef?
    public let appDelegateIsResponder: Bool

    struct ViewFlags: OptionSet, Sendable {
        let rawValue: UInt16
        static let hidden = ViewFlags(rawValue: 1 << 0)
        static let userInteractionEnabled = ViewFlags(rawValue: 1 << 1)
        static let animating = ViewFlags(rawValue: 1 << 2)
        static let multipleTouchEnabled = ViewFlags(rawValue: 1 << 3)
        static let exclusiveTouch = ViewFlags(rawValue: 1 << 4)
        static let enabled = ViewFlags(rawValue: 1 << 5)
    }

    /// Validates and indexes `scene`. Throws every issue found.
    public convenience init(validating scene: Scene) throws(ValidationFailure) {
        let issues = SceneValidator.validate(scene)
        guard issues.isEmpty else { throw ValidationFailure(issues) }
        self.init(validated: scene)
    }

    /// Indexes a scene that `SceneValidator` accepted.
    public init(validated scene: Scene) {
        self.scene = scene
        self.directory = ObjectDirectory(scene: scene)
        let n = scene.views.count
        var geometry: [ViewGeometry] = []
        var alpha: [Float] = []
        var flags: [ViewFlags] = []
        var windowOf = [Int](repeating: -1, count: n)
        geometry.reserveCapacity(n); alpha.reserveCapacity(n); flags.reserveCapacity(n)
        for (v, view) in scene.views.enumerated() {
            geometry.append(ViewGeometryResolver.resolve(view)
                            ?? ViewGeometry(frame: Rect(0, 0, 0, 0), boundsOrigin: .zero))
            alpha.append(Float(view.alpha ?? 1))
            var f: ViewFlags = []
            if view.hidden == true { f.insert(.hidden) }
            if view.userInteractionEnabled ?? view.base.defaultUserInteractionEnabled { f.insert(.userInteractionEnabled) }
            if view.animating == true { f.insert(.animating) }
            if view.multipleTouchEnabled == true { f.insert(.multipleTouchEnabled) }
            if view.exclusiveTouch == true { f.insert(.exclusiveTouch) }
            if view.enabled ?? true { f.insert(.enabled) }
            flags.append(f)
            _ = v
        }
        // Windows first, then every view inherits its superview's window; views are visited in
        // an order where superviews come first (document order, or any order built in code).
        for w in scene.windows { windowOf[w] = w }
        var stack = scene.windows
        while let v = stack.popLast() {
            for s in scene.views[v].subviews { windowOf[s] = windowOf[v]; stack.append(s) }
        }
        self.geometry = geometry
        self.alpha = alpha
        self.flags = flags
        self.windowOf = windowOf
        self.windowsFrontToBack = scene.windows.enumerated().sorted { l, r in
            let ll = scene.views[l.element].level ?? 0, rl = scene.views[r.element].level ?? 0
            return ll != rl ? ll > rl : l.offset > r.offset
        }.map(\.element)

        let app = scene.app
        self.applicationRef = ObjectRef(id: app?.id ?? ObjectDirectory.defaultApplicationId,
                                        className: app?.className ?? "UIApplication")
        self.appDelegateRef = app?.delegate.map { ObjectRef(id: $0.id, className: $0.className) }
        self.appDelegateIsResponder = app?.delegate?.isResponder ?? true

        // Recognizers.
        var recognizers: [RecognizerInfo] = []
        var ofView: [Int: [Int]] = [:]
        var byId: [String: Int] = [:]
        for (v, view) in scene.views.enumerated() {
            var list: [Int] = []
            if view.base.isScrollView {
                for info in RecognizerInfo.scrollViewBuiltIns(view: v, spec: view) {
                    byId[info.id] = recognizers.count
                    list.append(recognizers.count)
                    recognizers.append(info)
                }
            }
            for gr in view.gestureRecognizers ?? [] {
                byId[gr.id] = recognizers.count
                list.append(recognizers.count)
                recognizers.append(RecognizerInfo(spec: gr, view: v))
            }
            if !list.isEmpty { ofView[v] = list }
        }
        // Resolve references by id once.
        for i in recognizers.indices {
            recognizers[i].requireToFail = (recognizers[i].spec?.requireToFail ?? []).compactMap { byId[$0] }
        }
        self.recognizers = recognizers
        self.recognizersOfView = ofView
        self.recognizerIndexById = byId
    }

    // MARK: views

    public var viewCount: Int { scene.views.count }
    public func view(_ v: Int) -> ViewSpec { scene.views[v] }
    public func ref(view v: Int) -> ObjectRef { ObjectRef(id: scene.views[v].id, className: scene.views[v].className) }
    public func superview(_ v: Int) -> Int? { scene.views[v].superview }
    public func isHidden(_ v: Int) -> Bool { flags[v].contains(.hidden) }
    public func isUserInteractionEnabled(_ v: Int) -> Bool { flags[v].contains(.userInteractionEnabled) }
    public func isAnimating(_ v: Int) -> Bool { flags[v].contains(.animating) }
    public func isMultipleTouchEnabled(_ v: Int) -> Bool { flags[v].contains(.multipleTouchEnabled) }
    public func isExclusiveTouch(_ v: Int) -> Bool { flags[v].contains(.exclusiveTouch) }
    /// `UIControl.isEnabled`; true for views that are not controls.
    public func isEnabled(_ v: Int) -> Bool { flags[v].contains(.enabled) }
    public func isEnabledControl(_ v: Int) -> Bool { scene.views[v].base.isControl && isEnabled(v) }

    /// H3: `Double(Float(alpha)) < threshold`: the stored Float32 against the double constant.
    public func isTransparent(_ v: Int, threshold: Double) -> Bool { Double(alpha[v]) < threshold }

    public func view(withId id: String) -> Int? {
        if case .view(let v)? = directory[id] { return v }
        return nil
    }

    /// Whether `ancestor` is `v` or one of its superviews.
    public func isDescendant(_ v: Int, of ancestor: Int) -> Bool {
        var current: Int? = v
        while let c = current {
            if c == ancestor { return true }
            current = scene.views[c].superview
        }
        return false
    }

    /// `view` and its superviews up to the window, deepest first.
    public func ancestry(_ v: Int) -> [Int] {
        var out: [Int] = []
        var current: Int? = v
        while let c = current { out.append(c); current = scene.views[c].superview }
        return out
    }

    // MARK: coordinates

    /// A screen point in view `v`'s bounds coordinates (windows sit in screen coordinates).
    public func convertFromScreen(_ p: Point, to v: Int) -> Point {
        var chain = ancestry(v)
        var q = p
        while let c = chain.popLast() { q = geometry[c].convertFromSuperview(q) }
        return q
    }

    /// A point in view `v`'s bounds coordinates on the screen.
    public func convertToScreen(_ p: Point, from v: Int) -> Point {
        var q = p
        var current: Int? = v
        while let c = current { q = geometry[c].convertToSuperview(q); current = scene.views[c].superview }
        return q
    }

    /// A screen point in the coordinates of `v`'s window.
    public func convertFromScreenToWindow(_ p: Point, of v: Int) -> Point {
        geometry[windowOf[v]].convertFromSuperview(p)
    }

    // MARK: recognizers

    public func recognizers(ofView v: Int) -> [Int] { recognizersOfView[v] ?? [] }
    public func recognizer(withId id: String) -> Int? { recognizerIndexById[id] }

    /// The nearest UIScrollView strictly above `v` (SV4: content views ask it).
    public func enclosingScrollView(of v: Int) -> Int? {
        var current = scene.views[v].superview
        while let c = current {
            if scene.views[c].base.isScrollView { return c }
            current = scene.views[c].superview
        }
        return nil
    }
}
