/// Checks what a scene means, beyond its JSON shape: unique ids, references that resolve,
/// geometry that determines the view's bounds, and properties that belong to the view's class.
/// Works the same on decoded scenes and on scenes built in code (importers, tests).
///
/// A class, and views passed borrowed: the checks' pointer closures capture the validator,
/// and as a struct it was copied (the scene's arrays retained and released) for each of them,
/// a quarter of validating a view.
public final class SceneValidator {
    let scene: Scene
    let base: String
    /// A reference, so that building a pointer (which reads the scene) while recording an issue
    /// is not an overlapping access to the validator.
    private let issues = IssueSink()
    /// Every key command's id (its own or `<responder>.keyCommands[<i>]`), and where it is.
    private var keyCommandIds: [String: (owner: SceneObject, index: Int)] = [:]

    final class IssueSink {
        var list = IssueList()
        func add(_ pointer: @autoclosure () -> String, _ message: @autoclosure () -> String) {
            list.add(pointer(), message())
        }
    }

    public static func validate(_ scene: Scene, at base: String = "") -> IssueList {
        validateKeepingDirectory(scene, at: base).issues
    }

    /// Validates and also returns the id directory it built, so that indexing the scene does
    /// not build it again.
    public static func validateKeepingDirectory(_ scene: Scene, at base: String = "") -> (issues: IssueList, directory: ObjectDirectory) {
        let v = SceneValidator(scene: scene, base: base)
        let directory = v.run()
        return (v.issues.list, directory)
    }

    init(scene: Scene, base: String) { self.scene = scene; self.base = base }

    // MARK: pointers

    /// RFC 6901 pointer of a view, from its position among its siblings.
    public static func pointer(ofView index: Int, in scene: Scene, base: String = "") -> String {
        var positions: [Int] = []
        var v = index
        while let parent = scene.views[v].superview {
            positions.append(scene.views[parent].subviews.firstIndex(of: v) ?? 0)
            v = parent
        }
        var p = base.pointer("windows").pointer(scene.windows.firstIndex(of: v) ?? 0)
        // Appended in place: `p = p.pointer(…)` made a new string per level, O(depth²) bytes
        // copied for a view `depth` levels down.
        for pos in positions.reversed() {
            p += "/subviews/"
            p += String(pos)
        }
        return p
    }

    func pointer(_ view: Int) -> String { SceneValidator.pointer(ofView: view, in: scene, base: base) }

    func pointer(of object: SceneObject) -> String {
        switch object {
        case .view(let v): return pointer(v)
        case .viewController(let v): return pointer(v).pointer("viewController")
        case .recognizer(let v, let r): return pointer(v).pointer("gestureRecognizers").pointer(r)
        case .builtInRecognizer(let v, _): return pointer(v) + " (built-in recognizer)"
        case .application: return base.pointer("app")
        case .appDelegate: return base.pointer("app").pointer("delegate")
        case .delegateObject(let v, let r): return pointer(v).pointer("gestureRecognizers").pointer(r).pointer("delegate")
        }
    }

    // MARK: checks

    @discardableResult
    func run() -> ObjectDirectory {
        var duplicates: [(String, SceneObject, SceneObject)] = []
        let directory = ObjectDirectory(scene: scene) { id, first, second in duplicates.append((id, first, second)) }
        for (id, first, second) in duplicates {
            // Pointers only for the issues listed (past the cap they are counted): each costs
            // the depth of its view.
            issues.add(idPointer(of: second, at: pointer(of: second)), "duplicate id \"\(id)\": already used at \(pointer(of: first))")
        }
        if scene.windows.isEmpty {
            issues.add(base.pointer("windows"), "a scene needs at least one window")
        }
        checkApp(directory)
        var isWindow = [Bool](repeating: false, count: scene.views.count)
        for w in scene.windows where w >= 0 && w < isWindow.count { isWindow[w] = true }
        scene.views.withUnsafeBufferPointer { views in
            for v in views.indices { checkView(v, views.baseAddress! + v, isWindow: isWindow[v], directory) }
        }
        return directory
    }

    private func idPointer(of object: SceneObject, at pointer: String) -> String {
        switch object {
        case .builtInRecognizer: return pointer
        default: return pointer.pointer("id")
        }
    }

