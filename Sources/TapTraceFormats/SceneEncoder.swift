import TapTraceCore
import TapTraceJSON

/// Writes a scene document (`taptrace/scene@1`) with the keys the scene states, in the
/// contract's order. Iterative: a 10,000-deep scene is written without deep recursion.
/// Decoding what this writes gives back an equal `Scene` (tested).
public enum SceneEncoder {
    public static func encode(_ scene: Scene, indent: Int = 0) -> [UInt8] {
        var w = JSONWriter(indent: indent, reserving: 128 + scene.views.count * 96)
        write(scene, to: &w)
        return w.bytes
    }

    public static func write(_ scene: Scene, to w: inout JSONWriter) {
        w.beginObject()
        w.key("format"); w.string(Scene.format)
        if let name = scene.name { w.key("name"); w.string(name) }
        if let app = scene.app { w.key("app"); writeApp(app, to: &w) }
        if !scene.knobs.isEmpty { w.key("knobs"); writeKnobOverrides(scene.knobs, to: &w) }
        w.key("windows")
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
        w.endObject()
    }

    public static func writeKnobOverrides(_ knobs: KnobOverrides, to w: inout JSONWriter) {
        w.beginObject()
        for (name, value) in knobs.values {
            w.key(name)
            switch value {
            case .number(let n): w.number(n)
            case .bool(let b): w.bool(b)
            case .string(let s): w.string(s)
            }
        }
        w.endObject()
    }

    /// Writes a view's own keys and leaves its object (and its subviews array, if any) open.
    private static func openView(_ v: ViewSpec, to w: inout JSONWriter) {
        w.beginObject()
        w.key("id"); w.string(v.id)
        w.key("class"); w.string(v.className)
        if let label = v.label { w.key("label"); w.string(label) }
        if v.explicitBase { w.key("base"); w.string(v.base.rawValue) }
        if let r = v.frame { w.key("frame"); w.numbers(r.minX, r.minY, r.size.width, r.size.height) }
        if let r = v.bounds { w.key("bounds"); w.numbers(r.minX, r.minY, r.size.width, r.size.height) }
        if let c = v.center { w.key("center"); w.numbers(c.x, c.y) }
        if let t = v.transform { w.key("transform"); w.numbers(t.a, t.b, t.c, t.d, t.tx, t.ty) }
        func flag(_ key: String, _ value: Bool?) { if let value { w.key(key); w.bool(value) } }
        flag("hidden", v.hidden)
        if let a = v.alpha { w.key("alpha"); w.number(a) }
        flag("userInteractionEnabled", v.userInteractionEnabled)
        flag("clipsToBounds", v.clipsToBounds)
        flag("multipleTouchEnabled", v.multipleTouchEnabled)
        flag("exclusiveTouch", v.exclusiveTouch)
        flag("animating", v.animating)
        flag("enabled", v.enabled)
        if let level = v.level { w.key("level"); w.number(level) }
        flag("isKey", v.isKey)
        if let s = v.scrollView {
            w.key("scrollView")
            w.beginObject()
            if let size = s.contentSize { w.key("contentSize"); w.numbers(size.width, size.height) }
            flag("delaysContentTouches", s.delaysContentTouches)
            flag("canCancelContentTouches", s.canCancelContentTouches)
            flag("scrollEnabled", s.scrollEnabled)
            w.endObject()
        }
        if let o = v.overrides { w.key("overrides"); writeViewOverrides(o, to: &w) }
        if let i = v.implements { w.key("implements"); w.strings(i) }
        if let targets = v.targets {
            w.key("targets")
            w.beginArray()
            for t in targets {
                w.beginObject()
                w.key("events"); w.strings(t.events.map(\.rawValue))
                w.key("target"); w.string(t.target)
                w.key("action"); w.string(t.action)
                w.endObject()
            }
            w.endArray()
        }
        if let grs = v.gestureRecognizers {
            w.key("gestureRecognizers")
            w.beginArray()
            for g in grs { writeRecognizer(g, to: &w) }
            w.endArray()
        }
        if let vc = v.viewController {
            w.key("viewController")
            w.beginObject()
            w.key("id"); w.string(vc.id)
            w.key("class"); w.string(vc.className)
            if let p = vc.presentedBy { w.key("presentedBy"); w.string(p) }
            if let i = vc.implements { w.key("implements"); w.strings(i) }
            if let o = vc.overrides { w.key("overrides"); writeResponderOverrides(o, to: &w) }
            w.endObject()
        }
        if !v.subviews.isEmpty {
            w.key("subviews")
            w.beginArray()
        }
    }

