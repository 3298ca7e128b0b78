/// An object a trace entry names (a receiver, an argument, a result) by number: an object of
/// the scene (`SceneObjects`: views by view index, then recognizers, view controllers, the
/// application, its delegate, the window scene, delegate objects), one the recorder keeps a
/// ref of itself (numbers below -1: `TraceRecorder`'s objects named by ref), or none.
struct TraceObject: Sendable, Equatable {
    let raw: Int32

    static let none = TraceObject(raw: -1)
    init(raw: Int32) { self.raw = raw }
    init(view v: Int) { raw = Int32(v) }
}

/// The objects of a scene that a trace can name, numbered, with each one's
/// `{"id":…,"class":…}` written once per scene: a trace names the same views and recognizers
/// over and over, and escaping their two strings for each mention was a fifth of encoding a
/// result. Immutable once built and shared by every run against the scene.
final class SceneObjects: Sendable {
    /// Views first, by view index; then `others` in order.
    let viewRefs: [ObjectRef]
    let otherRefs: [ObjectRef]
    /// Object k's ref as compact JSON.
    let json: JSONFragments

    static let empty = SceneObjects(views: [], others: [])

    init(views: [ObjectRef], others: [ObjectRef]) {
        viewRefs = views
        otherRefs = others
        json = JSONFragments(count: views.count + others.count) { k, e in
            ResultJSON.ref(k < views.count ? views[k] : others[k - views.count], &e)
        }
    }

    func ref(_ k: Int) -> ObjectRef { k < viewRefs.count ? viewRefs[k] : otherRefs[k - viewRefs.count] }
}

extension SceneIndex {
    /// The numbers of the objects that are not views (`SceneObjects`), built with the index.
    struct ObjectNumbers: Sendable {
        var viewControllers: [Int: Int32] = [:]
        var application: Int32 = 0
        var appDelegate: Int32?
        var windowScene: Int32 = 0
        /// Recognizer delegates that are not otherwise in the scene, by id.
        var delegates: [String: Int32] = [:]
    }

    /// Numbers every object of the scene a trace can name: views, then recognizers (by index),
    /// view controllers, the application, its delegate, the window scene, delegate objects.
    static func numberObjects(views: [ObjectRef], scene: Scene, recognizers: [RecognizerInfo], directory: ObjectDirectory,
                              application: ObjectRef, appDelegate: ObjectRef?) -> (SceneObjects, ObjectNumbers) {
        var others = recognizers.map(\.ref)
        var numbers = ObjectNumbers()
        func add(_ ref: ObjectRef) -> Int32 {
            others.append(ref)
            return Int32(views.count + others.count - 1)
        }
        // Through a buffer pointer: reading fields in place instead of copying each ViewSpec.
        scene.views.withUnsafeBufferPointer { views in
            for v in views.indices {
                if let vc = views[v].viewController { numbers.viewControllers[v] = add(ObjectRef(id: vc.id, className: vc.className)) }
            }
            numbers.application = add(application)
            numbers.appDelegate = appDelegate.map(add)
            numbers.windowScene = add(SceneIndex.windowSceneRef)
            for v in views.indices {
                guard let grs = views[v].gestureRecognizers else { continue }
                for (r, gr) in grs.enumerated() {
                    guard let d = gr.delegate, numbers.delegates[d.id] == nil,
                          directory[d.id] == .delegateObject(view: v, recognizer: r) else { continue }
                    numbers.delegates[d.id] = add(ObjectRef(id: d.id, className: d.className ?? d.id))
                }
            }
        }
        return (SceneObjects(views: views, others: others), numbers)
    }

    func object(recognizer r: Int) -> TraceObject { TraceObject(raw: Int32(viewCount + r)) }

    func object(_ r: Responder) -> TraceObject {
        switch r {
        case .view(let v): return TraceObject(view: v)
        case .viewController(let v): return TraceObject(raw: objectNumbers.viewControllers[v]!)
        case .windowScene: return TraceObject(raw: objectNumbers.windowScene)
        case .application: return TraceObject(raw: objectNumbers.application)
        case .appDelegate: return TraceObject(raw: objectNumbers.appDelegate!)
        }
    }

    /// Any object of the scene by id (targets, delegates); nil for an id the scene does not have.
    func object(id: String) -> TraceObject? {
        switch directory[id] {
        case .view(let v)?: return TraceObject(view: v)
        case .viewController(let v)?: return object(.viewController(ofView: v))
        case .application?: return object(.application)
        case .appDelegate?: return object(.appDelegate)
        case .recognizer?, .builtInRecognizer?: return recognizer(withId: id).map { object(recognizer: $0) }
        case .delegateObject?: return objectNumbers.delegates[id].map { TraceObject(raw: $0) }
        case nil: return nil
        }
    }
}
