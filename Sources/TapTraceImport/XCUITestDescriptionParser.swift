import TapTraceCore

/// Imports the text of `XCUIElement.debugDescription` (`print(app.debugDescription)`, `po
/// app.debugDescription`, or Appium's `mobile: source` with `format: description`) as a scene.
///
/// The text has four sections: `Attributes:` (the element itself, on one line), `Element
/// subtree:` (the element and everything below it, indented two spaces per level, a `→` before
/// the element), `Path to element:` (its ancestors from the Application, `↳` before each) and
/// `Query chain:` (how XCTest found it). Only the subtree becomes views; the path names the
/// application, and the query chain is skipped.
///
/// Like the Appium page source, this is the accessibility tree: element types become classes
/// with the `XCUIElementType` prefix (`XCUIElementTypeButton`, so that both importers agree)
/// and the UIKit base that usually produces them (`AppiumElementTypes`), screen frames become
/// frames relative to the parent element, `identifier` the accessibility identifier, `label`
/// (else `placeholderValue`) the label, `Disabled` a disabled control and `Keyboard Focused`
/// the application's focused responder. Windows, containers and elements outside any window
/// are treated as `AppiumSceneBuilder` treats them; the window printed `Window (Main)` is the
/// application's own.
public enum XCUITestDescriptionParser {
    public static func parse(_ bytes: [UInt8], _ options: ImportOptions = ImportOptions()) throws(ImportError) -> ImportResult {
        let src = try SourceText(bytes)
        let text = try XCUITestDescription(src)
        var builder = XCUITestSceneBuilder(src: src, text: text)
        return try builder.build(options)
    }
}

/// The sections of a `debugDescription`, read: the subtree as a tree of element lines.
struct XCUITestDescription {
    struct Element {
        var line: XCUITestElementLine
        var parent: Int?
    }

    /// The Element subtree in document order (each element before its children).
    var elements: [Element] = []
    /// Label of the Application in the Path to element.
    var pathApplicationLabel: String?
    var skippedQueryChain = false
    /// Lines before the first section header (a prompt, a log prefix), skipped.
    var preamble: [Int] = []

    init(_ src: SourceText) throws(ImportError) {
        let scanner = XCUITestLineScanner(src)
        var section: XCUITestSection?
        var subtreeHeader: Int?
        // Open elements of the subtree: indentation and index.
        var stack: [(indent: Int, element: Int)] = []
        var firstContent: Int?
        var lo = src.contentStart
        while lo < src.count {
            let bounds = scanner.bounds(lo)
            let first = scanner.firstNonBlank(lo, bounds.trimmed)
            if first == bounds.trimmed {
                lo = bounds.end + 1
                continue
            }
            if firstContent == nil { firstContent = first }
            if let header = scanner.header(lo) {
                if header == .subtree {
                    if let earlier = subtreeHeader {
                        throw src.error(at: first, "a second Element subtree: section (the first is on line \(src.line(of: earlier))): import one debugDescription at a time")
                    }
                    subtreeHeader = first
                }
                if header == .queryChain { skippedQueryChain = true }
                section = header
                lo = bounds.end + 1
                continue
            }
            switch section {
            case nil:
                preamble.append(src.line(of: lo))
                lo = bounds.end + 1
            case .attributes?, .queryChain?:
                // The Attributes line repeats the subtree's first element; the query chain
                // describes no views. Lines a multi-line label spilled onto go with them.
                lo = bounds.end + 1
            case .path?:
                let line = try scanner.scan(lo)
                if line.type == "Application", pathApplicationLabel == nil { pathApplicationLabel = line.label }
                lo = line.end + 1
            case .subtree?:
                let line = try scanner.scan(lo)
                try place(line, &stack, src)
                lo = line.end + 1
            }
        }
        guard let subtreeHeader else {
            throw XCUITestDescription.noSubtree(src, at: firstContent)
        }
        guard !elements.isEmpty else {
            throw src.error(at: subtreeHeader, "the Element subtree: section is empty: expected element lines like Window (Main), 0x…, {{0.0, 0.0}, {390.0, 844.0}} below it")
        }
    }

