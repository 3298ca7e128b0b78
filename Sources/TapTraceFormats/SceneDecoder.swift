import TapTraceCore
import TapTraceJSON

/// Decodes a scene document from a JSON tape: types, required keys, ranges and unknown keys.
/// Cross-references (ids, targets, geometry) are checked afterwards by `SceneValidator`, which
/// works the same on scenes built in code.
public struct SceneDecoder {
    public let reader: DocumentReader
    private let classNames = ClassNames()
    public init(reader: DocumentReader) { self.reader = reader }

    /// The class names met so far, by their bytes: a scene names a few classes again and again
    /// (a table's cells, their labels), and making a `String` of each again, and looking up its
    /// UIKit base, was a tenth of decoding a view. Direct-mapped; a name whose slot another took
    /// is made again.
    /// Where each decoded view sits (its superview and its position there), for building its
    /// pointer only when an issue names it. A class whose array the runtime does not check for
    /// exclusivity: captured by the pointer closures as a local `var`, every append was checked.
    private final class Locations {
        @exclusivity(unchecked) var items: [(parent: Int, position: Int)] = []
    }

    private final class ClassNames {
        private typealias Entry = (node: Int, name: String, base: ViewBase?)
        /// Memory of its own rather than an array in a class, whose every access the runtime
        /// checks for exclusivity.
        private let slots: UnsafeMutablePointer<Entry>

        init() {
            slots = .allocate(capacity: 64)
            slots.initialize(repeating: (-1, "", nil), count: 64)
        }

        deinit {
            slots.deinitialize(count: 64)
            slots.deallocate()
        }

        func lookup(_ node: Int, _ tape: JSONTape) -> (String, ViewBase?)? {
            guard let slot = slot(node, tape) else { return nil }
            let entry = slots[slot]
            guard entry.node >= 0, tape.sameRawString(entry.node, node) else { return nil }
            return (entry.name, entry.base)
        }

        func remember(_ node: Int, _ tape: JSONTape, _ name: String, _ base: ViewBase?) {
            if let slot = slot(node, tape) { slots[slot] = (node, name, base) }
        }

        private func slot(_ node: Int, _ tape: JSONTape) -> Int? {
            tape.withRawString(node) { raw, escaped -> Int? in
                guard !escaped, let first = raw.first, let last = raw.last else { return nil }
                return (raw.count &* 7 ^ Int(first) &* 3 ^ Int(last) &* 11 ^ Int(raw[raw.count >> 1])) & 63
            } ?? nil
        }
    }
    var tape: JSONTape { reader.tape }

    /// Decodes the scene at `node`; `base` is the pointer of that node in the whole document.
    public func decode(_ node: Int, at base: String) -> Scene {
        var scene = Scene()
        var format: String?
        var windowsNode: Int?
        reader.object(node, at: { base }) { (key: SceneKey, v) in
            switch key {
            case .format: format = reader.string(v, at: { base.pointer(key.rawValue) })
            case .name: scene.name = reader.string(v, at: { base.pointer(key.rawValue) }, nonEmpty: false)
            case .app: scene.app = decodeApp(v, at: base.pointer(key.rawValue))
            case .knobs: scene.knobs = KnobsDecoder.decode(v, at: base.pointer(key.rawValue), reader: reader)
            case .windows: windowsNode = v
            }
        }
        guard tape.kind(node) == .object else { return scene }
        if format == nil, !reader.has(node, SceneKey.format) {
            reader.report({ base.pointer(SceneKey.format.rawValue) }, "required: \"\(Scene.format)\"")
        } else if let format, format != Scene.format {
            reader.report({ base.pointer(SceneKey.format.rawValue) }, "must be \"\(Scene.format)\", not \"\(format)\"")
        }
        guard let windowsNode else {
            reader.report({ base.pointer(SceneKey.windows.rawValue) }, "required: an array of windows (back to front)")
            return scene
        }
        decodeViews(windowsNode, at: base.pointer(SceneKey.windows.rawValue), into: &scene)
        return scene
    }

