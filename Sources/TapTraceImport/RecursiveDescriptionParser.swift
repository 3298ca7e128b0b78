import TapTraceCore

/// Imports the text of `-[UIView recursiveDescription]` (as lldb's `po` or Cycript print it)
/// as a scene.
///
/// Each line is a view; its depth is the number of `|` before it. The fields UIKit prints
/// become the view's properties: `frame`, `transform` (the frame is then the bounding box, as
/// the contract's frame + transform form reads it), `hidden`, `alpha`,
/// `userInteractionEnabled`, `clipsToBounds`, a scroll view's `contentOffset` (the bounds
/// origin) and `contentSize`, `baseClass` (the UIKit class a custom class inherits from) and
/// `text` (the label). Everything else is ignored with a warning that names it. The address
/// goes to `address`; ids are given by `ImportIdentity` (or are `Class-0xADDRESS`, `Class-<n>`
/// when the addresses were purged, with `ids: .address`). A top view that is not a window sits
/// in a synthesized UIWindow of its frame. The debugger's add-ons pasted after the hierarchy
/// (`DumpSections`) are joined to its views by address.
public enum RecursiveDescriptionParser {
    public static func parse(_ bytes: [UInt8], _ options: ImportOptions = ImportOptions()) throws(ImportError) -> ImportResult {
        var builder = try RecursiveDescriptionBuilder(src: SourceText(bytes))
        return try builder.build(options)
    }
}

struct RecursiveDescriptionBuilder {
    let src: SourceText
    let scanner: DescriptionLineScanner
    var draft: ImportDraft
    var ids = IdAllocator()
    /// Open views: depth in the dump and view index.
    var stack: [(depth: Int, view: Int)] = []
    var rootDepth: Int?
    var firstClass: String?

    init(src: SourceText) {
        self.src = src
        scanner = DescriptionLineScanner(src)
        draft = ImportDraft(src: src)
    }

    /// The scene, validated (`SceneValidator`), with the warnings gathered on the way.
    mutating func build(_ options: ImportOptions) throws(ImportError) -> ImportResult {
        let sections = try DumpSections(src)
        for section in sections.hierarchy {
            var lo = section.lowerBound
            while lo < section.upperBound {
                let hi = src.lineEnd(from: lo)
                switch try scanner.scan(lo, hi) {
                case .blank: break
                case .elision:
                    draft.warnings.add("lines elided in the dump ('...'): the views they stood for are missing, and views after them may hang under the wrong parent", "line \(src.line(of: lo))", .behaviour)
                case .prompt:
                    draft.warnings.add("debugger prompt lines skipped", "line \(src.line(of: lo))")
                case .view(let line):
                    try addView(line, lineStart: lo)
                }
                lo = hi + 1
            }
        }
        guard !draft.scene.windows.isEmpty else {
            throw src.error(at: sections.hierarchy.first?.upperBound ?? src.count,
                            "no view description found: expected lines like <UIView: 0x…; frame = (0 0; 375 667); …>")
        }
        draft.scene.name = "recursiveDescription: " + (firstClass ?? "")
        try sections.join(into: &draft)
        return try draft.finish(options)
    }

    // MARK: one view