    /// Hangs an element under the nearest element above it that is indented two columns less.
    private mutating func place(_ line: XCUITestElementLine, _ stack: inout [(indent: Int, element: Int)], _ src: SourceText) throws(ImportError) {
        if let root = elements.first?.line, line.indent < root.indent {
            throw src.error(at: line.start, "this element is indented less (\(line.indent) columns) than the first element of the Element subtree (line \(src.line(of: root.start)), \(root.indent) columns)")
        }
        while let last = stack.last, last.indent >= line.indent { stack.removeLast() }
        if let parent = stack.last, line.indent != parent.indent + 2 {
            let p = elements[parent.element].line
            throw src.error(at: line.start, "this element is indented \(line.indent - p.indent) columns more than the element on line \(src.line(of: p.start)): XCUITest indents each level by two spaces, so a line is missing or the indentation was changed")
        }
        stack.append((line.indent, elements.count))
        elements.append(Element(line: line, parent: stack.count > 1 ? stack[stack.count - 2].element : nil))
    }

    /// The refusal of a text without an Element subtree, at its first line.
    private static func noSubtree(_ src: SourceText, at first: Int?) -> ImportError {
        // Appium answers `mobile: source` with a JSON string; pasted as is, its line breaks
        // are still `\n`.
        let escaped = Array("Element subtree:\\n".utf8)
        if let at = src.bytes.firstRange(of: escaped)?.lowerBound {
            return src.error(at: at, "the text is still JSON-escaped (\\n instead of line breaks): unescape the \"value\" of the mobile: source response first")
        }
        return src.error(at: first ?? src.count, "no Element subtree: section found: expected the output of print(app.debugDescription) or of Appium's mobile: source with format: description (Attributes: …, Element subtree:, Path to element:, Query chain:)")
    }
}

struct XCUITestSceneBuilder {
    enum Role {
        /// `Application` at the top: the app, not a view.
        case application
        /// A `Window` at the top or straight in the application.
        case window
        /// Any other element: a view (in a synthesized window when no window encloses it).
        case view
    }

    struct Info {
        var role: Role
        var base: ViewBase
        var inCollectionView = false
    }

    let src: SourceText
    let text: XCUITestDescription
    var draft: ImportDraft
    var ids = IdAllocator()

    init(src: SourceText, text: XCUITestDescription) {
        self.src = src
        self.text = text
        draft = ImportDraft(src: src)
    }