    /// Decodes the window array and every view below it without recursion: a work stack holds
    /// the view nodes still to decode, so views land in `scene.views` in document order.
    private func decodeViews(_ windowsNode: Int, at windowsPointer: String, into scene: inout Scene) {
        guard let windows = reader.array(windowsNode, at: { windowsPointer }) else { return }
        // (view node, superview index or -1, position among its siblings)
        var work: [(node: Int, parent: Int, position: Int)] = []
        let windowNodes = Array(windows)
        for (i, w) in windowNodes.enumerated().reversed() { work.append((w, -1, i)) }
        // Where each decoded view sits, to build its pointer only when reporting an issue.
        let location = Locations()
        func pointer(of view: Int) -> String {
            var positions: [Int] = []
            var v = view
            while true {
                let loc = location.items[v]
                positions.append(loc.position)
                if loc.parent < 0 { break }
                v = loc.parent
            }
            var p = windowsPointer
            for (depth, pos) in positions.reversed().enumerated() {
                p += depth == 0 ? "/\(pos)" : "/\(ViewKey.subviews.rawValue)/\(pos)"
            }
            return p
        }
        scene.views.reserveCapacity(tape.nodesCountHint)
        while let item = work.popLast() {
            let index = scene.views.count
            location.items.append((item.parent, item.position))
            // Decoded in place: a ViewSpec is a few hundred bytes, copying it is not free.
            scene.views.append(ViewSpec(id: "", className: "", base: .UIView))
            let subviewsNode = decodeView(item.node, isWindow: item.parent < 0, index: index,
                                          into: &scene.views[index], pointer: { pointer(of: $0) })
            if item.parent >= 0 {
                scene.views[index].superview = item.parent
                scene.views[item.parent].subviews.append(index)
            } else {
                scene.windows.append(index)
            }
            if let subviews = subviewsNode {
                guard let children = reader.array(subviews, at: { pointer(of: index).pointer(ViewKey.subviews.rawValue) }) else { continue }
                let nodes = Array(children)
                for (i, c) in nodes.enumerated().reversed() { work.append((c, index, i)) }
            }
        }
    }

