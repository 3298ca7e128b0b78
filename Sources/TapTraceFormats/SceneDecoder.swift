import TapTraceCore
import TapTraceJSON

/// Decodes a scene document from a JSON tape: types, required keys, ranges and unknown keys.
/// Cross-references (ids, targets, geometry) are checked afterwards by `SceneValidator`, which
/// works the same on scenes built in code.
public struct SceneDecoder {
    public let reader: DocumentReader
    public init(reader: DocumentReader) { self.reader = reader }
    var tape: JSONTape { reader.tape }

    static let sceneKeys = ["format", "name", "app", "knobs", "windows"]
    static let viewKeys = [
        "id", "class", "label", "base", "frame", "bounds", "center", "transform", "hidden", "alpha",
        "userInteractionEnabled", "clipsToBounds", "multipleTouchEnabled", "exclusiveTouch",
        "animating", "enabled", "level", "isKey", "scrollView", "overrides", "implements", "targets",
        "gestureRecognizers", "viewController", "subviews",
    ]
    static let appKeys = ["id", "class", "implements", "overrides", "delegate", "focusedResponder", "ignoringInteractionEvents"]
    static let delegateKeys = ["id", "class", "isResponder", "implements", "overrides"]
    static let viewOverrideKeys = [
        "pointInside", "hitTest", "nextResponder", "touches", "gestureRecognizerShouldBegin",
        "beginTracking", "continueTracking", "touchesShouldBegin", "touchesShouldCancel", "canPerformAction",
    ]
    static let responderOverrideKeys = ["touches", "nextResponder", "canPerformAction"]
    static let controllerKeys = ["id", "class", "presentedBy", "implements", "overrides"]
    static let scrollViewKeys = ["contentSize", "delaysContentTouches", "canCancelContentTouches", "scrollEnabled"]
    static let targetKeys = ["events", "target", "action"]
    static let recognizerKeys = [
        "id", "class", "base", "enabled", "cancelsTouchesInView", "delaysTouchesBegan",
        "delaysTouchesEnded", "numberOfTapsRequired", "numberOfTouchesRequired",
        "minimumPressDuration", "allowableMovement", "minimumNumberOfTouches",
        "maximumNumberOfTouches", "direction", "edges", "requireToFail", "canPrevent",
        "canBePrevented", "requiresExclusiveTouchType", "delegate", "targets",
    ]
    static let recognizerDelegateKeys = [
        "id", "class", "shouldReceiveEvent", "shouldReceiveTouch", "shouldBegin",
        "shouldRecognizeSimultaneouslyWith", "shouldRequireFailureOf", "shouldBeRequiredToFailBy",
    ]

