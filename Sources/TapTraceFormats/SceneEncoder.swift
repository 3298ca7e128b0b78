import TapTraceCore
import TapTraceJSON

/// Writes a scene document (`taptrace/scene@1`) with the keys the scene states, in the
/// contract's order: each object's keys are its key enum's (`SceneKeys.swift`), walked in their
/// declared order with an exhaustive `switch`, so that a key the decoder reads is a key the
/// encoder writes. Iterative: a 10,000-deep scene is written without deep recursion. Decoding
/// what this writes gives back an equal `Scene` (tested).
public enum SceneEncoder {
    public static func encode(_ scene: Scene, indent: Int = 0) -> [UInt8] {
        var w = JSONWriter(indent: indent, reserving: 128 + scene.views.count * 96)
        write(scene, to: &w)
        return w.bytes
    }

    public static func write(_ scene: Scene, to w: inout JSONWriter) {
        w.beginObject()
        for key in SceneKey.allCases {
            switch key {
            case .format: w.key(key); w.string(Scene.format)
            case .name: if let name = scene.name { w.key(key); w.string(name) }
            case .app: if let app = scene.app { w.key(key); writeApp(app, to: &w) }
            case .knobs: if !scene.knobs.isEmpty { w.key(key); writeKnobOverrides(scene.knobs, to: &w) }
            case .windows: w.key(key); writeWindows(scene, to: &w)
            }
        }
        w.endObject()
    }

    public static func writeKnobOverrides(_ knobs: KnobOverrides, to w: inout JSONWriter) {
        w.beginObject()
        for (name, value) in knobs.values {
            w.key(name)
            w.knob(value)
        }
        w.endObject()
    }

    private static func writeWindows(_ scene: Scene, to w: inout JSONWriter) {
        w.beginArray()
        // Each frame: a view whose subviews array is open, and the next subview to write.
        var stack: [(view: Int, next: Int)] = []
        for window in scene.windows {
            openView(scene.views[window], to: &w)
            stack.append((window, 0))
            while let top = stack.last {
                let subviews = scene.views[top.view].subviews
                if top.next < subviews.count {
                    stack[stack.count - 1].next += 1
                    let s = subviews[top.next]
                    openView(scene.views[s], to: &w)
                    stack.append((s, 0))
                } else {
                    if !subviews.isEmpty { w.endArray() }
                    w.endObject()
                    stack.removeLast()
                }
            }
        }
        w.endArray()
    }

    /// Writes a view's own keys and leaves its object (and its subviews array, if any) open.
    private static func openView(_ v: ViewSpec, to w: inout JSONWriter) {
        w.beginObject()
        for key in ViewKey.allCases {
            switch key {
            case .id: w.key(key); w.string(v.id)
            case .class: w.key(key); w.string(v.className)
            case .label: if let label = v.label { w.key(key); w.string(label) }
            case .accessibilityIdentifier:
                if let identifier = v.accessibilityIdentifier { w.key(key); w.string(identifier) }
            case .address: if let address = v.address { w.key(key); w.string(address) }
            case .base: if v.explicitBase { w.key(key); w.string(v.base.rawValue) }
            case .frame: if let r = v.frame { w.key(key); rect(r, &w) }
            case .bounds: if let r = v.bounds { w.key(key); rect(r, &w) }
            case .center: if let c = v.center { w.key(key); w.numbers(c.x, c.y) }
            case .transform: if let t = v.transform { w.key(key); w.numbers(t.a, t.b, t.c, t.d, t.tx, t.ty) }
            case .hidden: flag(key, v.hidden, &w)
            case .alpha: if let a = v.alpha { w.key(key); w.number(a) }
            case .userInteractionEnabled: flag(key, v.userInteractionEnabled, &w)
            case .clipsToBounds: flag(key, v.clipsToBounds, &w)
            case .multipleTouchEnabled: flag(key, v.multipleTouchEnabled, &w)
            case .exclusiveTouch: flag(key, v.exclusiveTouch, &w)
            case .animating: flag(key, v.animating, &w)
            case .enabled: flag(key, v.enabled, &w)
            case .level: if let level = v.level { w.key(key); w.number(level) }
            case .isKey: flag(key, v.isKey, &w)
            case .scrollView: if let s = v.scrollView { w.key(key); writeScrollView(s, to: &w) }
            case .overrides: if let o = v.overrides { w.key(key); writeViewOverrides(o, to: &w) }
            case .implements: if let i = v.implements { w.key(key); w.strings(i) }
            case .canBecomeFirstResponder: if v.hasRareProperties { flag(key, v.traits.canBecomeFirstResponder, &w) }
            case .canResignFirstResponder: if v.hasRareProperties { flag(key, v.traits.canResignFirstResponder, &w) }
            case .textInput: if v.hasRareProperties { flag(key, v.traits.textInput, &w) }
            case .keyCommands: if v.hasRareProperties, let c = v.traits.keyCommands { w.key(key); writeKeyCommands(c, to: &w) }
            case .targets:
                if let targets = v.targets {
                    w.key(key)
                    w.beginArray()
                    for t in targets { writeControlTarget(t, to: &w) }
                    w.endArray()
                }
            case .gestureRecognizers:
                if let grs = v.gestureRecognizers {
                    w.key(key)
                    w.beginArray()
                    for g in grs { writeRecognizer(g, to: &w) }
                    w.endArray()
                }
            case .viewController: if let vc = v.viewController { w.key(key); writeController(vc, to: &w) }
            case .subviews:
                // Left open: `writeWindows` writes the subviews and closes it.
                if !v.subviews.isEmpty { w.key(key); w.beginArray() }
            }
        }
    }