    /// Decodes one view's keys into `spec`; returns its `subviews` node.
    private func decodeView(_ node: Int, isWindow: Bool, index: Int, into spec: inout ViewSpec,
                            pointer: (Int) -> String) -> Int? {
        func here() -> String { pointer(index) }
        var id: String?
        var className: String?
        var classBase: ViewBase?
        var explicitBase: ViewBase?
        var baseWasInvalid = false
        var subviewsNode: Int?
        var gestureNode: Int?
        var traits = ResponderTraits()
        reader.object(node, at: here) { (key: ViewKey, v) in
            func at() -> String { here().pointer(key.rawValue) }
            switch key {
            case .id: id = reader.string(v, at: at)
            case .class:
                if let known = classNames.lookup(v, tape) {
                    (className, classBase) = known
                } else {
                    className = reader.string(v, at: at)
                    // Matched on the bytes: a dictionary of names hashed each class name in full.
                    classBase = tape.withRawString(v) { raw, escaped in
                        escaped ? ViewBase.named(tape.string(v) ?? "") : ViewBase.names.value(raw)
                    } ?? nil
                    if let className { classNames.remember(v, tape, className, classBase) }
                }
            case .label: spec.label = reader.string(v, at: at, nonEmpty: false)
            case .accessibilityIdentifier: spec.accessibilityIdentifier = reader.string(v, at: at, nonEmpty: false)
            case .address: spec.address = reader.string(v, at: at, nonEmpty: false)
            case .base:
                if let name = reader.string(v, at: at) {
                    if let b = ViewBase.named(name) { explicitBase = b } else {
                        baseWasInvalid = true
                        reader.report(at, "unknown UIKit base class \"\(name)\"; known: "
                                      + ViewBase.allCases.map(\.rawValue).joined(separator: ", "))
                    }
                }
            // An invalid rect or point keeps a placeholder: its issue is reported once, without
            // a second "needs frame" from the validator.
            case .frame: spec.frame = reader.rect(v, at: at) ?? Rect(0, 0, 0, 0)
            case .bounds: spec.bounds = reader.rect(v, at: at) ?? Rect(0, 0, 0, 0)
            case .center: spec.center = reader.point(v, at: at) ?? .zero
            case .transform:
                if let t = reader.numbers(v, at: at, count: 6, what: "an affine transform [a, b, c, d, tx, ty]") {
                    spec.transform = AffineTransform(a: t[0], b: t[1], c: t[2], d: t[3], tx: t[4], ty: t[5])
                }
            case .hidden: spec.hidden = reader.bool(v, at: at)
            case .alpha: spec.alpha = reader.number(v, at: at, in: 0...1, what: "between 0 and 1")
            case .userInteractionEnabled: spec.userInteractionEnabled = reader.bool(v, at: at)
            case .clipsToBounds: spec.clipsToBounds = reader.bool(v, at: at)
            case .multipleTouchEnabled: spec.multipleTouchEnabled = reader.bool(v, at: at)
            case .exclusiveTouch: spec.exclusiveTouch = reader.bool(v, at: at)
            case .animating: spec.animating = reader.bool(v, at: at)
            case .enabled: spec.enabled = reader.bool(v, at: at)
            case .level: spec.level = reader.number(v, at: at)
            case .isKey: spec.isKey = reader.bool(v, at: at)
            case .scrollView: spec.scrollView = decodeScrollView(v, at: at)
            case .overrides: spec.overrides = decodeViewOverrides(v, at: at)
            case .implements: spec.implements = reader.strings(v, at: at)
            case .canBecomeFirstResponder: ResponderTraitKey.canBecomeFirstResponder.read(v, at: at, reader: reader, into: &traits)
            case .canResignFirstResponder: ResponderTraitKey.canResignFirstResponder.read(v, at: at, reader: reader, into: &traits)
            case .textInput: ResponderTraitKey.textInput.read(v, at: at, reader: reader, into: &traits)
            case .keyCommands: ResponderTraitKey.keyCommands.read(v, at: at, reader: reader, into: &traits)
            case .targets: spec.targets = decodeControlTargets(v, at: at)
            case .gestureRecognizers: gestureNode = v
            case .viewController: spec.viewController = decodeController(v, at: at)
            case .subviews: subviewsNode = v
            }
        }
        if tape.kind(node) == .object {
            if id == nil, !reader.has(node, ViewKey.id) { reader.report(here, "required key \"id\" is missing") }
            if className == nil, !reader.has(node, ViewKey.class) { reader.report(here, "required key \"class\" is missing") }
        }
        spec.id = id ?? ""
        spec.className = className ?? ""
        if !traits.isEmpty { spec.traits = traits }           // rare: most views declare none
        if let explicitBase {
            spec.base = explicitBase
            spec.explicitBase = true
        } else if let known = classBase {
            spec.base = known
        } else {
            spec.base = isWindow ? .UIWindow : .UIView
            if baseWasInvalid { spec.explicitBase = true }
        }
        if let gestureNode {
            spec.gestureRecognizers = decodeRecognizers(gestureNode, at: { here().pointer(ViewKey.gestureRecognizers.rawValue) })
        }
        return subviewsNode
    }

    private func decodeScrollView(_ node: Int, at pointer: () -> String) -> ScrollViewSpec {
        var s = ScrollViewSpec()
        reader.object(node, at: pointer) { (key: ScrollViewKey, v) in
            func at() -> String { pointer().pointer(key.rawValue) }
            switch key {
            case .contentSize: s.contentSize = reader.size(v, at: at)
            case .delaysContentTouches: s.delaysContentTouches = reader.bool(v, at: at)
            case .canCancelContentTouches: s.canCancelContentTouches = reader.bool(v, at: at)
            case .scrollEnabled: s.scrollEnabled = reader.bool(v, at: at)
            }
        }
        return s
    }