    private static func writeTouches(_ t: TouchOverrides, to w: inout JSONWriter) {
        if !t.perMethod {
            w.string(t.began.rawValue)
            return
        }
        w.beginObject()
        w.key("began"); w.string(t.began.rawValue)
        w.key("moved"); w.string(t.moved.rawValue)
        w.key("ended"); w.string(t.ended.rawValue)
        w.key("cancelled"); w.string(t.cancelled.rawValue)
        w.endObject()
    }

    private static func writeCanPerform(_ map: [String: Bool], to w: inout JSONWriter) {
        w.beginObject()
        for key in map.keys.sorted() { w.key(key); w.bool(map[key]!) }
        w.endObject()
    }

    private static func writeViewOverrides(_ o: ViewOverrides, to w: inout JSONWriter) {
        w.beginObject()
        if let p = o.pointInside {
            w.key("pointInside")
            w.beginObject()
            switch p {
            case let .insets(top, left, bottom, right): w.key("insets"); w.numbers(top, left, bottom, right)
            case .rects(let rects):
                w.key("rects")
                w.beginArray()
                for r in rects { w.numbers(r.minX, r.minY, r.size.width, r.size.height) }
                w.endArray()
            case .circle: w.key("circle"); w.bool(true)
            case .orSubviews: w.key("orSubviews"); w.bool(true)
            case .returns(let b): w.key("returns"); w.bool(b)
            }
            w.endObject()
        }
        if let h = o.hitTest {
            w.key("hitTest")
            switch h {
            case .passThrough: w.string("passThrough")
            case .returnsSelf: w.string("self")
            case .redirect(let id):
                w.beginObject(); w.key("redirect"); w.string(id); w.endObject()
            }
        }
        if let n = o.nextResponder { w.key("nextResponder"); w.string(n) }
        if let t = o.touches { w.key("touches"); writeTouches(t, to: &w) }
        if let s = o.gestureRecognizerShouldBegin {
            w.key("gestureRecognizerShouldBegin")
            w.beginObject()
            w.key("default"); w.bool(s.defaultAnswer)
            if !s.byRecognizer.isEmpty { w.key("byRecognizer"); writeCanPerform(s.byRecognizer, to: &w) }
            w.endObject()
        }
        if let b = o.beginTracking { w.key("beginTracking"); w.bool(b) }
        if let b = o.continueTracking { w.key("continueTracking"); w.bool(b) }
        if let b = o.touchesShouldBegin { w.key("touchesShouldBegin"); w.bool(b) }
        if let b = o.touchesShouldCancel { w.key("touchesShouldCancel"); w.bool(b) }
        if let c = o.canPerformAction { w.key("canPerformAction"); writeCanPerform(c, to: &w) }
        w.endObject()
    }

    private static func writeResponderOverrides(_ o: ResponderOverrides, to w: inout JSONWriter) {
        w.beginObject()
        if let t = o.touches { w.key("touches"); writeTouches(t, to: &w) }
        if let n = o.nextResponder { w.key("nextResponder"); w.string(n) }
        if let c = o.canPerformAction { w.key("canPerformAction"); writeCanPerform(c, to: &w) }
        w.endObject()
    }

