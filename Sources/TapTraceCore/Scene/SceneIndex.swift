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
    /// Hot per-view values kept flat, so hit-testing and delivery read them without copying
    /// a `ViewSpec` (a few hundred bytes with a dozen reference-counted fields).
    public let refs: [ObjectRef]
    public let bases: [ViewBase]
    let hitTestOverrides: [HitTestOverride?]
    let pointInsideOverrides: [PointInsideOverride?]
    let viewTouchOverrides: [TouchOverrides?]
    /// Subviews of view v are `children[childStart[v]..<childStart[v + 1]]`, back to front.
    let childStart: [Int]
    let children: [Int]
    public let applicationRef: ObjectRef
    public let appDelegateRef: ObjectRef?
    public let appDelegateIsResponder: Bool
    /// What a trace names, numbered, with each ref's JSON written once (`SceneObjects`).
    package let objects: SceneObjects
    let objectNumbers: ObjectNumbers
    /// The defaults with the scene's knobs.
    public let knobs: Knobs
    /// `SceneValidator.warnings`, found once per scene (none without key commands).
    public let warnings: [ValidationIssue]

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
        let (issues, directory) = SceneValidator.validateKeepingDirectory(scene)
        guard issues.isEmpty else { throw ValidationFailure(issues) }
        self.init(validated: scene, directory: directory)
    }

    /// Indexes a scene that `SceneValidator` accepted.
    public convenience init(validated scene: Scene) {
        self.init(validated: scene, directory: ObjectDirectory(scene: scene))
    }

    /// Indexes a validated scene with the directory its validation built.
    public init(validated scene: Scene, directory: ObjectDirectory) {
        self.scene = scene
        self.directory = directory
        let n = scene.views.count
        var geometry: [ViewGeometry] = []
        var alpha: [Float] = []
        var flags: [ViewFlags] = []
        var refs: [ObjectRef] = []
        var bases: [ViewBase] = []
        var hitTestOverrides: [HitTestOverride?] = []
        var pointInsideOverrides: [PointInsideOverride?] = []
        var viewTouchOverrides: [TouchOverrides?] = []
        var childStart: [Int] = [0]
        var children: [Int] = []
        var windowOf = [Int](repeating: -1, count: n)
        var hasKeyCommands = scene.app.map { $0.traits.keyCommands != nil || $0.delegate?.traits.keyCommands != nil } ?? false
        geometry.reserveCapacity(n); alpha.reserveCapacity(n); flags.reserveCapacity(n)
        refs.reserveCapacity(n); bases.reserveCapacity(n); childStart.reserveCapacity(n + 1); children.reserveCapacity(n)
        hitTestOverrides.reserveCapacity(n); pointInsideOverrides.reserveCapacity(n); viewTouchOverrides.reserveCapacity(n)
        scene.views.withUnsafeBufferPointer { views in
            for v in 0..<n {
                geometry.append(ViewGeometryResolver.resolve(frame: views[v].frame, bounds: views[v].bounds,
                                                             center: views[v].center, transform: views[v].transform)
                                ?? ViewGeometry(frame: Rect(0, 0, 0, 0), boundsOrigin: .zero))
                alpha.append(Float(views[v].alpha ?? 1))
                var f: ViewFlags = []
                if views[v].hidden == true { f.insert(.hidden) }
                if views[v].userInteractionEnabled ?? views[v].base.defaultUserInteractionEnabled { f.insert(.userInteractionEnabled) }
                if views[v].animating == true { f.insert(.animating) }
                if views[v].multipleTouchEnabled == true { f.insert(.multipleTouchEnabled) }
                if views[v].exclusiveTouch == true { f.insert(.exclusiveTouch) }
                if views[v].enabled ?? true { f.insert(.enabled) }
                flags.append(f)
                refs.append(ObjectRef(id: views[v].id, className: views[v].className))
                bases.append(views[v].base)
                hitTestOverrides.append(views[v].overrides?.hitTest)
                pointInsideOverrides.append(views[v].overrides?.pointInside)
                viewTouchOverrides.append(views[v].overrides?.touches)
                if views[v].hasRareProperties,
                   views[v].traits.keyCommands != nil || views[v].viewController?.traits.keyCommands != nil {
                    hasKeyCommands = true
                }
                children.append(contentsOf: views[v].subviews)
                childStart.append(children.count)
            }
        }
        // Windows first, then every view inherits its superview's window; views are visited in
        // an order where superviews come first (document order, or any order built in code).
        for w in scene.windows { windowOf[w] = w }
        var stack = scene.windows
        while let v = stack.popLast() {
            for k in childStart[v]..<childStart[v + 1] { windowOf[children[k]] = windowOf[v]; stack.append(children[k]) }
        }
        self.geometry = geometry
        self.alpha = alpha
        self.flags = flags
        self.windowOf = windowOf
        self.refs = refs
        self.bases = bases
        self.hitTestOverrides = hitTestOverrides
        self.pointInsideOverrides = pointInsideOverrides
        self.viewTouchOverrides = viewTouchOverrides
        self.childStart = childStart
        self.children = children
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
        scene.views.withUnsafeBufferPointer { views in
            for v in 0..<n where views[v].base.isScrollView || views[v].gestureRecognizers != nil {
                var list: [Int] = []
                if views[v].base.isScrollView {
                    for info in RecognizerInfo.scrollViewBuiltIns(view: v, spec: views[v]) {
                        byId[info.id] = recognizers.count
                        list.append(recognizers.count)
                        recognizers.append(info)
                    }
                }
                for gr in views[v].gestureRecognizers ?? [] {
                    byId[gr.id] = recognizers.count
                    list.append(recognizers.count)
                    recognizers.append(RecognizerInfo(spec: gr, view: v))
                }
                if !list.isEmpty { ofView[v] = list }
            }
        }
        // Resolve references by id once.
        for i in recognizers.indices {
            recognizers[i].requireToFail = (recognizers[i].spec?.requireToFail ?? []).compactMap { byId[$0] }
        }
        self.recognizers = recognizers
        self.recognizersOfView = ofView
        self.recognizerIndexById = byId
        knobs = Knobs().applying(scene.knobs)
        warnings = hasKeyCommands ? SceneValidator.warnings(scene) : []
        (objects, objectNumbers) = SceneIndex.numberObjects(views: refs, scene: scene, recognizers: recognizers,
                                                           directory: directory, application: applicationRef,
                                                           appDelegate: appDelegateRef)
    }

    // MARK: views

    public var viewCount: Int { scene.views.count }
    public func view(_ v: Int) -> ViewSpec { scene.views[v] }
    public func ref(view v: Int) -> ObjectRef { refs[v] }
    /// Subviews of `v`, back to front.
    public func subviews(_ v: Int) -> ArraySlice<Int> { children[childStart[v]..<childStart[v + 1]] }
    public func superview(_ v: Int) -> Int? { scene.views[v].superview }
    public func isHidden(_ v: Int) -> Bool { flags[v].contains(.hidden) }
    public func isUserInteractionEnabled(_ v: Int) -> Bool { flags[v].contains(.userInteractionEnabled) }
    public func isAnimating(_ v: Int) -> Bool { flags[v].contains(.animating) }
    public func isMultipleTouchEnabled(_ v: Int) -> Bool { flags[v].contains(.multipleTouchEnabled) }
    public func isExclusiveTouch(_ v: Int) -> Bool { flags[v].contains(.exclusiveTouch) }
    /// `UIControl.isEnabled`; true for views that are not controls.
    public func isEnabled(_ v: Int) -> Bool { flags[v].contains(.enabled) }
    public func isEnabledControl(_ v: Int) -> Bool { bases[v].isControl && isEnabled(v) }

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

    /// How many views `ancestry(v)` has (`v` and its superviews), without building it.
    public func depth(of v: Int) -> Int {
        var n = 0
        var current: Int? = v
        while let c = current { n += 1; current = scene.views[c].superview }
        return n
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
    /// Converts from the window down; the chain is kept in a temporary buffer (no array).
    public func convertFromScreen(_ p: Point, to v: Int) -> Point {
        var depth = 0
        var current: Int? = v
        while let c = current { depth += 1; current = scene.views[c].superview }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: depth) { chain in
            var k = depth
            var c: Int? = v
            while let view = c { k -= 1; chain[k] = view; c = scene.views[view].superview }
            var q = p
            for i in 0..<depth { q = geometry[chain[i]].convertFromSuperview(q) }
            return q
        }
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
            if bases[c].isScrollView { return c }
            current = scene.views[c].superview
        }
        return nil
    }
}