    private func decodeTouchOverrides(_ node: Int, at pointer: () -> String) -> TouchOverrides? {
        func handling(_ v: Int, _ at: () -> String) -> TouchHandling? { reader.handling(v, at: at) }
        if tape.kind(node) == .string {
            return handling(node, pointer).map { TouchOverrides(all: $0) }
        }
        guard tape.kind(node) == .object else {
            reader.report(pointer, "must be \"super\", \"handle\" or {\"began\": …, \"moved\": …, \"ended\": …, \"cancelled\": …}")
            return nil
        }
        var o = TouchOverrides(began: .superCall, moved: .superCall, ended: .superCall, cancelled: .superCall)
        reader.object(node, at: pointer) { (key: TouchMethodKey, v) in
            let h = handling(v, { pointer().pointer(key.rawValue) }) ?? .superCall
            switch key {
            case .began: o.began = h
            case .moved: o.moved = h
            case .ended: o.ended = h
            case .cancelled: o.cancelled = h
            }
        }
        return o
    }

    private func decodeCanPerform(_ node: Int, at pointer: () -> String) -> [String: Bool]? {
        var map: [String: Bool] = [:]
        reader.object(node, at: pointer, keys: []) { key, v in
            if let b = reader.bool(v, at: { pointer().pointer(key) }) { map[key] = b }
            return true
        }
        return map
    }

    private func decodeViewOverrides(_ node: Int, at pointer: () -> String) -> ViewOverrides {
        var o = ViewOverrides()
        reader.object(node, at: pointer) { (key: ViewOverrideKey, v) in
            func at() -> String { pointer().pointer(key.rawValue) }
            switch key {
            case .pointInside: o.pointInside = decodePointInside(v, at: at)
            case .hitTest: o.hitTest = decodeHitTest(v, at: at)
            case .nextResponder: o.nextResponder = reader.string(v, at: at)
            case .touches: o.touches = decodeTouchOverrides(v, at: at)
            case .gestureRecognizerShouldBegin: o.gestureRecognizerShouldBegin = decodeShouldBegin(v, at: at)
            case .beginTracking: o.beginTracking = reader.bool(v, at: at)
            case .continueTracking: o.continueTracking = reader.bool(v, at: at)
            case .touchesShouldBegin: o.touchesShouldBegin = reader.bool(v, at: at)
            case .touchesShouldCancel: o.touchesShouldCancel = reader.bool(v, at: at)
            case .canPerformAction: o.canPerformAction = decodeCanPerform(v, at: at)
            case .presses: o.presses = reader.pressOverrides(v, at: at)
            case .motion: o.motion = reader.motionOverrides(v, at: at)
            case .remoteControl: o.remoteControl = reader.remoteControlOverride(v, at: at)
            }
        }
        return o
    }

    private func decodeResponderOverrides(_ node: Int, at pointer: () -> String) -> ResponderOverrides {
        var o = ResponderOverrides()
        reader.object(node, at: pointer) { (key: ResponderOverrideKey, v) in
            func at() -> String { pointer().pointer(key.rawValue) }
            switch key {
            case .touches: o.touches = decodeTouchOverrides(v, at: at)
            case .nextResponder: o.nextResponder = reader.string(v, at: at)
            case .canPerformAction: o.canPerformAction = decodeCanPerform(v, at: at)
            case .presses: o.presses = reader.pressOverrides(v, at: at)
            case .motion: o.motion = reader.motionOverrides(v, at: at)
            case .remoteControl: o.remoteControl = reader.remoteControlOverride(v, at: at)
            }
        }
        return o
    }

    private func decodePointInside(_ node: Int, at pointer: () -> String) -> PointInsideOverride? {
        guard tape.kind(node) == .object, tape.count(node) == 1 else {
            reader.report(pointer, "must be an object with exactly one of: " + PointInsideKey.names.names.joined(separator: ", "))
            return nil
        }
        var result: PointInsideOverride?
        reader.object(node, at: pointer) { (key: PointInsideKey, v) in
            func at() -> String { pointer().pointer(key.rawValue) }
            switch key {
            case .insets:
                if let n = reader.numbers(v, at: at, count: 4, what: "UIEdgeInsets [top, left, bottom, right]") {
                    result = .insets(top: n[0], left: n[1], bottom: n[2], right: n[3])
                }
            case .rects:
                if let elements = reader.array(v, at: at) {
                    var rects: [Rect] = []
                    for (i, e) in elements.enumerated() {
                        if let r = reader.rect(e, at: { at().pointer(i) }) { rects.append(r) }
                    }
                    result = .rects(rects)
                }
            case .circle:
                if let b = reader.bool(v, at: at) {
                    if b { result = .circle } else { reader.report(at, "only true is meaningful; leave pointInside out for the default") }
                }
            case .orSubviews:
                if let b = reader.bool(v, at: at) {
                    if b { result = .orSubviews } else { reader.report(at, "only true is meaningful; leave pointInside out for the default") }
                }
            case .returns: if let b = reader.bool(v, at: at) { result = .returns(b) }
            }
        }
        return result
    }