    private func checkResponderRef(_ id: String?, at pointer: @autoclosure () -> String,
                                            _ directory: ObjectDirectory, what: String) {
        guard let id else { return }
        switch directory[id] {
        case nil: issues.add(pointer(), "\(what) \"\(id)\" is not an id in this scene")
        case let object? where !object.isResponder:
            issues.add(pointer(), "\(what) \"\(id)\" is not a responder (views, view controllers, the application and its delegate are)")
        default: break
        }
    }

    private func checkTargetRef(_ id: String?, at pointer: @autoclosure () -> String, _ directory: ObjectDirectory) {
        guard let id else { return }
        switch directory[id] {
        case nil: issues.add(pointer(), "target \"\(id)\" is not an id in this scene")
        case let object? where object.isRecognizer:
            issues.add(pointer(), "target \"\(id)\" is a gesture recognizer, which has no action methods here")
        default: break
        }
    }

    private func checkRecognizerRefs(_ ids: [String], at pointer: (Int) -> String,
                                              _ directory: ObjectDirectory, selfId: String? = nil) {
        for (i, id) in ids.enumerated() {
            if id == selfId {
                issues.add(pointer(i), "a recognizer cannot refer to itself here")
            } else if directory[id]?.isRecognizer != true {
                issues.add(pointer(i), "\"\(id)\" is not a gesture recognizer id in this scene")
            }
        }
    }

    private func checkSelectors(_ selectors: [String]?, at pointer: @autoclosure () -> String) {
        for (i, s) in (selectors ?? []).enumerated() where !SceneValidator.isSelector(s) {
            issues.add(pointer().pointer(i), "\"\(s)\" is not an Objective-C selector (like \"save:\" or \"save:forEvent:\")")
        }
    }