    private mutating func addView(_ line: DescriptionLine, lineStart: Int) throws(ImportError) {
        let lineNumber = src.line(of: lineStart)
        // Where it goes.
        if rootDepth == nil {
            rootDepth = line.depth
            firstClass = line.className
            if line.depth > 0 {
                draft.warnings.note("the dump starts at depth \(line.depth) (an excerpt); its first view was imported as a top view", .behaviour)
            }
        }
        if let last = stack.last, line.depth > last.depth + 1 {
            throw src.error(at: line.start, "this view is \(line.depth) levels deep but the view above it is \(last.depth) deep: a line is missing in between")
        }
        while let last = stack.last, last.depth >= line.depth { stack.removeLast() }
        let isRoot = stack.isEmpty
        if isRoot, let r = rootDepth, line.depth > r {
            throw src.error(at: line.start, "this view is \(line.depth) levels deep but there is no view above it at depth \(line.depth - 1)")
        }

        // Warnings about this view, given once it is in the scene (they name it by index).
        var later: [(heading: String, suffix: String, weight: ImportWarnings.Weight)] = []

        // Fields.
        var frame: Rect?
        var transform: AffineTransform?
        var hidden: Bool?
        var alpha: Double?
        var interaction: Bool?
        var clips: Bool?
        var offset: Point?
        var contentSize: Size?
        var baseHint: String?
        var text: String?
        var placeholder: String?
        var hasRecognizers = false
        var animating = false
        for field in line.fields {
            var values = DescriptionValues(src, field: field)
            switch field.name {
            case "frame":
                frame = try values.frame()
                if frame == nil {
                    draft.warnings.add("frames that are not finite (nan or inf: a broken layout) imported as (0 0; 0 0), which is never hit", "line \(lineNumber)", .behaviour)
                    frame = Rect(0, 0, 0, 0)
                }
            case "transform": transform = try values.transform()
            case "hidden": hidden = try values.flag()
            case "alpha": alpha = try values.alpha()
            case "userInteractionEnabled": interaction = try values.flag()
            case "clipsToBounds": clips = try values.flag()
            case "contentOffset":
                let (x, y) = try values.pair()
                offset = Point(x, y)
            case "contentSize":
                let (w, h) = try values.pair()
                contentSize = Size(max(0, w), max(0, h))
            case "baseClass": baseHint = try values.word()
            case "text": text = nonEmpty(values.quotedText())
            case "placeholder": placeholder = nonEmpty(values.quotedText())
            case "gestureRecognizers": hasRecognizers = true
            case "animations": animating = true
            default: draft.warnings.add("fields ignored (no effect on hit-testing, or not modelled)", field.name, .ignored)
            }
        }
        if !line.extras.isEmpty {
            draft.warnings.add("text outside a view's own description ignored", "line \(lineNumber)")
        }

        // Class and base.
        var base: ViewBase
        if let hint = baseHint {
            base = UIKitClasses.base(of: hint) ?? .UIView
        } else if let known = UIKitClasses.base(of: line.className) {
            base = known
        } else if offset != nil {
            // Only UIScrollView's description prints contentOffset.
            base = .UIScrollView
            draft.warnings.add("classes imported as UIScrollView because their description shows contentOffset", line.className, .behaviour)
        } else if isRoot, UIKitClasses.looksLikeUIKitWindow(line.className) {
            base = .UIWindow
        } else {
            base = .UIView
        }
        if base == .UIWindow, !isRoot {
            draft.warnings.add("windows below the top of the dump imported as plain views", line.className, .behaviour)
            base = .UIView
        }
        let isWindow = isRoot && base == .UIWindow

        // Id.
        let candidate: String
        if let address = line.address {
            candidate = "\(line.className)-\(address)"
        } else {
            candidate = "\(line.className)-\(ids.number(for: line.className))"
        }
        var spec = ViewSpec(id: ids.allocate(candidate, scrollView: base.isScrollView), className: line.className, base: base)
        spec.explicitBase = base != UIKitClasses.impliedBase(className: line.className, isWindow: isWindow)
        spec.label = text ?? placeholder
        spec.address = line.address

        // Geometry.
        if frame == nil {
            later.append(("views without a frame imported as (0 0; 0 0), UIView's default", " (line \(lineNumber))", .behaviour))
        }
        let f = frame ?? Rect(0, 0, 0, 0)
        spec.frame = f
        var size = f.size
        if let t = transform, !t.isIdentity {
            spec.transform = t
            if let solved = ViewGeometryResolver.solveSize(frame: f, transform: t) {
                size = solved
            } else {
                // The bounding box does not determine width and height apart (a 45° rotation):
                // assume a square, the common case for rotated badges and spinners.
                let a = abs(t.a), b = abs(t.b), c = abs(t.c), d = abs(t.d)
                size = Size(a + c > 0 ? f.size.width / (a + c) : 0, b + d > 0 ? f.size.height / (b + d) : 0)
                spec.bounds = Rect(origin: .zero, size: size)
                later.append(("the transform does not determine the bounds size from the frame; a square bounds was assumed", "", .behaviour))
            }
        }
        if let offset {
            if base.isScrollView {
                if offset != .zero { spec.bounds = Rect(origin: offset, size: size) }
            } else {
                later.append(("contentOffset ignored on views whose base is not a scroll view", "", .notice))
            }
        }
        if let contentSize {
            if base.isScrollView {
                var s = ScrollViewSpec()
                s.contentSize = contentSize
                spec.scrollView = s
            }
        }

        // Flags. UIKit prints `userInteractionEnabled = NO` whenever it is NO, so its absence
        // means YES; that is the class default except for labels and image views.
        spec.hidden = hidden
        if let alpha, alpha != 1 { spec.alpha = alpha }
        spec.clipsToBounds = clips
        if let interaction {
            if interaction != base.defaultUserInteractionEnabled { spec.userInteractionEnabled = interaction }
        } else if !base.defaultUserInteractionEnabled {
            spec.userInteractionEnabled = true
            later.append(("\(base.rawValue == "UILabel" ? "labels" : "views") whose class default is not interactive (UILabel, UIImageView) but whose line lacks userInteractionEnabled = NO, which UIKit prints whenever it is NO; imported as interactive", "", .behaviour))
        }
        if animating {
            later.append(("views with animations in flight; UIKit ignores touches on views in a UIView animation without .allowUserInteraction: set animating: true on those to model it", "", .behaviour))
        }

        // Into the scene.
        let index: Int
        if isRoot {
            if isWindow {
                index = add(spec, to: nil, at: line.start)
            } else {
                var window = ViewSpec(id: ids.allocate("window", scrollView: false), className: "UIWindow", base: .UIWindow)
                window.frame = f
                if f.origin != .zero { window.bounds = f }
                let w = add(window, to: nil, at: line.start)
                index = add(spec, to: w, at: line.start)
                later.append(("top views that are not windows were put in a synthesized UIWindow of their frame", "", .behaviour))
            }
        } else {
            index = add(spec, to: stack.last!.view, at: line.start)
        }
        stack.append((line.depth, index))
        for w in later { draft.warnings.add(w.heading, view: index, w.suffix, w.weight) }
        if hasRecognizers { draft.viewsWithUndescribedRecognizers.append(index) }
        if let text, line.className == "UIButtonLabel" { labelOwningControl(of: index, text) }
    }

    private func nonEmpty(_ s: String) -> String? { s.isEmpty ? nil : s }

    /// A button's title is printed on its private UIButtonLabel: show it on the control too.
    private mutating func labelOwningControl(of view: Int, _ text: String) {
        var v = draft.scene.views[view].superview
        var steps = 0
        while let s = v, steps < 3 {
            if draft.scene.views[s].base.isControl {
                if draft.scene.views[s].label == nil { draft.scene.views[s].label = text }
                return
            }
            v = draft.scene.views[s].superview
            steps += 1
        }
    }

    private mutating func add(_ spec: ViewSpec, to parent: Int?, at offset: Int) -> Int {
        draft.add(spec, to: parent, at: offset)
    }
}