    private func decodeHitTest(_ node: Int, at pointer: () -> String) -> HitTestOverride? {
        let usage = "must be \"passThrough\", \"self\" or {\"redirect\": \"viewId\"}"
        switch tape.kind(node) {
        case .string:
            let word = tape.string(node) ?? ""
            switch word {
            case "passThrough": return .passThrough
            case "self": return .returnsSelf
            default: reader.report(pointer, usage + ", not \"\(word)\""); return nil
            }
        case .object:
            var target: String?
            reader.object(node, at: pointer) { (key: HitTestRedirectKey, v) in
                switch key {
                case .redirect: target = reader.string(v, at: { pointer().pointer(key.rawValue) })
                }
            }
            if target == nil, tape.count(node) == 0 { reader.report(pointer, usage) }
            return target.map { .redirect($0) }
        default:
            reader.report(pointer, usage)
            return nil
        }
    }

    private func decodeShouldBegin(_ node: Int, at pointer: () -> String) -> ShouldBeginOverride? {
        if tape.kind(node) == .bool { return ShouldBeginOverride(defaultAnswer: tape.bool(node)!) }
        var o = ShouldBeginOverride(defaultAnswer: true)
        let ok = reader.object(node, at: pointer) { (key: ShouldBeginKey, v) in
            func at() -> String { pointer().pointer(key.rawValue) }
            switch key {
            case .default: o.defaultAnswer = reader.bool(v, at: at) ?? true
            case .byRecognizer:
                reader.object(v, at: at, keys: []) { gr, answer in
                    if let b = reader.bool(answer, at: { at().pointer(gr) }) { o.byRecognizer[gr] = b }
                    return true
                }
            }
        }
        return ok ? o : nil
    }

    private func decodeControlTargets(_ node: Int, at pointer: () -> String) -> [ControlTarget]? {
        guard let elements = reader.array(node, at: pointer) else { return nil }
        var out: [ControlTarget] = []
        for (i, e) in elements.enumerated() {
            func here() -> String { pointer().pointer(i) }
            var events: [ControlEvent] = []
            var target: String??
            var action: String?
            reader.object(e, at: here) { (key: ControlTargetKey, v) in
                func at() -> String { here().pointer(key.rawValue) }
                switch key {
                case .events:
                    if let names = reader.strings(v, at: at) {
                        if names.isEmpty { reader.report(at, "needs at least one control event") }
                        for (k, name) in names.enumerated() {
                            if let ev = ControlEvent(rawValue: name) { events.append(ev) } else {
                                reader.report({ at().pointer(k) }, "unknown control event \"\(name)\"; known: "
                                              + ControlEvent.allCases.map(\.rawValue).joined(separator: ", "))
                            }
                        }
                    }
                case .target: target = reader.stringOrNull(v, at: at)
                case .action: action = reader.string(v, at: at)
                }
            }
            guard tape.kind(e) == .object else { continue }
            if !reader.has(e, ControlTargetKey.events) { reader.report(here, "required key \"events\" is missing") }
            if !reader.has(e, ControlTargetKey.target) { reader.report(here, "required key \"target\" is missing (null for a nil-targeted action)") }
            if !reader.has(e, ControlTargetKey.action) { reader.report(here, "required key \"action\" is missing") }
            if let action, let target { out.append(ControlTarget(events: events, target: target, action: action)) }
        }
        return out
    }

