import TapTraceCore

/// Names an imported scene's views, view controllers and recognizers from what survives a
/// relaunch, so that two captures of one screen share their ids and history, compare and
/// replay report only what moved.
///
/// A view's id is, in this order:
/// 1. its accessibility identifier (`buyButton`), which the app set for exactly this purpose;
/// 2. else class and label (`UIButton:Buy now`), the label cut to 40 characters (element types
///    of the accessibility tree without their `XCUIElementType` prefix: `Button:Buy now`);
/// 3. else its parent's id, `/`, and its class, with `[n]` for the n-th sibling of that class
///    (n ≥ 2): `UIWindow/UILayoutContainerView/UIView[2]`. The parent's id is itself stable, so
///    the path starts at the nearest view named by 1 or 2, or at the window.
///
/// A path longer than `maxPathBytes` starts over from a digest of its parent's id:
/// `…1f9a0c7e5b3d2a64/UIView`. Without that, a view `d` levels down had an id of `d` classes, and
/// a deep dump (a 20,000-level page source) cost time and memory by the square of its depth
/// (issue 34, item 3). The digest is FNV-1a of the parent's id, the same in every process, so
/// the id is as stable as the path it stands for.
///
/// Taken ids get `-2`, `-3`, … in document order (`IdAllocator`), which a dump always lists
/// the same way: the same dump always gives the same ids. A view controller is named by its
/// class, a recognizer by its view's id, `.` and its class. Addresses stay in `address`.
///
/// Every reference to a renamed object (targets, `presentedBy`, `requireToFail`, delegates,
/// overrides) is rewritten with it.
enum ImportIdentity {
    static let labelLength = 40
    /// Longer parent paths are replaced by their digest (far deeper than any real screen's).
    static let maxPathBytes = 512

    static func assignStableIds(_ scene: inout Scene) {
        let n = scene.views.count
        // Which same-class sibling each view is (1, 2, …), counted per parent over its subviews
        // (the windows for the roots): a short list per parent, since siblings share few classes.
        var rank = [Int](repeating: 1, count: n)
        var shortClass = [String](repeating: "", count: n)
        for v in 0..<n { shortClass[v] = shortName(scene.views[v].className) }
        func rankSiblings(_ siblings: [Int]) {
            guard siblings.count > 1 else { return }
            var seen: [(className: String, count: Int)] = []
            for child in siblings {
                if let i = seen.firstIndex(where: { $0.className == shortClass[child] }) {
                    seen[i].count += 1
                    rank[child] = seen[i].count
                } else {
                    seen.append((shortClass[child], 1))
                }
            }
        }
        rankSiblings(scene.windows)
        for v in 0..<n { rankSiblings(scene.views[v].subviews) }

        // Renamed references only matter when the scene has any (imports with add-ons).
        let hasReferences = scene.app?.focusedResponder != nil || scene.views.contains { view in
            view.hasRareProperties && (view.targets != nil || view.gestureRecognizers != nil
                                       || view.viewController != nil || view.overrides != nil)
        }
        var ids = IdAllocator()
        var renamed: [String: String] = [:]
        for v in 0..<n {
            let view = scene.views[v]
            var candidate: String
            if let identifier = clean(view.accessibilityIdentifier, upTo: .max) {
                candidate = identifier
            } else if let label = clean(view.label, upTo: labelLength) {
                candidate = shortClass[v] + ":" + label
            } else {
                candidate = ""
                if let parent = view.superview {
                    let parentId = scene.views[parent].id
                    if parentId.utf8.count > maxPathBytes {
                        candidate = "…" + digest(parentId) + "/"
                    } else {
                        candidate.reserveCapacity(parentId.utf8.count + shortClass[v].utf8.count + 6)
                        candidate += parentId
                        candidate += "/"
                    }
                }
                candidate += shortClass[v]
                if rank[v] > 1 { candidate += "[\(rank[v])]" }
            }
            let id = ids.allocate(candidate, scrollView: view.base.isScrollView)
            if hasReferences { renamed[view.id] = id }
            scene.views[v].id = id
        }
        guard hasReferences else { return }
        // Controllers and recognizers, once every view has its final id.
        for v in scene.views.indices where scene.views[v].hasRareProperties {
            if var controller = scene.views[v].viewController {
                let id = ids.allocate(controller.className, scrollView: false)
                renamed[controller.id] = id
                controller.id = id
                scene.views[v].viewController = controller
            }
            if var recognizers = scene.views[v].gestureRecognizers {
                for r in recognizers.indices {
                    let id = ids.allocate(scene.views[v].id + "." + recognizers[r].className, scrollView: false)
                    renamed[recognizers[r].id] = id
                    recognizers[r].id = id
                }
                scene.views[v].gestureRecognizers = recognizers
            }
        }
        rewriteReferences(&scene, renamed)
    }