    /// The scene, validated (`SceneValidator`), with the warnings gathered on the way.
    mutating func build(_ options: ImportOptions) throws(ImportError) -> ImportResult {
        let elements = text.elements
        let n = elements.count
        var infos: [Info] = []
        infos.reserveCapacity(n)
        for e in elements { infos.append(classify(e, infos)) }
        var hasChildren = [Bool](repeating: false, count: n)
        for e in elements { if let p = e.parent { hasChildren[p] = true } }
        let windows = infos.indices.filter { infos[$0].role == .window }
        // XCTest marks the application's own window `(Main)`; other windows (the status bar's,
        // the keyboard's, alerts') pass touches through like the Appium importer's.
        let mainWindow = windows.first { elements[$0].line.qualifier == "Main" } ?? windows.first

        var appName: String?
        var focused: [Int] = []
        // View index of each element, and the screen point that is (0, 0) in its bounds.
        var viewOf = [Int?](repeating: nil, count: n)
        var origin = [Point](repeating: .zero, count: n)
        for (i, e) in elements.enumerated() {
            let info = infos[i]
            let line = e.line
            if info.role == .application {
                if appName == nil { appName = nonEmpty(line.label) }
                ignore(line, except: ["pid"])
                continue
            }
            guard let rect = line.frame else {
                throw src.error(at: line.typeOffset, "this \(line.type) has no frame: every element of the Element subtree needs {{x, y}, {w, h}}")
            }
            var parentView = e.parent.flatMap { viewOf[$0] }
            var parentOrigin = e.parent.map { origin[$0] } ?? .zero
            var synthesized = false
            if info.role == .view, parentView == nil {
                // No enclosing window (a subtree of one element, or an element straight in the
                // application): a synthesized window of the element's frame, whose bounds use
                // screen coordinates, so that it takes no touch the element would not.
                var window = ViewSpec(id: ids.allocate("window", scrollView: false), className: "UIWindow", base: .UIWindow)
                window.frame = rect
                if rect.origin != .zero { window.bounds = rect }
                parentView = draft.add(window, to: nil, at: line.start)
                parentOrigin = .zero
                synthesized = true
            }
            let isWindow = info.role == .window
            let className = AppiumElementTypes.prefix + line.type
            let candidate: String
            if let address = line.address {
                candidate = "\(className)-\(address)"
            } else {
                candidate = "\(className)-\(ids.number(for: className))"
            }
            var spec = ViewSpec(id: ids.allocate(candidate, scrollView: info.base.isScrollView), className: className, base: info.base)
            spec.explicitBase = info.base != UIKitClasses.impliedBase(className: className, isWindow: isWindow)
            spec.label = nonEmpty(line.label) ?? nonEmpty(line.placeholderValue)
            spec.accessibilityIdentifier = nonEmpty(line.identifier)
            spec.address = line.address
            spec.frame = isWindow ? rect : Rect(rect.minX - parentOrigin.x, rect.minY - parentOrigin.y,
                                                rect.size.width, rect.size.height)
            var later: [(heading: String, weight: ImportWarnings.Weight)] = []
            if synthesized {
                later.append(("no XCUIElementTypeWindow encloses these elements; each was put in a synthesized UIWindow of its own frame", .behaviour))
            }
            if line.hasFlag("Disabled") {
                if info.base.isControl {
                    spec.enabled = false
                } else {
                    later.append(("Disabled on elements that are not controls has no effect here", .notice))
                }
            }
            if let heading = AppiumElementTypes.passThrough(&spec, type: line.type, isWindow: isWindow, isMainWindow: i == mainWindow,
                                                             hasChildren: hasChildren[i], mainWindow: "main window (Window (Main), else the first)") {
                later.append((heading, .behaviour))
            }
            let view = draft.add(spec, to: isWindow ? nil : parentView, at: line.start)
            for w in later { draft.warnings.add(w.heading, view: view, "", w.weight) }
            if line.hasFlag("Keyboard Focused") { focused.append(view) }
            ignore(line, except: [])
            viewOf[i] = view
            origin[i] = rect.origin
        }
        if draft.scene.windows.isEmpty {
            throw src.error(at: elements[0].line.start, "the Element subtree has no elements below the application: nothing to import")
        }
        if let first = focused.first {
            // The element with keyboard focus is the first responder: nil-targeted actions
            // start there (A3).
            var app = AppSpec()
            app.focusedResponder = draft.scene.views[first].id
            draft.scene.app = app
            if focused.count > 1 {
                for v in focused.dropFirst() {
                    draft.warnings.add("more than one element is Keyboard Focused; the first was made the focused responder, these were not", view: v, "", .notice)
                }
            }
        }
        let name = appName ?? nonEmpty(text.pathApplicationLabel)
        draft.scene.name = "XCUITest debugDescription" + (name.map { ": \($0)" } ?? "")
        if text.skippedQueryChain {
            draft.warnings.note("the Query chain: section was skipped (how XCUITest found the element; it describes no views)", .ignored)
        }
        for line in text.preamble {
            draft.warnings.add("text before the first section (Attributes:, Element subtree:) skipped", "line \(line)")
        }
        draft.preamble = [AppiumSceneBuilder.accessibilityTreeWarning]
        return try draft.finish(options)
    }

    /// Notes the attributes of a line that have no effect here.
    private mutating func ignore(_ line: XCUITestElementLine, except: Set<String>) {
        for name in line.unmodelled where !except.contains(name) {
            draft.warnings.add("attributes ignored (no effect on hit-testing, or not modelled)", name, .ignored)
        }
    }

    private func describe(_ e: XCUITestDescription.Element) -> String {
        "\(AppiumElementTypes.prefix)\(e.line.type) at line \(src.line(of: e.line.start))"
    }

    private func nonEmpty(_ s: String?) -> String? {
        guard let s, !s.allSatisfy(\.isWhitespace) else { return nil }
        return s
    }

    // MARK: elements

    private mutating func classify(_ e: XCUITestDescription.Element, _ infos: [Info]) -> Info {
        let type = e.line.type
        let parentRole = e.parent.map { infos[$0].role }
        let topLevel = parentRole == nil || parentRole == .application
        let inCollection = e.parent.map { infos[$0].inCollectionView } ?? false
        var info: Info
        if type == "Application", parentRole == nil {
            info = Info(role: .application, base: .UIView)
        } else {
            let element = AppiumElementTypes.element(type, topLevel: topLevel, inCollectionView: inCollection,
                                                     warnings: &draft.warnings, at: describe(e))
            info = Info(role: element.isWindow ? .window : .view, base: element.base)
        }
        info.inCollectionView = type == "CollectionView" || (type != "Table" && inCollection)
        return info
    }
}