    private func decodeController(_ node: Int, at pointer: () -> String) -> ViewControllerSpec? {
        var id: String?, className: String?
        var spec = ViewControllerSpec(id: "", className: "")
        let ok = reader.object(node, at: pointer) { (key: ViewControllerKey, v) in
            func at() -> String { pointer().pointer(key.rawValue) }
            switch key {
            case .id: id = reader.string(v, at: at)
            case .class: className = reader.string(v, at: at)
            case .presentedBy: spec.presentedBy = reader.string(v, at: at)
            case .implements: spec.implements = reader.strings(v, at: at)
            case .overrides: spec.overrides = decodeResponderOverrides(v, at: at)
            case .canBecomeFirstResponder: ResponderTraitKey.canBecomeFirstResponder.read(v, at: at, reader: reader, into: &spec.traits)
            case .canResignFirstResponder: ResponderTraitKey.canResignFirstResponder.read(v, at: at, reader: reader, into: &spec.traits)
            case .textInput: ResponderTraitKey.textInput.read(v, at: at, reader: reader, into: &spec.traits)
            case .keyCommands: ResponderTraitKey.keyCommands.read(v, at: at, reader: reader, into: &spec.traits)
            }
        }
        guard ok else { return nil }
        if id == nil, !reader.has(node, ViewControllerKey.id) { reader.report(pointer, "required key \"id\" is missing") }
        if className == nil, !reader.has(node, ViewControllerKey.class) { reader.report(pointer, "required key \"class\" is missing") }
        spec.id = id ?? ""
        spec.className = className ?? ""
        return spec
    }

    private func decodeApp(_ node: Int, at base: String) -> AppSpec {
        var app = AppSpec()
        reader.object(node, at: { base }) { (key: AppKey, v) in
            func at() -> String { base.pointer(key.rawValue) }
            switch key {
            case .id: app.id = reader.string(v, at: at)
            case .class: app.className = reader.string(v, at: at)
            case .implements: app.implements = reader.strings(v, at: at)
            case .overrides: app.overrides = decodeResponderOverrides(v, at: at)
            case .focusedResponder: app.focusedResponder = reader.string(v, at: at)
            case .ignoringInteractionEvents: app.ignoringInteractionEvents = reader.bool(v, at: at)
            case .canBecomeFirstResponder: ResponderTraitKey.canBecomeFirstResponder.read(v, at: at, reader: reader, into: &app.traits)
            case .canResignFirstResponder: ResponderTraitKey.canResignFirstResponder.read(v, at: at, reader: reader, into: &app.traits)
            case .textInput: ResponderTraitKey.textInput.read(v, at: at, reader: reader, into: &app.traits)
            case .keyCommands: ResponderTraitKey.keyCommands.read(v, at: at, reader: reader, into: &app.traits)
            case .applicationSupportsShakeToEdit: app.applicationSupportsShakeToEdit = reader.bool(v, at: at)
            case .receivesRemoteControlEvents: app.receivesRemoteControlEvents = reader.bool(v, at: at)
            case .delegate:
                var id: String?, className: String?
                var d = AppDelegateSpec(id: "", className: "")
                let ok = reader.object(v, at: at) { (dkey: AppDelegateKey, dv) in
                    func dat() -> String { at().pointer(dkey.rawValue) }
                    switch dkey {
                    case .id: id = reader.string(dv, at: dat)
                    case .class: className = reader.string(dv, at: dat)
                    case .isResponder: d.isResponder = reader.bool(dv, at: dat)
                    case .implements: d.implements = reader.strings(dv, at: dat)
                    case .overrides: d.overrides = decodeResponderOverrides(dv, at: dat)
                    case .canBecomeFirstResponder: ResponderTraitKey.canBecomeFirstResponder.read(dv, at: dat, reader: reader, into: &d.traits)
                    case .canResignFirstResponder: ResponderTraitKey.canResignFirstResponder.read(dv, at: dat, reader: reader, into: &d.traits)
                    case .textInput: ResponderTraitKey.textInput.read(dv, at: dat, reader: reader, into: &d.traits)
                    case .keyCommands: ResponderTraitKey.keyCommands.read(dv, at: dat, reader: reader, into: &d.traits)
                    }
                }
                if ok {
                    // contract §1: the id defaults to the class; a delegate needs at least one.
                    if id == nil, className == nil { reader.report(at, "needs \"class\" (and optionally \"id\", which defaults to the class)") }
                    d.className = className ?? id ?? ""
                    d.id = id ?? d.className
                    app.delegate = d
                }
            }
        }
        return app
    }