    private static func rect(_ r: Rect, _ w: inout JSONWriter) {
        w.numbers(r.minX, r.minY, r.size.width, r.size.height)
    }

    private static func flag<Key: DocumentKey>(_ key: Key, _ value: Bool?, _ w: inout JSONWriter) {
        if let value { w.key(key); w.bool(value) }
    }

    private static func writeScrollView(_ s: ScrollViewSpec, to w: inout JSONWriter) {
        w.beginObject()
        for key in ScrollViewKey.allCases {
            switch key {
            case .contentSize: if let size = s.contentSize { w.key(key); w.numbers(size.width, size.height) }
            case .delaysContentTouches: flag(key, s.delaysContentTouches, &w)
            case .canCancelContentTouches: flag(key, s.canCancelContentTouches, &w)
            case .scrollEnabled: flag(key, s.scrollEnabled, &w)
            }
        }
        w.endObject()
    }

    private static func writeControlTarget(_ t: ControlTarget, to w: inout JSONWriter) {
        w.beginObject()
        for key in ControlTargetKey.allCases {
            switch key {
            case .events: w.key(key); w.strings(t.events.map(\.rawValue))
            case .target: w.key(key); w.string(t.target)
            case .action: w.key(key); w.string(t.action)
            }
        }
        w.endObject()
    }

    private static func writeController(_ vc: ViewControllerSpec, to w: inout JSONWriter) {
        w.beginObject()
        for key in ViewControllerKey.allCases {
            switch key {
            case .id: w.key(key); w.string(vc.id)
            case .class: w.key(key); w.string(vc.className)
            case .presentedBy: if let p = vc.presentedBy { w.key(key); w.string(p) }
            case .implements: if let i = vc.implements { w.key(key); w.strings(i) }
            case .overrides: if let o = vc.overrides { w.key(key); writeResponderOverrides(o, to: &w) }
            case .canBecomeFirstResponder: flag(key, vc.traits.canBecomeFirstResponder, &w)
            case .canResignFirstResponder: flag(key, vc.traits.canResignFirstResponder, &w)
            case .textInput: flag(key, vc.traits.textInput, &w)
            case .keyCommands: if let c = vc.traits.keyCommands { w.key(key); writeKeyCommands(c, to: &w) }
            }
        }
        w.endObject()
    }

    private static func writeTouches(_ t: TouchOverrides, to w: inout JSONWriter) {
        if !t.perMethod {
            w.string(t.began.rawValue)
            return
        }
        w.beginObject()
        for key in TouchMethodKey.allCases {
            w.key(key)
            switch key {
            case .began: w.string(t.began.rawValue)
            case .moved: w.string(t.moved.rawValue)
            case .ended: w.string(t.ended.rawValue)
            case .cancelled: w.string(t.cancelled.rawValue)
            }
        }
        w.endObject()
    }