    /// Decodes the scene at `node`; `base` is the pointer of that node in the whole document.
    public func decode(_ node: Int, at base: String) -> Scene {
        var scene = Scene()
        var format: String?
        var windowsNode: Int?
        reader.object(node, at: { base }, keys: SceneDecoder.sceneKeys) { key, v in
            switch key {
            case "format": format = reader.string(v, at: { base.pointer(key) })
            case "name": scene.name = reader.string(v, at: { base.pointer(key) }, nonEmpty: false)
            case "app": scene.app = decodeApp(v, at: base.pointer(key))
            case "knobs": scene.knobs = KnobsDecoder.decode(v, at: base.pointer(key), reader: reader)
            case "windows": windowsNode = v
            default: return false
            }
            return true
        }
        guard tape.kind(node) == .object else { return scene }
        if format == nil, !tape.members(node).contains(where: { tape.stringEquals($0.key, "format") }) {
            reader.report({ base.pointer("format") }, "required: \"\(Scene.format)\"")
        } else if let format, format != Scene.format {
            reader.report({ base.pointer("format") }, "must be \"\(Scene.format)\", not \"\(format)\"")
        }
        guard let windowsNode else {
            reader.report({ base.pointer("windows") }, "required: an array of windows (back to front)")
            return scene
        }
        decodeViews(windowsNode, at: base.pointer("windows"), into: &scene)
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
        var location: [(parent: Int, position: Int)] = []
        func pointer(of view: Int) -> String {
            var positions: [Int] = []
            var v = view
            while true {
                let loc = location[v]
                positions.append(loc.position)
                if loc.parent < 0 { break }
                v = loc.parent
            }
            var p = windowsPointer
            for (depth, pos) in positions.reversed().enumerated() {
                p += depth == 0 ? "/\(pos)" : "/subviews/\(pos)"
            }
            return p
        }
        scene.views.reserveCapacity(tape.nodesCountHint)
        while let item = work.popLast() {
            let index = scene.views.count
            location.append((item.parent, item.position))
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
                guard let children = reader.array(subviews, at: { pointer(of: index).pointer("subviews") }) else { continue }
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
        var explicitBase: ViewBase?
        var baseWasInvalid = false
        var subviewsNode: Int?
        var gestureNode: Int?
        reader.object(node, at: here, keys: SceneDecoder.viewKeys) { key, v in
            func at() -> String { here().pointer(key) }
            switch key {
            case "id": id = reader.string(v, at: at)
            case "class": className = reader.string(v, at: at)
            case "label": spec.label = reader.string(v, at: at, nonEmpty: false)
            case "base":
                if let name = reader.string(v, at: at) {
                    if let b = ViewBase.named(name) { explicitBase = b } else {
                        baseWasInvalid = true
                        reader.report(at, "unknown UIKit base class \"\(name)\"; known: "
                                      + ViewBase.allCases.map(\.rawValue).joined(separator: ", "))
                    }
                }
            // An invalid rect or point keeps a placeholder: its issue is reported once, without
            // a second "needs frame" from the validator.
            case "frame": spec.frame = reader.rect(v, at: at) ?? Rect(0, 0, 0, 0)
            case "bounds": spec.bounds = reader.rect(v, at: at) ?? Rect(0, 0, 0, 0)
            case "center": spec.center = reader.point(v, at: at) ?? .zero
            case "transform":
                if let t = reader.numbers(v, at: at, count: 6, what: "an affine transform [a, b, c, d, tx, ty]") {
                    spec.transform = AffineTransform(a: t[0], b: t[1], c: t[2], d: t[3], tx: t[4], ty: t[5])
                }
            case "hidden": spec.hidden = reader.bool(v, at: at)
            case "alpha": spec.alpha = reader.number(v, at: at, in: 0...1, what: "between 0 and 1")
            case "userInteractionEnabled": spec.userInteractionEnabled = reader.bool(v, at: at)
            case "clipsToBounds": spec.clipsToBounds = reader.bool(v, at: at)
            case "multipleTouchEnabled": spec.multipleTouchEnabled = reader.bool(v, at: at)
            case "exclusiveTouch": spec.exclusiveTouch = reader.bool(v, at: at)
            case "animating": spec.animating = reader.bool(v, at: at)
            case "enabled": spec.enabled = reader.bool(v, at: at)
            case "level": spec.level = reader.number(v, at: at)
            case "isKey": spec.isKey = reader.bool(v, at: at)
            case "scrollView": spec.scrollView = decodeScrollView(v, at: at)
            case "overrides": spec.overrides = decodeViewOverrides(v, at: at)
            case "implements": spec.implements = reader.strings(v, at: at)
            case "targets": spec.targets = decodeControlTargets(v, at: at)
            case "gestureRecognizers": gestureNode = v
            case "viewController": spec.viewController = decodeController(v, at: at)
            case "subviews": subviewsNode = v
            default: return false
            }
            return true
        }
        if tape.kind(node) == .object {
            if id == nil, !hasKey(node, "id") { reader.report(here, "required key \"id\" is missing") }
            if className == nil, !hasKey(node, "class") { reader.report(here, "required key \"class\" is missing") }
        }
        spec.id = id ?? ""
        spec.className = className ?? ""
        if let explicitBase {
            spec.base = explicitBase
            spec.explicitBase = true
        } else if let known = ViewBase.named(spec.className) {
            spec.base = known
        } else {
            spec.base = isWindow ? .UIWindow : .UIView
            if baseWasInvalid { spec.explicitBase = true }
        }
        if let gestureNode {
            spec.gestureRecognizers = decodeRecognizers(gestureNode, at: { here().pointer("gestureRecognizers") })
        }
        return subviewsNode
    }

    private func hasKey(_ node: Int, _ key: StaticString) -> Bool {
        tape.members(node).contains { tape.stringEquals($0.key, key) }
    }

    private func decodeScrollView(_ node: Int, at pointer: () -> String) -> ScrollViewSpec {
        var s = ScrollViewSpec()
        reader.object(node, at: pointer, keys: SceneDecoder.scrollViewKeys) { key, v in
            func at() -> String { pointer().pointer(key) }
            switch key {
            case "contentSize": s.contentSize = reader.size(v, at: at)
            case "delaysContentTouches": s.delaysContentTouches = reader.bool(v, at: at)
            case "canCancelContentTouches": s.canCancelContentTouches = reader.bool(v, at: at)
            case "scrollEnabled": s.scrollEnabled = reader.bool(v, at: at)
            default: return false
            }
            return true
        }
        return s
    }

    private func decodeTouchOverrides(_ node: Int, at pointer: () -> String) -> TouchOverrides? {
        func handling(_ v: Int, _ at: () -> String) -> TouchHandling? {
            guard let word = reader.string(v, at: at) else { return nil }
            guard let h = TouchHandling(rawValue: word) else {
                reader.report(at, "must be \"super\" or \"handle\", not \"\(word)\"")
                return nil
            }
            return h
        }
        if tape.kind(node) == .string {
            return handling(node, pointer).map { TouchOverrides(all: $0) }
        }
        guard tape.kind(node) == .object else {
            reader.report(pointer, "must be \"super\", \"handle\" or {\"began\": …, \"moved\": …, \"ended\": …, \"cancelled\": …}")
            return nil
        }
        var o = TouchOverrides(began: .superCall, moved: .superCall, ended: .superCall, cancelled: .superCall)
        reader.object(node, at: pointer, keys: ["began", "moved", "ended", "cancelled"]) { key, v in
            let h = handling(v, { pointer().pointer(key) }) ?? .superCall
            switch key {
            case "began": o.began = h
            case "moved": o.moved = h
            case "ended": o.ended = h
            case "cancelled": o.cancelled = h
            default: return false
            }
            return true
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
        reader.object(node, at: pointer, keys: SceneDecoder.viewOverrideKeys) { key, v in
            func at() -> String { pointer().pointer(key) }
            switch key {
            case "pointInside": o.pointInside = decodePointInside(v, at: at)
            case "hitTest": o.hitTest = decodeHitTest(v, at: at)
            case "nextResponder": o.nextResponder = reader.string(v, at: at)
            case "touches": o.touches = decodeTouchOverrides(v, at: at)
            case "gestureRecognizerShouldBegin": o.gestureRecognizerShouldBegin = decodeShouldBegin(v, at: at)
            case "beginTracking": o.beginTracking = reader.bool(v, at: at)
            case "continueTracking": o.continueTracking = reader.bool(v, at: at)
            case "touchesShouldBegin": o.touchesShouldBegin = reader.bool(v, at: at)
            case "touchesShouldCancel": o.touchesShouldCancel = reader.bool(v, at: at)
            case "canPerformAction": o.canPerformAction = decodeCanPerform(v, at: at)
            default: return false
            }
            return true
        }
        return o
    }

    private func decodeResponderOverrides(_ node: Int, at pointer: () -> String) -> ResponderOverrides {
        var o = ResponderOverrides()
        reader.object(node, at: pointer, keys: SceneDecoder.responderOverrideKeys) { key, v in
            func at() -> String { pointer().pointer(key) }
            switch key {
            case "touches": o.touches = decodeTouchOverrides(v, at: at)
            case "nextResponder": o.nextResponder = reader.string(v, at: at)
            case "canPerformAction": o.canPerformAction = decodeCanPerform(v, at: at)
            default: return false
            }
            return true
        }
        return o
    }

    private func decodePointInside(_ node: Int, at pointer: () -> String) -> PointInsideOverride? {
        let forms = ["insets", "rects", "circle", "orSubviews", "returns"]
        guard tape.kind(node) == .object, tape.count(node) == 1 else {
            reader.report(pointer, "must be an object with exactly one of: " + forms.joined(separator: ", "))
            return nil
        }
        var result: PointInsideOverride?
        reader.object(node, at: pointer, keys: forms) { key, v in
            func at() -> String { pointer().pointer(key) }
            switch key {
            case "insets":
                if let n = reader.numbers(v, at: at, count: 4, what: "UIEdgeInsets [top, left, bottom, right]") {
                    result = .insets(top: n[0], left: n[1], bottom: n[2], right: n[3])
                }
            case "rects":
                if let elements = reader.array(v, at: at) {
                    var rects: [Rect] = []
                    for (i, e) in elements.enumerated() {
                        if let r = reader.rect(e, at: { at().pointer(i) }) { rects.append(r) }
                    }
                    result = .rects(rects)
                }
            case "circle":
                if let b = reader.bool(v, at: at) {
                    if b { result = .circle } else { reader.report(at, "only true is meaningful; leave pointInside out for the default") }
                }
            case "orSubviews":
                if let b = reader.bool(v, at: at) {
                    if b { result = .orSubviews } else { reader.report(at, "only true is meaningful; leave pointInside out for the default") }
                }
            case "returns": if let b = reader.bool(v, at: at) { result = .returns(b) }
            default: return false
            }
            return true
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
            reader.object(node, at: pointer, keys: ["redirect"]) { key, v in
                guard key == "redirect" else { return false }
                target = reader.string(v, at: { pointer().pointer(key) })
                return true
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
        let ok = reader.object(node, at: pointer, keys: ["default", "byRecognizer"]) { key, v in
            func at() -> String { pointer().pointer(key) }
            switch key {
            case "default": o.defaultAnswer = reader.bool(v, at: at) ?? true
            case "byRecognizer":
                reader.object(v, at: at, keys: []) { gr, answer in
                    if let b = reader.bool(answer, at: { at().pointer(gr) }) { o.byRecognizer[gr] = b }
                    return true
                }
            default: return false
            }
            return true
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
            reader.object(e, at: here, keys: SceneDecoder.targetKeys) { key, v in
                func at() -> String { here().pointer(key) }
                switch key {
                case "events":
                    if let names = reader.strings(v, at: at) {
                        if names.isEmpty { reader.report(at, "needs at least one control event") }
                        for (k, name) in names.enumerated() {
                            if let ev = ControlEvent(rawValue: name) { events.append(ev) } else {
                                reader.report({ at().pointer(k) }, "unknown control event \"\(name)\"; known: "
                                              + ControlEvent.allCases.map(\.rawValue).joined(separator: ", "))
                            }
                        }
                    }
                case "target": target = reader.stringOrNull(v, at: at)
                case "action": action = reader.string(v, at: at)
                default: return false
                }
                return true
            }
            guard tape.kind(e) == .object else { continue }
            if !hasKey(e, "events") { reader.report(here, "required key \"events\" is missing") }
            if !hasKey(e, "target") { reader.report(here, "required key \"target\" is missing (null for a nil-targeted action)") }
            if !hasKey(e, "action") { reader.report(here, "required key \"action\" is missing") }
            if let action, let target { out.append(ControlTarget(events: events, target: target, action: action)) }
        }
        return out
    }

    private func decodeController(_ node: Int, at pointer: () -> String) -> ViewControllerSpec? {
        var id: String?, className: String?
        var spec = ViewControllerSpec(id: "", className: "")
        let ok = reader.object(node, at: pointer, keys: SceneDecoder.controllerKeys) { key, v in
            func at() -> String { pointer().pointer(key) }
            switch key {
            case "id": id = reader.string(v, at: at)
            case "class": className = reader.string(v, at: at)
            case "presentedBy": spec.presentedBy = reader.string(v, at: at)
            case "implements": spec.implements = reader.strings(v, at: at)
            case "overrides": spec.overrides = decodeResponderOverrides(v, at: at)
            default: return false
            }
            return true
        }
        guard ok else { return nil }
        if id == nil, !hasKey(node, "id") { reader.report(pointer, "required key \"id\" is missing") }
        if className == nil, !hasKey(node, "class") { reader.report(pointer, "required key \"class\" is missing") }
        spec.id = id ?? ""
        spec.className = className ?? ""
        return spec
    }

    private func decodeApp(_ node: Int, at base: String) -> AppSpec {
        var app = AppSpec()
        reader.object(node, at: { base }, keys: SceneDecoder.appKeys) { key, v in
            func at() -> String { base.pointer(key) }
            switch key {
            case "id": app.id = reader.string(v, at: at)
            case "class": app.className = reader.string(v, at: at)
            case "implements": app.implements = reader.strings(v, at: at)
            case "overrides": app.overrides = decodeResponderOverrides(v, at: at)
            case "focusedResponder": app.focusedResponder = reader.string(v, at: at)
            case "ignoringInteractionEvents": app.ignoringInteractionEvents = reader.bool(v, at: at)
            case "delegate":
                var id: String?, className: String?
                var d = AppDelegateSpec(id: "", className: "")
                let ok = reader.object(v, at: at, keys: SceneDecoder.delegateKeys) { dkey, dv in
                    func dat() -> String { at().pointer(dkey) }
                    switch dkey {
                    case "id": id = reader.string(dv, at: dat)
                    case "class": className = reader.string(dv, at: dat)
                    case "isResponder": d.isResponder = reader.bool(dv, at: dat)
                    case "implements": d.implements = reader.strings(dv, at: dat)
                    case "overrides": d.overrides = decodeResponderOverrides(dv, at: dat)
                    default: return false
                    }
                    return true
                }
                if ok {
                    // contract §1: the id defaults to the class; a delegate needs at least one.
                    if id == nil, className == nil { reader.report(at, "needs \"class\" (and optionally \"id\", which defaults to the class)") }
                    d.className = className ?? id ?? ""
                    d.id = id ?? d.className
                    app.delegate = d
                }
            default: return false
            }
            return true
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
        let ok = reader.object(node, at: pointer, keys: SceneDecoder.recognizerKeys) { key, v in
            func at() -> String { pointer().pointer(key) }
            switch key {
            case "id": id = reader.string(v, at: at)
            case "class": className = reader.string(v, at: at)
            case "base": baseName = reader.string(v, at: at)
            case "enabled": r.enabled = reader.bool(v, at: at)
            case "cancelsTouchesInView": r.cancelsTouchesInView = reader.bool(v, at: at)
            case "delaysTouchesBegan": r.delaysTouchesBegan = reader.bool(v, at: at)
            case "delaysTouchesEnded": r.delaysTouchesEnded = reader.bool(v, at: at)
            case "numberOfTapsRequired": r.numberOfTapsRequired = reader.integer(v, at: at, minimum: 0)
            case "numberOfTouchesRequired": r.numberOfTouchesRequired = reader.integer(v, at: at, minimum: 1)
            case "minimumPressDuration": r.minimumPressDuration = reader.nonNegative(v, at: at)
            case "allowableMovement": r.allowableMovement = reader.nonNegative(v, at: at)
            case "minimumNumberOfTouches": r.minimumNumberOfTouches = reader.integer(v, at: at, minimum: 1)
            case "maximumNumberOfTouches":
                r.maximumNumberOfTouchesGiven = true
                if tape.kind(v) != .null { r.maximumNumberOfTouches = reader.integer(v, at: at, minimum: 1) }
            case "direction":
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
            case "edges":
                if let names = reader.strings(v, at: at) {
                    var edges: [ScreenEdge] = []
                    for (k, n) in names.enumerated() {
                        if let d = ScreenEdge(rawValue: n) { edges.append(d) } else {
                            reader.report({ at().pointer(k) }, "must be one of top, left, bottom, right, all")
                        }
                    }
                    r.edges = edges
                }
            case "requireToFail": r.requireToFail = reader.strings(v, at: at)
            case "canPrevent": r.canPrevent = reader.bool(v, at: at)
            case "canBePrevented": r.canBePrevented = reader.bool(v, at: at)
            case "requiresExclusiveTouchType": r.requiresExclusiveTouchType = reader.bool(v, at: at)
            case "delegate": r.delegate = decodeRecognizerDelegate(v, at: at)
            case "targets":
                if let elements = reader.array(v, at: at) {
                    for (k, e) in elements.enumerated() {
                        func tat() -> String { at().pointer(k) }
                        var target: String??, action: String?
                        reader.object(e, at: tat, keys: ["target", "action"]) { tkey, tv in
                            switch tkey {
                            case "target": target = reader.stringOrNull(tv, at: { tat().pointer(tkey) })
                            case "action": action = reader.string(tv, at: { tat().pointer(tkey) })
                            default: return false
                            }
                            return true
                        }
                        guard tape.kind(e) == .object else { continue }
                        if !hasKey(e, "target") { reader.report(tat, "required key \"target\" is missing") }
                        if !hasKey(e, "action") { reader.report(tat, "required key \"action\" is missing") }
                        if let target, let action { r.targets.append(RecognizerTarget(target: target, action: action)) }
                    }
                }
            default: return false
            }
            return true
        }
        guard ok else { return nil }
        if id == nil, !hasKey(node, "id") { reader.report(pointer, "required key \"id\" is missing") }
        if className == nil, !hasKey(node, "class") { reader.report(pointer, "required key \"class\" is missing") }
        r.id = id ?? ""
        r.className = className ?? ""
        let declarable = RecognizerBase.declarable.map(\.rawValue).joined(separator: ", ")
        if let baseName {
            if let b = RecognizerBase(rawValue: baseName), RecognizerBase.declarable.contains(b) {
                r.base = b
                r.explicitBase = true
            } else {
                reader.report({ pointer().pointer("base") }, "unknown recognizer base class \"\(baseName)\"; known: \(declarable)")
            }
        } else if let b = RecognizerBase(rawValue: r.className), RecognizerBase.declarable.contains(b) {
            r.base = b
        } else if className != nil {
            reader.report({ pointer().pointer("class") },
                          "\"\(r.className)\" is not a UIKit recognizer class: give \"base\" (one of \(declarable))")
        }
        return r
    }

    private func decodeRecognizerDelegate(_ node: Int, at pointer: () -> String) -> RecognizerDelegateSpec? {
        var d = RecognizerDelegateSpec(id: "")
        var id: String?
        let ok = reader.object(node, at: pointer, keys: SceneDecoder.recognizerDelegateKeys) { key, v in
            func at() -> String { pointer().pointer(key) }
            switch key {
            case "id": id = reader.string(v, at: at)
            case "class": d.className = reader.string(v, at: at)
            case "shouldReceiveEvent": d.shouldReceiveEvent = reader.bool(v, at: at)
            case "shouldReceiveTouch": d.shouldReceiveTouch = reader.bool(v, at: at)
            case "shouldBegin": d.shouldBegin = reader.bool(v, at: at)
            case "shouldRecognizeSimultaneouslyWith": d.shouldRecognizeSimultaneouslyWith = decodeRecognizerList(v, at: at)
            case "shouldRequireFailureOf": d.shouldRequireFailureOf = decodeRecognizerList(v, at: at)
            case "shouldBeRequiredToFailBy": d.shouldBeRequiredToFailBy = decodeRecognizerList(v, at: at)
            default: return false
            }
            return true
        }
        guard ok else { return nil }
        if id == nil, !hasKey(node, "id") { reader.report(pointer, "required key \"id\" is missing (the delegate object)") }
        d.id = id ?? ""
        return d
    }
}

extension JSONTape {
    /// A rough count of views for reserving capacity: one view per ~8 nodes.
    var nodesCountHint: Int { nodeCount / 8 }
}