    private func decodeRecognizerList(_ node: Int, at pointer: () -> String) -> RecognizerDelegateSpec.RecognizerList? {
        if tape.kind(node) == .string {
            if tape.stringEquals(node, "all") { return .all }
            reader.report(pointer, "must be \"all\" or an array of recognizer ids")
            return nil
        }
        return reader.strings(node, at: pointer).map { .ids($0) }
    }

    private func decodeRecognizers(_ node: Int, at pointer: () -> String) -> [RecognizerSpec]? {
        guard let elements = reader.array(node, at: pointer) else { return nil }
        var out: [RecognizerSpec] = []
        for (i, e) in elements.enumerated() {
            if let r = decodeRecognizer(e, at: { pointer().pointer(i) }) { out.append(r) }
        }
        return out
    }

    private func decodeRecognizer(_ node: Int, at pointer: () -> String) -> RecognizerSpec? {
        var id: String?, className: String?, baseName: String?
        var r = RecognizerSpec(id: "", className: "", base: .tap)
        let ok = reader.object(node, at: pointer) { (key: RecognizerKey, v) in
            func at() -> String { pointer().pointer(key.rawValue) }
            switch key {
            case .id: id = reader.string(v, at: at)
            case .class: className = reader.string(v, at: at)
            case .base: baseName = reader.string(v, at: at)
            case .enabled: r.enabled = reader.bool(v, at: at)
            case .cancelsTouchesInView: r.cancelsTouchesInView = reader.bool(v, at: at)
            case .delaysTouchesBegan: r.delaysTouchesBegan = reader.bool(v, at: at)
            case .delaysTouchesEnded: r.delaysTouchesEnded = reader.bool(v, at: at)
            case .numberOfTapsRequired: r.numberOfTapsRequired = reader.integer(v, at: at, minimum: 0)
            case .numberOfTouchesRequired: r.numberOfTouchesRequired = reader.integer(v, at: at, minimum: 1)
            case .minimumPressDuration: r.minimumPressDuration = reader.nonNegative(v, at: at)
            case .allowableMovement: r.allowableMovement = reader.nonNegative(v, at: at)
            case .minimumNumberOfTouches: r.minimumNumberOfTouches = reader.integer(v, at: at, minimum: 1)
            case .maximumNumberOfTouches:
                r.maximumNumberOfTouchesGiven = true
                if tape.kind(v) != .null { r.maximumNumberOfTouches = reader.integer(v, at: at, minimum: 1) }
            case .direction:
                if let names = reader.strings(v, at: at) {
                    var dirs: [SwipeDirection] = []
                    for (k, n) in names.enumerated() {
                        if let d = SwipeDirection(rawValue: n) { dirs.append(d) } else {
                            reader.report({ at().pointer(k) }, "must be one of right, left, up, down")
                        }
                    }
                    if names.isEmpty { reader.report(at, "needs at least one direction") }
                    r.direction = dirs
                }
            case .edges:
                if let names = reader.strings(v, at: at) {
                    var edges: [ScreenEdge] = []
                    for (k, n) in names.enumerated() {
                        if let d = ScreenEdge(rawValue: n) { edges.append(d) } else {
                            reader.report({ at().pointer(k) }, "must be one of top, left, bottom, right, all")
                        }
                    }
                    r.edges = edges
                }
            case .requireToFail: r.requireToFail = reader.strings(v, at: at)
            case .canPrevent: r.canPrevent = reader.bool(v, at: at)
            case .canBePrevented: r.canBePrevented = reader.bool(v, at: at)
            case .requiresExclusiveTouchType: r.requiresExclusiveTouchType = reader.bool(v, at: at)
            case .allowedPressTypes:
                // PG1: keyboard presses never reach recognizers, so `keyboard` is not a choice.
                r.allowedPressTypes = reader.words(v, at: at, as: PressType.self,
                                                   allowed: PressType.allCases.filter { $0 != .keyboard })
            case .delegate: r.delegate = decodeRecognizerDelegate(v, at: at)
            case .targets:
                if let elements = reader.array(v, at: at) {
                    for (k, e) in elements.enumerated() {
                        func tat() -> String { at().pointer(k) }
                        var target: String??, action: String?
                        reader.object(e, at: tat) { (tkey: RecognizerTargetKey, tv) in
                            switch tkey {
                            case .target: target = reader.stringOrNull(tv, at: { tat().pointer(tkey.rawValue) })
                            case .action: action = reader.string(tv, at: { tat().pointer(tkey.rawValue) })
                            }
                        }
                        guard tape.kind(e) == .object else { continue }
                        if !reader.has(e, RecognizerTargetKey.target) { reader.report(tat, "required key \"target\" is missing") }
                        if !reader.has(e, RecognizerTargetKey.action) { reader.report(tat, "required key \"action\" is missing") }
                        if let target, let action { r.targets.append(RecognizerTarget(target: target, action: action)) }
                    }
                }
            }
        }
        guard ok else { return nil }
        if id == nil, !reader.has(node, RecognizerKey.id) { reader.report(pointer, "required key \"id\" is missing") }
        if className == nil, !reader.has(node, RecognizerKey.class) { reader.report(pointer, "required key \"class\" is missing") }
        r.id = id ?? ""
        r.className = className ?? ""
        // Spelled only for an error: joining the names cost more than decoding the recognizer.
        func declarable() -> String { RecognizerBase.declarable.map(\.rawValue).joined(separator: ", ") }
        if let baseName {
            if let b = RecognizerBase(rawValue: baseName), RecognizerBase.declarable.contains(b) {
                r.base = b
                r.explicitBase = true
            } else {
                reader.report({ pointer().pointer(RecognizerKey.base.rawValue) }, "unknown recognizer base class \"\(baseName)\"; known: \(declarable())")
            }
        } else if let b = RecognizerBase(rawValue: r.className), RecognizerBase.declarable.contains(b) {
            r.base = b
        } else if className != nil {
            reader.report({ pointer().pointer(RecognizerKey.class.rawValue) },
                          "\"\(r.className)\" is not a UIKit recognizer class: give \"base\" (one of \(declarable()))")
        }
        return r
    }