    static func isSelector(_ s: String) -> Bool {
        // ASCII selectors (nearly all) by their bytes: Unicode's letter property is costly.
        var s = s
        let ascii: Bool? = s.withUTF8 { bytes in
            guard !bytes.isEmpty, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            for (k, b) in bytes.enumerated() {
                let letter = (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A
                let allowed = letter || b == 0x5F || (k > 0 && (b == 0x3A || (b >= 0x30 && b <= 0x39)))
                if !allowed { return false }
            }
            return true
        }
        if let ascii { return ascii }
        guard let first = s.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return s.unicodeScalars.allSatisfy { $0 == ":" || $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }

    private func checkResponderOverrides(_ o: ResponderOverrides?, at pointer: @autoclosure () -> String, _ directory: ObjectDirectory) {
        guard let o else { return }
        checkResponderRef(o.nextResponder, at: pointer().pointer("nextResponder"), directory, what: "nextResponder")
    }

    private func checkApp(_ directory: ObjectDirectory) {
        guard let app = scene.app else { return }
        let at = base.pointer("app")
        checkSelectors(app.implements, at: at.pointer("implements"))
        checkResponderOverrides(app.overrides, at: at.pointer("overrides"), directory)
        checkResponderRef(app.focusedResponder, at: at.pointer("focusedResponder"), directory, what: "focusedResponder")
        if let d = app.delegate {
            checkSelectors(d.implements, at: at.pointer("delegate").pointer("implements"))
            checkResponderOverrides(d.overrides, at: at.pointer("delegate").pointer("overrides"), directory)
            if d.isResponder == false, let o = d.overrides,
               o.touches != nil || o.nextResponder != nil || o.presses != nil || o.motion != nil || o.remoteControl != nil {
                issues.add(at.pointer("delegate").pointer("overrides"), "a delegate that is not a UIResponder has no touch, press, motion or remote-control methods or nextResponder")
            }
            if d.isResponder == false, !d.traits.isEmpty {
                issues.add(at.pointer("delegate"), "a delegate that is not a UIResponder cannot become first responder, take text or declare key commands")
            }
            checkTraits(d.traits, owner: .appDelegate, responder: d.id, directory)
        }
        checkTraits(app.traits, owner: .application, responder: app.id ?? ObjectDirectory.defaultApplicationId, directory)
    }

    /// A responder's key commands (contract §2.1, KC3): selectors for actions, and ids (given or
    /// `<responder>.keyCommands[<i>]`) that no other key command or object of the scene has.
    private func checkTraits(_ traits: ResponderTraits, owner: SceneObject, responder: String, _ directory: ObjectDirectory) {
        guard let commands = traits.keyCommands else { return }
        var at: String { pointer(of: owner).pointer("keyCommands") }
        for (i, c) in commands.enumerated() {
            if !SceneValidator.isSelector(c.action) {
                issues.add(at.pointer(i).pointer("action"), "\"\(c.action)\" is not an Objective-C selector")
            }
            let id = ResponderTraits.keyCommandID(c, responder: responder, index: i)
            var idPointer: String { c.id == nil ? at.pointer(i) : at.pointer(i).pointer("id") }
            if let first = keyCommandIds[id] {
                issues.add(idPointer, "duplicate key command id \"\(id)\": already used at \(pointer(of: first.owner).pointer("keyCommands").pointer(first.index))")
            } else if directory[id] != nil {
                issues.add(idPointer, "key command id \"\(id)\" is already the id of another object of this scene")
            } else {
                keyCommandIds[id] = (owner, i)
            }
        }
    }

    /// `spec` points at the view in the scene: read in place, not copied.
    private func checkView(_ v: Int, _ spec: UnsafePointer<ViewSpec>, isWindow: Bool, _ directory: ObjectDirectory) {
        // Built only when an issue is recorded: eagerly it would cost O(depth) per view.
        var here: String { pointer(v) }
        // The properties most views leave out are checked only when some are set (issues in
        // the order of the view's properties, as before).
        let rare = spec.pointee.hasRareProperties
        if isWindow, spec.pointee.base != .UIWindow {
            issues.add(here.pointer(spec.pointee.explicitBase ? "base" : "class"),
                       "a window's base class must be UIWindow, not \(spec.pointee.base.rawValue)")
        }
        if !isWindow, spec.pointee.base == .UIWindow {
            issues.add(here.pointer(spec.pointee.explicitBase ? "base" : "class"), "a UIWindow can only appear in /windows")
        }
        if !isWindow {
            if spec.pointee.level != nil { issues.add(here.pointer("level"), "only windows have a level") }
            if spec.pointee.isKey != nil { issues.add(here.pointer("isKey"), "only windows have isKey") }
        }
        if rare, isWindow, spec.pointee.viewController != nil {
            issues.add(here.pointer("viewController"), "a window is not a view controller's view; put the root view controller on the window's root view")
        }
        if !spec.pointee.base.isControl, spec.pointee.enabled != nil {
            issues.add(here.pointer("enabled"), "only UIControl subclasses have enabled (base is \(spec.pointee.base.rawValue))")
        }
        if rare { checkClassSpecificProperties(v, spec) }
        checkGeometry(spec, at: { here })
        if rare { checkReferences(v, spec, directory) }
    }

    /// Properties set on a view whose class has none (rare properties only).
    private func checkClassSpecificProperties(_ v: Int, _ spec: UnsafePointer<ViewSpec>) {
        var here: String { pointer(v) }
        if !spec.pointee.base.isControl {
            if spec.pointee.targets != nil { issues.add(here.pointer("targets"), "only UIControl subclasses have a target-action table (base is \(spec.pointee.base.rawValue))") }
            if spec.pointee.overrides?.beginTracking != nil { issues.add(here.pointer("overrides").pointer("beginTracking"), "only UIControl subclasses track touches") }
            if spec.pointee.overrides?.continueTracking != nil { issues.add(here.pointer("overrides").pointer("continueTracking"), "only UIControl subclasses track touches") }
        }
        if !spec.pointee.base.isScrollView {
            if spec.pointee.scrollView != nil { issues.add(here.pointer("scrollView"), "only UIScrollView subclasses have scrollView settings (base is \(spec.pointee.base.rawValue))") }
            if spec.pointee.overrides?.touchesShouldBegin != nil { issues.add(here.pointer("overrides").pointer("touchesShouldBegin"), "only UIScrollView subclasses have touchesShouldBegin") }
            if spec.pointee.overrides?.touchesShouldCancel != nil { issues.add(here.pointer("overrides").pointer("touchesShouldCancel"), "only UIScrollView subclasses have touchesShouldCancel") }
        }
    }

    /// Selectors and references of the rare properties: implements, overrides, targets, the
    /// view controller, the recognizers.
    ///
    /// Pointers are written only for an issue (computed properties, autoclosures): the pointer
    /// of a view d levels deep costs O(d²), so writing one for every view with overrides or a
    /// view controller made a deep chain of them cubic.
    private func checkReferences(_ v: Int, _ spec: UnsafePointer<ViewSpec>, _ directory: ObjectDirectory) {
        var here: String { pointer(v) }
        checkSelectors(spec.pointee.implements, at: here.pointer("implements"))
        if let o = spec.pointee.overrides {
            var at: String { here.pointer("overrides") }
            if case .redirect(let target)? = o.hitTest {
                if case .view? = directory[target] {} else {
                    issues.add(at.pointer("hitTest").pointer("redirect"), "\"\(target)\" is not a view id in this scene")
                }
            }
            checkResponderRef(o.nextResponder, at: at.pointer("nextResponder"), directory, what: "nextResponder")
            for gr in (o.gestureRecognizerShouldBegin?.byRecognizer.keys.sorted() ?? []) where directory[gr]?.isRecognizer != true {
                issues.add(at.pointer("gestureRecognizerShouldBegin").pointer("byRecognizer").pointer(gr),
                           "\"\(gr)\" is not a gesture recognizer id in this scene")
            }
        }
        for (i, t) in (spec.pointee.targets ?? []).enumerated() {
            checkTargetRef(t.target, at: here.pointer("targets").pointer(i).pointer("target"), directory)
            if !SceneValidator.isSelector(t.action) {
                issues.add(here.pointer("targets").pointer(i).pointer("action"), "\"\(t.action)\" is not an Objective-C selector")
            }
        }
        checkTraits(spec.pointee.traits, owner: .view(v), responder: spec.pointee.id, directory)
        if let vc = spec.pointee.viewController {
            var at: String { here.pointer("viewController") }
            checkTraits(vc.traits, owner: .viewController(ofView: v), responder: vc.id, directory)
            if let p = vc.presentedBy {
                if p == vc.id {
                    issues.add(at.pointer("presentedBy"), "a view controller cannot present itself")
                } else if case .viewController? = directory[p] {} else {
                    issues.add(at.pointer("presentedBy"), "\"\(p)\" is not a view controller id in this scene")
                }
            }
            checkSelectors(vc.implements, at: at.pointer("implements"))
            checkResponderOverrides(vc.overrides, at: at.pointer("overrides"), directory)
        }
        for (r, gr) in (spec.pointee.gestureRecognizers ?? []).enumerated() {
            checkRecognizer(gr, at: { here.pointer("gestureRecognizers").pointer(r) }, directory)
        }
    }

    /// Contract §1: `frame`, or `center` with `bounds`; a transform with a frame means the frame
    /// is the transformed bounding box.
    private func checkGeometry(_ spec: UnsafePointer<ViewSpec>, at hereFn: () -> String) {
        var here: String { hereFn() }
        switch (spec.pointee.frame, spec.pointee.center) {
        case (nil, nil):
            issues.add(here, "needs \"frame\" (or \"center\" with \"bounds\")")
        case (_?, _?):
            issues.add(here.pointer("center"), "give \"frame\" or \"center\", not both")
        case (nil, _?):
            if spec.pointee.bounds == nil { issues.add(here.pointer("bounds"), "\"center\" needs \"bounds\" for the view's size") }
        case (let frame?, nil):
            let t = spec.pointee.transform ?? .identity
            if t.isIdentity {
                if let b = spec.pointee.bounds, b.size != frame.size {
                    issues.add(here.pointer("bounds"), "bounds size \(NumberText.format(b.size.width))×\(NumberText.format(b.size.height)) differs from frame size \(NumberText.format(frame.size.width))×\(NumberText.format(frame.size.height)); without a transform they are the same")
                }
            } else if spec.pointee.bounds == nil, ViewGeometryResolver.solveSize(frame: frame, transform: t) == nil {
                issues.add(here.pointer("transform"), "this transform does not determine the bounds size from the frame (bounding box); give \"bounds\" as well")
            }
        }
    }

    private func checkRecognizer(_ gr: borrowing RecognizerSpec, at hereFn: () -> String, _ directory: ObjectDirectory) {
        var here: String { hereFn() }
        let b = gr.base
        func only(_ present: Bool, _ key: String, _ allowed: [RecognizerBase]) {
            if present, !allowed.contains(b) {
                issues.add(here.pointer(key), "\(b.rawValue) has no \(key) (it belongs to " + allowed.map(\.rawValue).joined(separator: ", ") + ")")
            }
        }
        only(gr.numberOfTapsRequired != nil, "numberOfTapsRequired", [.tap, .longPress])
        only(gr.numberOfTouchesRequired != nil, "numberOfTouchesRequired", [.tap, .longPress, .swipe])
        only(gr.minimumPressDuration != nil, "minimumPressDuration", [.longPress])
        only(gr.allowableMovement != nil, "allowableMovement", [.longPress])
        only(gr.minimumNumberOfTouches != nil, "minimumNumberOfTouches", [.pan, .screenEdgePan])
        only(gr.maximumNumberOfTouchesGiven, "maximumNumberOfTouches", [.pan, .screenEdgePan])
        only(gr.direction != nil, "direction", [.swipe])
        only(gr.edges != nil, "edges", [.screenEdgePan])
        if b == .tap, gr.numberOfTapsRequired == 0 {
            issues.add(here.pointer("numberOfTapsRequired"), "a tap recognizer needs at least one tap")
        }
        if let lo = gr.minimumNumberOfTouches, let hi = gr.maximumNumberOfTouches, hi < lo {
            issues.add(here.pointer("maximumNumberOfTouches"), "must be ≥ minimumNumberOfTouches (\(lo))")
        }
        checkRecognizerRefs(gr.requireToFail ?? [], at: { here.pointer("requireToFail").pointer($0) }, directory, selfId: gr.id)
        for (i, t) in gr.targets.enumerated() {
            checkTargetRef(t.target, at: here.pointer("targets").pointer(i).pointer("target"), directory)
            if !SceneValidator.isSelector(t.action) {
                issues.add(here.pointer("targets").pointer(i).pointer("action"), "\"\(t.action)\" is not an Objective-C selector")
            }
        }
        if let d = gr.delegate {
            let at = here.pointer("delegate")
            switch directory[d.id] {
            case nil where !d.id.isEmpty:
                issues.add(at.pointer("id"), "\"\(d.id)\" is not an id in this scene; give \"class\" for a delegate object that is not a view, controller or the app")
            case let object? where object.isRecognizer:
                issues.add(at.pointer("id"), "\"\(d.id)\" is a gesture recognizer; a recognizer's delegate is another object")
            default: break
            }
            let lists: [(String, RecognizerDelegateSpec.RecognizerList?)] = [
                ("shouldRecognizeSimultaneouslyWith", d.shouldRecognizeSimultaneouslyWith),
                ("shouldRequireFailureOf", d.shouldRequireFailureOf),
                ("shouldBeRequiredToFailBy", d.shouldBeRequiredToFailBy),
            ]
            for (key, list) in lists {
                if case .ids(let ids)? = list {
                    checkRecognizerRefs(ids, at: { at.pointer(key).pointer($0) }, directory, selfId: gr.id)
                }
            }
        }
    }
}

extension SceneValidator {
    /// What is legal but almost certainly not what the scene means, with pointers into the
    /// scene document: a key command whose action no responder of the scene implements (KC4
    /// skips it whenever it matches, so the key does what it would do without it).
    public static func warnings(_ scene: Scene) -> [ValidationIssue] {
        var implemented = Set<String>()
        var commands: [(pointer: () -> String, command: KeyCommandSpec)] = []
        for v in scene.views.indices where scene.views[v].hasRareProperties {
            implemented.formUnion(scene.views[v].implements ?? [])
            for (k, c) in (scene.views[v].traits.keyCommands ?? []).enumerated() {
                commands.append(({ pointer(ofView: v, in: scene).pointer("keyCommands").pointer(k) }, c))
            }
            if let vc = scene.views[v].viewController {
                implemented.formUnion(vc.implements ?? [])
                for (k, c) in (vc.traits.keyCommands ?? []).enumerated() {
                    commands.append(({ pointer(ofView: v, in: scene).pointer("viewController").pointer("keyCommands").pointer(k) }, c))
                }
            }
        }
        if let app = scene.app {
            implemented.formUnion(app.implements ?? [])
            for (k, c) in (app.traits.keyCommands ?? []).enumerated() {
                commands.append(({ "".pointer("app").pointer("keyCommands").pointer(k) }, c))
            }
            if let d = app.delegate {
                implemented.formUnion(d.implements ?? [])
                for (k, c) in (d.traits.keyCommands ?? []).enumerated() {
                    commands.append(({ "".pointer("app").pointer("delegate").pointer("keyCommands").pointer(k) }, c))
                }
            }
        }
        return commands.compactMap { pointer, c in
            implemented.contains(c.action) ? nil : ValidationIssue(
                pointer().pointer("action"),
                "no responder of this scene implements \(c.action) (implements): the key command is skipped whenever it matches (KC4)")
        }
    }
}
