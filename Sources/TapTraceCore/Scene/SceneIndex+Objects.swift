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