    private static func writeCanPerform(_ map: [String: Bool], to w: inout JSONWriter) {
        w.beginObject()
        for key in map.keys.sorted() { w.key(key); w.bool(map[key]!) }
        w.endObject()
    }

    private static func writePointInside(_ p: PointInsideOverride, to w: inout JSONWriter) {
        w.beginObject()
        switch p {
        case let .insets(top, left, bottom, right): w.key(PointInsideKey.insets); w.numbers(top, left, bottom, right)
        case .rects(let rects):
            w.key(PointInsideKey.rects)
            w.beginArray()
            for r in rects { rect(r, &w) }
            w.endArray()
        case .circle: w.key(PointInsideKey.circle); w.bool(true)
        case .orSubviews: w.key(PointInsideKey.orSubviews); w.bool(true)
        case .returns(let b): w.key(PointInsideKey.returns); w.bool(b)
        }
        w.endObject()
    }

    private static func writeViewOverrides(_ o: ViewOverrides, to w: inout JSONWriter) {
        w.beginObject()
        for key in ViewOverrideKey.allCases {
            switch key {
            case .pointInside: if let p = o.pointInside { w.key(key); writePointInside(p, to: &w) }
            case .hitTest:
                if let h = o.hitTest {
                    w.key(key)
                    switch h {
                    case .passThrough: w.string("passThrough")
                    case .returnsSelf: w.string("self")
                    case .redirect(let id):
                        w.beginObject(); w.key(HitTestRedirectKey.redirect); w.string(id); w.endObject()
                    }
                }
            case .nextResponder: if let n = o.nextResponder { w.key(key); w.string(n) }
            case .touches: if let t = o.touches { w.key(key); writeTouches(t, to: &w) }
            case .gestureRecognizerShouldBegin:
                if let s = o.gestureRecognizerShouldBegin {
                    w.key(key)
                    w.beginObject()
                    for k in ShouldBeginKey.allCases {
                        switch k {
                        case .default: w.key(k); w.bool(s.defaultAnswer)
                        case .byRecognizer: if !s.byRecognizer.isEmpty { w.key(k); writeCanPerform(s.byRecognizer, to: &w) }
                        }
                    }
                    w.endObject()
                }
            case .beginTracking: flag(key, o.beginTracking, &w)
            case .continueTracking: flag(key, o.continueTracking, &w)
            case .touchesShouldBegin: flag(key, o.touchesShouldBegin, &w)
            case .touchesShouldCancel: flag(key, o.touchesShouldCancel, &w)
            case .canPerformAction: if let c = o.canPerformAction { w.key(key); writeCanPerform(c, to: &w) }
            case .presses: if let p = o.presses { w.key(key); writePresses(p, to: &w) }
            case .motion: if let m = o.motion { w.key(key); writeMotion(m, to: &w) }
            case .remoteControl: if let r = o.remoteControl { w.key(key); writeRemoteControl(r, to: &w) }
            }
        }
        w.endObject()
    }

    private static func writeResponderOverrides(_ o: ResponderOverrides, to w: inout JSONWriter) {
        w.beginObject()
        for key in ResponderOverrideKey.allCases {
            switch key {
            case .touches: if let t = o.touches { w.key(key); writeTouches(t, to: &w) }
            case .nextResponder: if let n = o.nextResponder { w.key(key); w.string(n) }
            case .canPerformAction: if let c = o.canPerformAction { w.key(key); writeCanPerform(c, to: &w) }
            case .presses: if let p = o.presses { w.key(key); writePresses(p, to: &w) }
            case .motion: if let m = o.motion { w.key(key); writeMotion(m, to: &w) }
            case .remoteControl: if let r = o.remoteControl { w.key(key); writeRemoteControl(r, to: &w) }
            }
        }
        w.endObject()
    }

