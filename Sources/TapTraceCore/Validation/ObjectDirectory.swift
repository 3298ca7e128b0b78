/// Every object of a scene that has an id, and what it is. Ids are unique across all kinds
/// (contract §1): views, windows, view controllers, recognizers (built-in ones included), the
/// application and its delegate.
public enum SceneObject: Sendable, Hashable {
    case view(Int)
    case viewController(ofView: Int)
    case recognizer(view: Int, index: Int)
    /// SV1's built-in recognizers of a scroll view: `<id>.delay`, `<id>.pan`.
    case builtInRecognizer(view: Int, RecognizerBase)
    case application
    case appDelegate
    /// A recognizer delegate that is not otherwise in the scene (declared with a class).
    case delegateObject(view: Int, recognizer: Int)

    public var isRecognizer: Bool {
        switch self {
        case .recognizer, .builtInRecognizer: return true
        default: return false
        }
    }
    public var isResponder: Bool {
        switch self {
        case .view, .viewController, .application, .appDelegate: return true
        default: return false
        }
    }
}

public struct ObjectDirectory: Sendable {
    public private(set) var objects: [String: SceneObject] = [:]
    public static let defaultApplicationId = "UIApplication"

    public subscript(id: String) -> SceneObject? { objects[id] }

    /// Builds the directory; duplicates are reported through `duplicate(id, first, second)` and
    /// the first owner is kept.
    public init(scene: Scene, duplicate: (String, SceneObject, SceneObject) -> Void = { _, _, _ in }) {
        objects.reserveCapacity(scene.views.count + 8)
        func add(_ id: String, _ object: SceneObject) {
            guard !id.isEmpty else { return }
            if let first = objects[id] {
                duplicate(id, first, object)
            } else {
                objects[id] = object
            }
        }
        add(scene.app?.id ?? ObjectDirectory.defaultApplicationId, .application)
        if let d = scene.app?.delegate { add(d.id, .appDelegate) }
        // Through a buffer pointer: reading fields in place instead of copying each ViewSpec.
        scene.views.withUnsafeBufferPointer { views in
            for v in views.indices {
                add(views[v].id, .view(v))
                if let vc = views[v].viewController { add(vc.id, .viewController(ofView: v)) }
                if views[v].base.isScrollView {
                    add(views[v].id + ".delay", .builtInRecognizer(view: v, .scrollViewDelay))
                    add(views[v].id + ".pan", .builtInRecognizer(view: v, .scrollViewPan))
                }
                if let grs = views[v].gestureRecognizers {
                    for (r, gr) in grs.enumerated() { add(gr.id, .recognizer(view: v, index: r)) }
                }
            }
            // Delegate objects declared only inside a recognizer: known once their id is free. The
            // same object may serve several recognizers.
            for v in views.indices {
                guard let grs = views[v].gestureRecognizers else { continue }
                for (r, gr) in grs.enumerated() {
                    if let d = gr.delegate, d.className != nil, !d.id.isEmpty, objects[d.id] == nil {
                        objects[d.id] = .delegateObject(view: v, recognizer: r)
                    }
                }
            }
        }
    }
}
