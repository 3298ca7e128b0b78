import TapTraceCore

/// Imports the XML page source of Appium's XCUITest driver (WebDriverAgent) as a scene.
///
/// The page source is the accessibility tree, not the view tree: each `XCUIElementType…`
/// element becomes a view whose class is the element type and whose base is the UIKit class
/// that usually produces it (see `AppiumElementTypes`). Absolute `x y width height` become
/// frames relative to the parent element; `visible="false"` becomes hidden (unless a descendant
/// is visible), `enabled="false"` a disabled control, `label` (or `name`) the view's label, and
/// a `name` (or `label`) that is unique in the document its id.
public enum AppiumSourceParser {
    public static func parse(_ bytes: [UInt8], _ options: ImportOptions = ImportOptions()) throws(ImportError) -> ImportResult {
        let src = try SourceText(bytes)
        let elements = try XMLReader.elements(src)
        var builder = AppiumSceneBuilder(src: src, elements: elements)
        return try builder.build(options)
    }
}

struct AppiumSceneBuilder {
    enum Role {
        /// `<AppiumAUT>`: the driver's wrapper around the application.
        case wrapper
        /// `XCUIElementTypeApplication` at the top: the app, not a view.
        case application
        /// A top-level `XCUIElementTypeWindow`.
        case window
        /// Any other element: a view (in a synthesized window when no window encloses it).
        case view
    }

    struct Info {
        var role: Role
        var type: String
        var base: ViewBase
        var rect: Rect?
        var visible: Bool?
        var enabled: Bool?
        var inCollectionView = false
        var label: String?
        /// `name` where it differs from `label`: XCUITest reports the accessibility identifier
        /// as the name when one is set, and the label otherwise.
        var identifier: String?
        var idKey: String?
    }

    let src: SourceText
    let elements: [XMLElement]
    var infos: [Info] = []
    var draft: ImportDraft
    var ids = IdAllocator()

    init(src: SourceText, elements: [XMLElement]) {
        self.src = src
        self.elements = elements
        draft = ImportDraft(src: src)
    }

    /// The scene, validated (`SceneValidator`), with the warnings gathered on the way.
    mutating func build(_ options: ImportOptions) throws(ImportError) -> ImportResult {
        infos.reserveCapacity(elements.count)
        for e in elements { infos.append(try classify(e)) }
        let n = elements.count

        // Children and visible descendants, children first (parents have smaller indices).
        var hasChildren = [Bool](repeating: false, count: n)
        var visibleBelow = [Bool](repeating: false, count: n)
        for i in stride(from: n - 1, through: 0, by: -1) {
            guard let p = elements[i].parent else { continue }
            hasChildren[p] = true
            if visibleBelow[i] || infos[i].visible != false { visibleBelow[p] = true }
        }
        // A name or label used once in the document names the view.
        var keyCounts: [String: Int] = [:]
        for info in infos where info.role == .window || info.role == .view {
            if let key = info.idKey { keyCounts[key, default: 0] += 1 }
        }
        let windows = infos.indices.filter { infos[$0].role == .window }
        let mainWindow = windows.first { infos[$0].visible != false } ?? windows.first

        var appName: String?
        // View index of each element, and the screen point that is (0, 0) in its bounds.
        var viewOf = [Int?](repeating: nil, count: n)
        var origin = [Point](repeating: .zero, count: n)
        for (i, e) in elements.enumerated() {
            let info = infos[i]
            switch info.role {
            case .wrapper: continue
            case .application:
                appName = info.label
                continue
            case .window, .view: break
            }
            let rect = info.rect!
            var parentView = e.parent.flatMap { viewOf[$0] }
            var parentOrigin = e.parent.map { origin[$0] } ?? .zero
            if info.role == .view, parentView == nil {
                // No enclosing window (an excerpt, or an element straight in the application):
                // a synthesized window of the element's frame, whose bounds use screen
                // coordinates, so that it takes no touch the element would not.
                var window = ViewSpec(id: ids.allocate("window", scrollView: false), className: "UIWindow", base: .UIWindow)
                window.frame = rect
                if rect.origin != .zero { window.bounds = rect }
                parentView = add(window, to: nil, at: e.tag.offset)
                parentOrigin = .zero
                draft.warnings.add("no XCUIElementTypeWindow encloses these elements; each was put in a synthesized UIWindow of its own frame", describe(i), .behaviour)
            }
            let isWindow = info.role == .window
            let id: String
            if let key = info.idKey, keyCounts[key] == 1 {
                id = ids.allocate(key, scrollView: info.base.isScrollView)
            } else {
                id = ids.allocate("\(info.type)-\(ids.number(for: info.type))", scrollView: info.base.isScrollView)
            }
            var spec = ViewSpec(id: id, className: e.name, base: info.base)
            spec.explicitBase = info.base != UIKitClasses.impliedBase(className: e.name, isWindow: isWindow)
            spec.label = info.label
            spec.accessibilityIdentifier = info.identifier
            var later: [(heading: String, weight: ImportWarnings.Weight)] = []
            spec.frame = isWindow ? rect : Rect(rect.minX - parentOrigin.x, rect.minY - parentOrigin.y,
                                                rect.size.width, rect.size.height)
            if info.visible == false {
                if visibleBelow[i] {
                    later.append(("visible=\"false\" elements with visible descendants were kept visible (a hidden view hides its subviews)", .behaviour))
                } else {
                    spec.hidden = true
                }
            }
            if info.enabled == false {
                if info.base.isControl {
                    spec.enabled = false
                } else {
                    later.append(("enabled=\"false\" on elements that are not controls has no effect here", .notice))
                }
            }
            if let heading = AppiumElementTypes.passThrough(&spec, type: info.type, isWindow: isWindow, isMainWindow: i == mainWindow,
                                                             hasChildren: hasChildren[i], mainWindow: "first visible window") {
                later.append((heading, .behaviour))
            }
            let view = add(spec, to: isWindow ? nil : parentView, at: e.tag.offset)
            for w in later { draft.warnings.add(w.heading, view: view, "", w.weight) }
            viewOf[i] = view
            origin[i] = rect.origin
        }
        if draft.scene.windows.isEmpty {
            let at = elements.first { $0.name.hasSuffix("Application") }?.tag.offset ?? elements[0].tag.offset
            throw src.error(at: at, "the page source has no elements below the application: nothing to import")
        }
        draft.scene.name = "Appium page source" + (appName.map { ": \($0)" } ?? "")
        draft.preamble = [AppiumSceneBuilder.accessibilityTreeWarning]
        return try draft.finish(options)
    }