    /// `overrides.presses`: the word when every method does the same and there is no `only`.
    private static func writePresses(_ p: PressOverrides, to w: inout JSONWriter) {
        if !p.perMethod, p.only == nil {
            w.string(p.began.rawValue)
            return
        }
        w.beginObject()
        for key in PressMethodKey.allCases {
            switch key {
            case .began: w.key(key); w.string(p.began.rawValue)
            case .changed: w.key(key); w.string(p.changed.rawValue)
            case .ended: w.key(key); w.string(p.ended.rawValue)
            case .cancelled: w.key(key); w.string(p.cancelled.rawValue)
            case .only: if let only = p.only { w.key(key); w.strings(only) }
            }
        }
        w.endObject()
    }

    private static func writeMotion(_ m: MotionOverrides, to w: inout JSONWriter) {
        if !m.perMethod {
            w.string(m.began.rawValue)
            return
        }
        w.beginObject()
        for key in MotionMethodKey.allCases {
            w.key(key)
            switch key {
            case .began: w.string(m.began.rawValue)
            case .ended: w.string(m.ended.rawValue)
            case .cancelled: w.string(m.cancelled.rawValue)
            }
        }
        w.endObject()
    }

    private static func writeRemoteControl(_ r: RemoteControlOverride, to w: inout JSONWriter) {
        guard let only = r.only else { w.string(r.handling.rawValue); return }
        w.beginObject()
        for key in RemoteControlOverrideKey.allCases {
            switch key {
            case .only: w.key(key); w.strings(only.map(\.rawValue))
            }
        }
        w.endObject()
    }

    private static func writeKeyCommands(_ commands: [KeyCommandSpec], to w: inout JSONWriter) {
        w.beginArray()
        for c in commands {
            w.beginObject()
            for key in KeyCommandKey.allCases {
                switch key {
                case .id: if let id = c.id { w.key(key); w.string(id) }
                case .input: w.key(key); w.string(c.input)
                case .modifierFlags: if !c.modifierFlags.isEmpty { w.key(key); w.strings(c.modifierFlags.map(\.rawValue)) }
                case .action: w.key(key); w.string(c.action)
                case .wantsPriorityOverSystemBehavior: flag(key, c.wantsPriorityOverSystemBehavior, &w)
                }
            }
            w.endObject()
        }
        w.endArray()
    }

    private static func writeApp(_ app: AppSpec, to w: inout JSONWriter) {
        w.beginObject()
        for key in AppKey.allCases {
            switch key {
            case .id: if let id = app.id { w.key(key); w.string(id) }
            case .class: if let c = app.className { w.key(key); w.string(c) }
            case .implements: if let i = app.implements { w.key(key); w.strings(i) }
            case .overrides: if let o = app.overrides { w.key(key); writeResponderOverrides(o, to: &w) }
            case .delegate: if let d = app.delegate { w.key(key); writeAppDelegate(d, to: &w) }
            case .focusedResponder: if let f = app.focusedResponder { w.key(key); w.string(f) }
            case .ignoringInteractionEvents: flag(key, app.ignoringInteractionEvents, &w)
            case .canBecomeFirstResponder: flag(key, app.traits.canBecomeFirstResponder, &w)
            case .canResignFirstResponder: flag(key, app.traits.canResignFirstResponder, &w)
            case .textInput: flag(key, app.traits.textInput, &w)
            case .keyCommands: if let c = app.traits.keyCommands { w.key(key); writeKeyCommands(c, to: &w) }
            case .applicationSupportsShakeToEdit: flag(key, app.applicationSupportsShakeToEdit, &w)
            case .receivesRemoteControlEvents: flag(key, app.receivesRemoteControlEvents, &w)
            }
        }
        w.endObject()
    }

    private static func writeAppDelegate(_ d: AppDelegateSpec, to w: inout JSONWriter) {
        w.beginObject()
        for key in AppDelegateKey.allCases {
            switch key {
            case .id: w.key(key); w.string(d.id)
            case .class: w.key(key); w.string(d.className)
            case .isResponder: flag(key, d.isResponder, &w)
            case .implements: if let i = d.implements { w.key(key); w.strings(i) }
            case .overrides: if let o = d.overrides { w.key(key); writeResponderOverrides(o, to: &w) }
            case .canBecomeFirstResponder: flag(key, d.traits.canBecomeFirstResponder, &w)
            case .canResignFirstResponder: flag(key, d.traits.canResignFirstResponder, &w)
            case .textInput: flag(key, d.traits.textInput, &w)
            case .keyCommands: if let c = d.traits.keyCommands { w.key(key); writeKeyCommands(c, to: &w) }
            }
        }
        w.endObject()
    }

