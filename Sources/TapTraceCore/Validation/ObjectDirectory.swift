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

/// Every id of a scene and the object it names, built once per scene (validation and indexing
/// share it) and looked up for every reference. An open-addressing table keyed by the ids'
/// bytes with a cheap hash: Swift's `Dictionary` hashes a `String` with SipHash, and building
/// it was a fifth of validating a view.
public struct ObjectDirectory: Sendable {
    public static let defaultApplicationId = "UIApplication"

    /// The ids, and what each names, in the order they were added.
    private var ids: [String] = []
    private var named: [SceneObject] = []
    /// Open addressing with linear probing: an index into `ids`, or -1 for an empty slot. At
    /// most half full.
    private var slots: [Int32] = []

    public var count: Int { ids.count }

    public subscript(id: String) -> SceneObject? {
        guard let k = find(id, hash: Self.hash(id)).found else { return nil }
        return named[k]
    }

    /// Where `id` is (`found`), or the empty slot where it would go.
    private func find(_ id: String, hash: Int) -> (found: Int?, slot: Int) {
        guard !slots.isEmpty else { return (nil, -1) }
        let mask = slots.count - 1
        var slot = hash & mask
        while true {
            let k = slots[slot]
            if k < 0 { return (nil, slot) }
            if ids[Int(k)] == id { return (Int(k), slot) }
            slot = (slot + 1) & mask
        }
    }

    /// Adds `id` unless it is there; returns what it already named.
    private mutating func add(_ id: String, _ object: SceneObject) -> SceneObject? {
        if (ids.count + 1) * 2 > slots.count { grow(to: max(16, slots.count * 2)) }
        let hash = Self.hash(id)
        let (found, slot) = find(id, hash: hash)
        if let found { return named[found] }
        slots[slot] = Int32(ids.count)
        ids.append(id)
        named.append(object)
        return nil
    }

    private mutating func grow(to capacity: Int) {
        slots = [Int32](repeating: -1, count: capacity)
        let mask = capacity - 1
        for (k, id) in ids.enumerated() {
            var slot = Self.hash(id) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(k)
        }
    }

    /// FNV-1a over the id's UTF-8: ids are short, and a lookup must cost little.
    private static func hash(_ id: String) -> Int {
        var id = id   // `withUTF8` lends small strings' bytes from the stack, large ones' in place
        return id.withUTF8 { bytes in
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
            return Int(truncatingIfNeeded: h ^ (h >> 29))
        }
    }

    /// Builds the directory; duplicates are reported through `duplicate(id, first, second)` and
    /// the first owner is kept.
    public init(scene: Scene, duplicate: (String, SceneObject, SceneObject) -> Void = { _, _, _ in }) {
        ids.reserveCapacity(scene.views.count + 8)
        named.reserveCapacity(scene.views.count + 8)
        var capacity = 16
        while capacity < (scene.views.count + 8) * 2 { capacity *= 2 }
        slots = [Int32](repeating: -1, count: capacity)
        func add(_ id: String, _ object: SceneObject) {
            guard !id.isEmpty else { return }
            if let first = self.add(id, object) { duplicate(id, first, object) }
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
                    if let d = gr.delegate, d.className != nil, !d.id.isEmpty {
                        _ = self.add(d.id, .delegateObject(view: v, recognizer: r))
                    }
                }
            }
        }
    }
}