    /// Heads the warnings of every import of the accessibility tree (Appium, XCUITest).
    static let accessibilityTreeWarning = "This is the accessibility tree (XCUITest), not the view tree: elements are what VoiceOver sees, siblings are in reading order rather than z-order, views without accessibility are missing and classes are XCUIElementType names with an assumed UIKit base."

    private mutating func add(_ spec: ViewSpec, to parent: Int?, at offset: Int) -> Int {
        draft.add(spec, to: parent, at: offset)
    }

    private func describe(_ i: Int) -> String {
        "<\(elements[i].name)> at line \(src.line(of: elements[i].tag.offset))"
    }

    // MARK: elements

    private mutating func classify(_ e: XMLElement) throws(ImportError) -> Info {
        let parentRole = e.parent.map { infos[$0].role }
        let topLevel = parentRole == nil || parentRole == .wrapper || parentRole == .application
        let inCollection = e.parent.map { infos[$0].inCollectionView } ?? false
        if e.name == "AppiumAUT" {
            guard e.parent == nil else { throw src.error(at: e.tag.offset, "<AppiumAUT> is the driver's wrapper and can only be the root element") }
            return Info(role: .wrapper, type: "", base: .UIView)
        }
        guard e.name.hasPrefix(AppiumElementTypes.prefix), e.name.count > AppiumElementTypes.prefix.count else {
            if e.parent == nil, e.name == "hierarchy" {
                throw src.error(at: e.tag.offset, "this is an Android (UiAutomator2) page source; the appium importer reads iOS XCUITest page sources (XCUIElementType… elements)")
            }
            throw src.error(at: e.tag.offset, "unexpected element <\(e.name)>: an XCUITest page source has only XCUIElementType… elements (inside an optional <AppiumAUT>)")
        }
        let type = String(e.name.dropFirst(AppiumElementTypes.prefix.count))
        var info: Info
        if type == "Application", topLevel, parentRole != .application {
            info = Info(role: .application, type: type, base: .UIView)
        } else {
            let element = AppiumElementTypes.element(type, topLevel: topLevel, inCollectionView: inCollection,
                                                     warnings: &draft.warnings, at: describe(e))
            info = Info(role: element.isWindow ? .window : .view, type: type, base: element.base)
            info.rect = try rect(e)
        }
        info.inCollectionView = type == "CollectionView" || (type != "Table" && inCollection)
        info.visible = try bool(e, "visible")
        info.enabled = try bool(e, "enabled")
        let name = nonEmpty(e.tag.attribute("name")?.value)
        let label = nonEmpty(e.tag.attribute("label")?.value)
        info.label = label ?? name
        if let name, name != label { info.identifier = name }
        info.idKey = name ?? label
        return info
    }

    private func describe(_ e: XMLElement) -> String {
        "line \(src.line(of: e.tag.offset))"
    }

    private func nonEmpty(_ s: String?) -> String? {
        guard let s, !s.allSatisfy(\.isWhitespace) else { return nil }
        return s
    }

    private func rect(_ e: XMLElement) throws(ImportError) -> Rect {
        var v: [Double] = []
        for key in ["x", "y", "width", "height"] {
            guard let a = e.tag.attribute(key) else {
                throw src.error(at: e.tag.offset, "<\(e.name)> has no \(key) attribute; every element needs x, y, width and height")
            }
            let text = a.value.trimmingSpaces
            guard let n = Double(text), n.isFinite, !text.contains(where: { $0.isLetter && $0 != "e" && $0 != "E" }) else {
                throw src.error(at: a.valueOffset, "\(key)=\"\(a.value)\" is not a number")
            }
            if key == "width" || key == "height", n < 0 {
                throw src.error(at: a.valueOffset, "\(key)=\"\(a.value)\" is negative")
            }
            v.append(n)
        }
        return Rect(v[0], v[1], v[2], v[3])
    }

    private func bool(_ e: XMLElement, _ key: String) throws(ImportError) -> Bool? {
        guard let a = e.tag.attribute(key) else { return nil }
        switch a.value.trimmingSpaces.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw src.error(at: a.valueOffset, "\(key)=\"\(a.value)\" is not true or false")
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}