    private static func writeRecognizer(_ g: RecognizerSpec, to w: inout JSONWriter) {
        w.beginObject()
        func int(_ key: RecognizerKey, _ value: Int?) { if let value { w.key(key); w.number(value) } }
        for key in RecognizerKey.allCases {
            switch key {
            case .id: w.key(key); w.string(g.id)
            case .class: w.key(key); w.string(g.className)
            case .base: if g.explicitBase { w.key(key); w.string(g.base.rawValue) }
            case .enabled: flag(key, g.enabled, &w)
            case .cancelsTouchesInView: flag(key, g.cancelsTouchesInView, &w)
            case .delaysTouchesBegan: flag(key, g.delaysTouchesBegan, &w)
            case .delaysTouchesEnded: flag(key, g.delaysTouchesEnded, &w)
            case .numberOfTapsRequired: int(key, g.numberOfTapsRequired)
            case .numberOfTouchesRequired: int(key, g.numberOfTouchesRequired)
            case .minimumPressDuration: if let d = g.minimumPressDuration { w.key(key); w.number(d) }
            case .allowableMovement: if let m = g.allowableMovement { w.key(key); w.number(m) }
            case .minimumNumberOfTouches: int(key, g.minimumNumberOfTouches)
            case .maximumNumberOfTouches:
                if g.maximumNumberOfTouchesGiven {
                    w.key(key)
                    if let m = g.maximumNumberOfTouches { w.number(m) } else { w.null() }
                }
            case .direction: if let d = g.direction { w.key(key); w.strings(d.map(\.rawValue)) }
            case .edges: if let e = g.edges { w.key(key); w.strings(e.map(\.rawValue)) }
            case .requireToFail: if let r = g.requireToFail { w.key(key); w.strings(r) }
            case .canPrevent: flag(key, g.canPrevent, &w)
            case .canBePrevented: flag(key, g.canBePrevented, &w)
            case .requiresExclusiveTouchType: flag(key, g.requiresExclusiveTouchType, &w)
            case .allowedPressTypes: if let p = g.allowedPressTypes { w.key(key); w.strings(p.map(\.rawValue)) }
            case .delegate: if let d = g.delegate { w.key(key); writeRecognizerDelegate(d, to: &w) }
            case .targets:
                w.key(key)
                w.beginArray()
                for t in g.targets {
                    w.beginObject()
                    for k in RecognizerTargetKey.allCases {
                        w.key(k)
                        switch k {
                        case .target: w.string(t.target)
                        case .action: w.string(t.action)
                        }
                    }
                    w.endObject()
                }
                w.endArray()
            }
        }
        w.endObject()
    }

    private static func writeRecognizerDelegate(_ d: RecognizerDelegateSpec, to w: inout JSONWriter) {
        w.beginObject()
        func list(_ key: RecognizerDelegateKey, _ l: RecognizerDelegateSpec.RecognizerList?) {
            guard let l else { return }
            w.key(key)
            switch l {
            case .all: w.string("all")
            case .ids(let ids): w.strings(ids)
            }
        }
        for key in RecognizerDelegateKey.allCases {
            switch key {
            case .id: w.key(key); w.string(d.id)
            case .class: if let c = d.className { w.key(key); w.string(c) }
            case .shouldReceiveEvent: flag(key, d.shouldReceiveEvent, &w)
            case .shouldReceiveTouch: flag(key, d.shouldReceiveTouch, &w)
            case .shouldReceivePress: flag(key, d.shouldReceivePress, &w)
            case .shouldBegin: flag(key, d.shouldBegin, &w)
            case .shouldRecognizeSimultaneouslyWith: list(key, d.shouldRecognizeSimultaneouslyWith)
            case .shouldRequireFailureOf: list(key, d.shouldRequireFailureOf)
            case .shouldBeRequiredToFailBy: list(key, d.shouldBeRequiredToFailBy)
            }
        }
        w.endObject()
    }
}

extension JSONWriter {
    /// A document key, as its enum spells it.
    mutating func key<Key: DocumentKey>(_ key: Key) { self.key(key.rawValue) }
}