    private static func writeApp(_ app: AppSpec, to w: inout JSONWriter) {
        w.beginObject()
        if let id = app.id { w.key("id"); w.string(id) }
        if let c = app.className { w.key("class"); w.string(c) }
        if let i = app.implements { w.key("implements"); w.strings(i) }
        if let o = app.overrides { w.key("overrides"); writeResponderOverrides(o, to: &w) }
        if let d = app.delegate {
            w.key("delegate")
            w.beginObject()
            w.key("id"); w.string(d.id)
            w.key("class"); w.string(d.className)
            if let r = d.isResponder { w.key("isResponder"); w.bool(r) }
            if let i = d.implements { w.key("implements"); w.strings(i) }
            if let o = d.overrides { w.key("overrides"); writeResponderOverrides(o, to: &w) }
            w.endObject()
        }
        if let f = app.focusedResponder { w.key("focusedResponder"); w.string(f) }
        if let b = app.ignoringInteractionEvents { w.key("ignoringInteractionEvents"); w.bool(b) }
        w.endObject()
    }

    private static func writeRecognizer(_ g: RecognizerSpec, to w: inout JSONWriter) {
        w.beginObject()
        w.key("id"); w.string(g.id)
        w.key("class"); w.string(g.className)
        if g.explicitBase { w.key("base"); w.string(g.base.rawValue) }
        func flag(_ key: String, _ value: Bool?) { if let value { w.key(key); w.bool(value) } }
        func int(_ key: String, _ value: Int?) { if let value { w.key(key); w.number(value) } }
        flag("enabled", g.enabled)
        flag("cancelsTouchesInView", g.cancelsTouchesInView)
        flag("delaysTouchesBegan", g.delaysTouchesBegan)
        flag("delaysTouchesEnded", g.delaysTouchesEnded)
        int("numberOfTapsRequired", g.numberOfTapsRequired)
        int("numberOfTouchesRequired", g.numberOfTouchesRequired)
        if let d = g.minimumPressDuration { w.key("minimumPressDuration"); w.number(d) }
        if let m = g.allowableMovement { w.key("allowableMovement"); w.number(m) }
        int("minimumNumberOfTouches", g.minimumNumberOfTouches)
        if g.maximumNumberOfTouchesGiven {
            w.key("maximumNumberOfTouches")
            if let m = g.maximumNumberOfTouches { w.number(m) } else { w.null() }
        }
        if let d = g.direction { w.key("direction"); w.strings(d.map(\.rawValue)) }
        if let e = g.edges { w.key("edges"); w.strings(e.map(\.rawValue)) }
        if let r = g.requireToFail { w.key("requireToFail"); w.strings(r) }
        flag("canPrevent", g.canPrevent)
        flag("canBePrevented", g.canBePrevented)
        flag("requiresExclusiveTouchType", g.requiresExclusiveTouchType)
        if let d = g.delegate {
            w.key("delegate")
            w.beginObject()
            w.key("id"); w.string(d.id)
            if let c = d.className { w.key("class"); w.string(c) }
            flag("shouldReceiveEvent", d.shouldReceiveEvent)
            flag("shouldReceiveTouch", d.shouldReceiveTouch)
            flag("shouldBegin", d.shouldBegin)
            func list(_ key: String, _ l: RecognizerDelegateSpec.RecognizerList?) {
                guard let l else { return }
                w.key(key)
                switch l {
                case .all: w.string("all")
                case .ids(let ids): w.strings(ids)
                }
            }
            list("shouldRecognizeSimultaneouslyWith", d.shouldRecognizeSimultaneouslyWith)
            list("shouldRequireFailureOf", d.shouldRequireFailureOf)
            list("shouldBeRequiredToFailBy", d.shouldBeRequiredToFailBy)
            w.endObject()
        }
        w.key("targets")
        w.beginArray()
        for t in g.targets {
            w.beginObject()
            w.key("target"); w.string(t.target)
            w.key("action"); w.string(t.action)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }
}
