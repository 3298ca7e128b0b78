import TapTraceCore
import TapTraceJSON

/// `GET /v1/scenes/{id}/geometry`: every view's placement on screen, for the viewer.
extension ScreenLayout {
    /// The whole layout: every view.
    public func json() -> [UInt8] { json(from: 0, count: placements.count) }

    /// One page of the layout: `count` views in document order from the `start`-th (about
    /// 420 bytes each, so a 100,001-view scene is paged rather than answered in one piece),
    /// with `viewCount`, every view's count, and `nextCursor`, the position of the page after
    /// this one as text (null on the last page). The name, screen and windows come with
    /// every page.
    public func json(from start: Int, count: Int) -> [UInt8] {
        let start = min(max(0, start), placements.count)
        let end = start + min(max(0, count), placements.count - start)
        var w = JSONWriter(reserving: 256 + (end - start) * 420)
        w.beginObject()
        w.key("name"); w.string(index.scene.name)
        w.key("screen")
        if let box = screenBox { w.numbers(box.minX, box.minY, box.size.width, box.size.height) } else { w.null() }
        w.key("windows")
        w.strings(windowsBackToFront.map { index.view($0).id })
        w.key("views")
        w.beginArray()
        var pointers = ViewPointers(index.scene)
        // The views before the page only extend the pointer path (no string is made).
        for p in placements[..<start] { pointers.extend(p.view) }
        for p in placements[start..<end] { write(p, pointer: pointers.pointer(p.view), to: &w) }
        w.endArray()
        w.key("viewCount"); w.number(placements.count)
        w.key("nextCursor"); w.string(end < placements.count ? String(end) : nil)
        w.endObject()
        return w.bytes
    }

    private func write(_ p: ViewPlacement, pointer: String, to w: inout JSONWriter) {
        let v = p.view
        let spec = index.view(v)
        w.beginObject()
        w.key("id"); w.string(spec.id)
        w.key("class"); w.string(spec.className)
        w.key("base"); w.string(spec.base.rawValue)
        if let label = spec.label { w.key("label"); w.string(label) }
        w.key("superview"); w.string(index.superview(v).map { index.view($0).id })
        w.key("window"); w.string(index.view(index.windowOf[v]).id)
        w.key("depth"); w.number(p.depth)
        // Where the view is in the scene document, for a client that edits it by JSON Patch
        // (`PATCH /v1/scenes/{id}`) knowing only the view's id.
        w.key("pointer"); w.string(pointer)
        let bounds = index.geometry[v].bounds
        w.key("bounds"); w.numbers(bounds.minX, bounds.minY, bounds.size.width, bounds.size.height)
        let frame = index.geometry[v].frame
        w.key("frame"); w.numbers(frame.minX, frame.minY, frame.size.width, frame.size.height)
        w.key("toScreen")
        if let m = p.toScreen { w.numbers(m.a, m.b, m.c, m.d, m.tx, m.ty) } else { w.null() }
        w.key("quad")
        if let quad = p.quad {
            w.beginArray()
            for q in quad { w.numbers(q.x, q.y) }
            w.endArray()
        } else {
            w.null()
        }
        if let t = spec.transform, !t.isIdentity { w.key("transform"); w.numbers(t.a, t.b, t.c, t.d, t.tx, t.ty) }
        w.key("hidden"); w.bool(index.isHidden(v))
        w.key("alpha"); w.number(Double(index.alpha[v]))
        w.key("userInteractionEnabled"); w.bool(index.isUserInteractionEnabled(v))
        w.key("clipsToBounds"); w.bool(spec.clipsToBounds == true)
        if index.isAnimating(v) { w.key("animating"); w.bool(true) }
        if spec.base.isControl { w.key("enabled"); w.bool(index.isEnabled(v)) }
        if spec.superview == nil {
            w.key("level"); w.number(spec.level ?? 0)
            w.key("isKey"); w.bool(spec.isKey == true)
        }
        w.key("outOfPlay")
        if let (reason, by) = p.outOfPlay {
            w.beginObject()
            w.key("rule"); w.string(reason.rule)
            w.key("text"); w.string(reason.text)
            w.key("view"); w.string(index.view(by).id)
            w.endObject()
        } else {
            w.null()
        }
        w.key("recognizers")
        w.beginArray()
        for r in index.recognizers(ofView: v) { ResultEncoder.writeRef(index.recognizers[r].ref, to: &w) }
        w.endArray()
        w.key("viewController")
        if let vc = spec.viewController {
            w.beginObject()
            w.key("id"); w.string(vc.id)
            w.key("class"); w.string(vc.className)
            w.endObject()
        } else {
            w.null()
        }
        if let targets = spec.targets, !targets.isEmpty {
            w.key("actions"); w.strings(targets.map(\.action))
        }
        w.endObject()
    }
}

/// Each view's JSON pointer into the scene document (`/windows/0/subviews/1`), as
/// `SceneValidator.pointer(ofView:in:)` gives it, built in document order from its superview's:
/// the views on the current path share one buffer, so a view costs the length of its pointer
/// rather than a walk up to its window and a search of each level's siblings.
private struct ViewPointers {
    let scene: Scene
    /// Each view's index among its superview's subviews (a window's among the windows).
    var position: [Int]
    /// The pointer of the last view, whose ancestors' pointers are prefixes of it.
    var text: [UInt8] = []
    /// The views of the current path, window first, with where each one's pointer ends.
    var path: [(view: Int, end: Int)] = []

    init(_ scene: Scene) {
        self.scene = scene
        position = Array(repeating: 0, count: scene.views.count)
        for (k, window) in scene.windows.enumerated() { position[window] = k }
        for view in scene.views {
            for (k, subview) in view.subviews.enumerated() { position[subview] = k }
        }
    }

    mutating func pointer(_ v: Int) -> String {
        guard extend(v) else {
            // Not in document order (a scene built in code may list views otherwise): the
            // pointer from scratch.
            return SceneValidator.pointer(ofView: v, in: scene)
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Makes `text` the pointer of `v`, which follows the last view in document order; false
    /// (and nothing changed) when it does not.
    @discardableResult
    mutating func extend(_ v: Int) -> Bool {
        let superview = scene.views[v].superview
        while let last = path.last, last.view != superview { path.removeLast() }
        if superview != nil && path.isEmpty { return false }
        text.removeSubrange((path.last?.end ?? 0)...)
        text.append(contentsOf: (superview == nil ? "/windows/" : "/subviews/").utf8)
        text.append(contentsOf: String(position[v]).utf8)
        path.append((v, text.count))
        return true
    }
}