    private func decodeRecognizerDelegate(_ node: Int, at pointer: () -> String) -> RecognizerDelegateSpec? {
        var d = RecognizerDelegateSpec(id: "")
        var id: String?
        let ok = reader.object(node, at: pointer) { (key: RecognizerDelegateKey, v) in
            func at() -> String { pointer().pointer(key.rawValue) }
            switch key {
            case .id: id = reader.string(v, at: at)
            case .class: d.className = reader.string(v, at: at)
            case .shouldReceiveEvent: d.shouldReceiveEvent = reader.bool(v, at: at)
            case .shouldReceiveTouch: d.shouldReceiveTouch = reader.bool(v, at: at)
            case .shouldReceivePress: d.shouldReceivePress = reader.bool(v, at: at)
            case .shouldBegin: d.shouldBegin = reader.bool(v, at: at)
            case .shouldRecognizeSimultaneouslyWith: d.shouldRecognizeSimultaneouslyWith = decodeRecognizerList(v, at: at)
            case .shouldRequireFailureOf: d.shouldRequireFailureOf = decodeRecognizerList(v, at: at)
            case .shouldBeRequiredToFailBy: d.shouldBeRequiredToFailBy = decodeRecognizerList(v, at: at)
            }
        }
        guard ok else { return nil }
        if id == nil, !reader.has(node, RecognizerDelegateKey.id) { reader.report(pointer, "required key \"id\" is missing (the delegate object)") }
        d.id = id ?? ""
        return d
    }
}

extension JSONTape {
    /// A rough count of views for reserving capacity: one view per ~8 nodes.
    var nodesCountHint: Int { nodeCount / 8 }
}