    /// FNV-1a (64 bits) of `text`, as 16 hexadecimal digits.
    static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.utf8.count) + hex
    }

    /// A class as an id shows it: accessibility element types without their `XCUIElementType`
    /// prefix (`Button:Buy`), which every element of a page source shares.
    private static func shortName(_ className: String) -> String {
        let prefix = "XCUIElementType".utf8
        let name = className.utf8
        guard name.count > prefix.count, name.starts(with: prefix) else { return className }
        return String(decoding: name.dropFirst(prefix.count), as: UTF8.self)
    }

    /// Text fit for an id, at most `limit` characters: control characters as spaces, trimmed;
    /// nil when nothing is left. Printable ASCII, what most identifiers and labels are, is
    /// taken as it is without looking at its characters.
    private static func clean(_ text: String?, upTo limit: Int) -> String? {
        guard let text, !text.isEmpty else { return nil }
        let utf8 = text.utf8
        if utf8.count <= limit, utf8.first != 0x20, utf8.last != 0x20,
           utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            return text
        }
        let scalars = text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) }
        let s = String(scalars).trimmingSpaces
        return s.isEmpty ? nil : String(s.prefix(limit))
    }

    /// Every id a scene refers to, renamed where `renamed` has it.
    static func rewriteReferences(_ scene: inout Scene, _ renamed: [String: String]) {
        func name(_ id: String) -> String { renamed[id] ?? id }
        func names(_ list: RecognizerDelegateSpec.RecognizerList?) -> RecognizerDelegateSpec.RecognizerList? {
            guard case .ids(let ids)? = list else { return list }
            return .ids(ids.map(name))
        }
        func responder(_ overrides: ResponderOverrides?) -> ResponderOverrides? {
            guard var o = overrides, let next = o.nextResponder else { return overrides }
            o.nextResponder = name(next)
            return o
        }
        if var app = scene.app {
            app.focusedResponder = app.focusedResponder.map(name)
            scene.app = app
        }
        for v in scene.views.indices where scene.views[v].hasRareProperties {
            var view = scene.views[v]
            guard view.targets != nil || view.overrides != nil || view.viewController != nil
                    || view.gestureRecognizers != nil else { continue }
            if var targets = view.targets {
                for t in targets.indices { targets[t].target = targets[t].target.map(name) }
                view.targets = targets
            }
            if var overrides = view.overrides {
                overrides.nextResponder = overrides.nextResponder.map(name)
                if case .redirect(let to)? = overrides.hitTest { overrides.hitTest = .redirect(name(to)) }
                if var shouldBegin = overrides.gestureRecognizerShouldBegin {
                    shouldBegin.byRecognizer = Dictionary(uniqueKeysWithValues: shouldBegin.byRecognizer.map { (name($0.key), $0.value) })
                    overrides.gestureRecognizerShouldBegin = shouldBegin
                }
                view.overrides = overrides
            }
            if var controller = view.viewController {
                controller.presentedBy = controller.presentedBy.map(name)
                controller.overrides = responder(controller.overrides)
                view.viewController = controller
            }
            if var recognizers = view.gestureRecognizers {
                for r in recognizers.indices {
                    recognizers[r].requireToFail = recognizers[r].requireToFail?.map(name)
                    for t in recognizers[r].targets.indices {
                        recognizers[r].targets[t].target = recognizers[r].targets[t].target.map(name)
                    }
                    if var delegate = recognizers[r].delegate {
                        delegate.id = name(delegate.id)
                        delegate.shouldRecognizeSimultaneouslyWith = names(delegate.shouldRecognizeSimultaneouslyWith)
                        delegate.shouldRequireFailureOf = names(delegate.shouldRequireFailureOf)
                        delegate.shouldBeRequiredToFailBy = names(delegate.shouldBeRequiredToFailBy)
                        recognizers[r].delegate = delegate
                    }
                }
                view.gestureRecognizers = recognizers
            }
            scene.views[v] = view
        }
    }
}
