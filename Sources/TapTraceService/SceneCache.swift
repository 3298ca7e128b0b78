import Foundation
import TapTraceCore
import TapTraceFormats

/// A scene as the caches keep it: its index, and once it is used a second time, the JSON of its
/// objects (`SceneRefsJSON`), which results dispatched against it copy instead of escaping. A
/// scene used once (stateless dispatch of a layout never sent again) never pays for them.
struct CachedScene: Sendable {
    let index: SceneIndex
    let refs: SceneRefsJSON?
}

/// Indexed scenes, least recently used evicted first; bounded by entry count, by total views,
/// and by the bytes their indexes take (`SceneMemory`), so a few huge scenes cannot hold the
/// memory of thousands of small ones, nor many large ones more than the budget (issue 34: 40
/// large scenes held 2.66 GiB when the caches counted views only).
///
/// Two caches use it (brief: "no work per request that could be done once per scene"):
/// - stored versions by (scene id, version): versions are immutable, so an entry never goes
///   stale, and stored dispatch, hit-test and explain decode and index a version once;
/// - stateless dispatch by the exact bytes of the request's `scene` member (`SceneBytes`): a
///   harness that sends the same layout with different touches validates it once.
///
/// The byte budget is a bound: a scene whose index alone exceeds it is not kept (each request
/// for it decodes it again), and the refs written at a scene's second use count too.
final class SceneCache<Key: Hashable>: @unchecked Sendable {
    private struct Node {
        var key: Key
        var index: SceneIndex
        var refs: SceneRefsJSON?
        var weight: Int
        var bytes: Int
        var newer: Int?
        var older: Int?
    }

    let capacity: Int
    let maxViews: Int
    /// The most bytes the cached indexes (and their refs) may take, as `SceneMemory` counts.
    let maxBytes: Int
    private let lock = NSLock()
    private var slots: [Int: Node] = [:]
    private var slotOfKey: [Key: Int] = [:]
    private var nextSlot = 0
    private var newest: Int?
    private var oldest: Int?
    private var totalWeight = 0
    private var totalBytes = 0
    /// Gets and puts so far: the idle memory release looks for a pause in them (`IdleMemoryRelease`).
    private var uses = 0
    private(set) var hits = 0
    private(set) var misses = 0
    /// Keys dropped to stay within the bounds since the last `takeEvicted` (the stateless
    /// cache's prefix index lets go of their bytes then); kept only when `recordsEvictions`.
    private var evicted: [Key] = []
    private let recordsEvictions: Bool

    init(capacity: Int = 256, maxViews: Int = .max, maxBytes: Int = .max, recordsEvictions: Bool = false) {
        self.capacity = max(1, capacity)
        self.maxViews = max(1, maxViews)
        self.maxBytes = max(1, maxBytes)
        self.recordsEvictions = recordsEvictions
    }

    var count: Int { lock.withLock { slotOfKey.count } }
    /// What the cached entries take, as `SceneMemory` estimates it.
    var bytes: Int { lock.withLock { totalBytes } }
    var useCount: Int { lock.withLock { uses } }

    /// Whether `key` is cached (neither a use nor a hit).
    func contains(_ key: Key) -> Bool { lock.withLock { slotOfKey[key] != nil } }

    func get(_ key: Key) -> CachedScene? {
        lock.withLock {
            uses &+= 1
            guard let slot = slotOfKey[key] else { misses += 1; return nil }
            hits += 1
            // Already the most recently used (a client dispatching against one scene again and
            // again): nothing to move, and moving it cost four more dictionary look-ups.
            if slot != newest {
                unlink(slot)
                linkNewest(slot)
            }
            if slots[slot]!.refs == nil {
                let refs = SceneRefsJSON(slots[slot]!.index)
                let added = SceneMemory.bytes(of: refs, for: slots[slot]!.index)
                slots[slot]!.refs = refs
                slots[slot]!.bytes += added
                totalBytes += added
                let cached = CachedScene(index: slots[slot]!.index, refs: refs)
                if slots[slot]!.bytes > maxBytes {
                    // With its refs this scene alone is over the budget: it is answered this
                    // time and not kept.
                    remove(slot)
                } else {
                    evictToBounds(keeping: slot)
                }
                return cached
            }
            return CachedScene(index: slots[slot]!.index, refs: slots[slot]!.refs)
        }
    }

    /// Caches `index` under `key`; `keyBytes` is what the key itself holds (a stateless scene's
    /// bytes), counted with it.
    func put(_ key: Key, _ index: SceneIndex, keyBytes: Int = 0) {
        let bytes = SceneMemory.bytes(of: index) + keyBytes
        lock.withLock {
            uses &+= 1
            if let slot = slotOfKey[key] { remove(slot, evicting: false) }
            // Larger than the whole budget: kept, it would evict everything else and still
            // exceed the bound.
            guard bytes <= maxBytes else { return }
            let slot = nextSlot
            nextSlot += 1
            let weight = index.viewCount + 1
            slots[slot] = Node(key: key, index: index, refs: nil, weight: weight, bytes: bytes)
            slotOfKey[key] = slot
            totalWeight += weight
            totalBytes += bytes
            linkNewest(slot)
            evictToBounds(keeping: slot)
        }
    }

    /// Drops the entries whose keys match (every version of a deleted scene).
    func removeAll(where matches: (Key) -> Bool) {
        lock.withLock {
            for (key, slot) in slotOfKey where matches(key) { remove(slot, evicting: false) }
        }
    }

    /// The keys evicted since the last call.
    func takeEvicted() -> [Key] {
        lock.withLock {
            defer { evicted.removeAll() }
            return evicted
        }
    }

    /// Evicts the least recently used entries down to the bounds, but never `kept` (the entry
    /// just added or used; on its own it is within `maxBytes`).
    private func evictToBounds(keeping kept: Int) {
        while slotOfKey.count > capacity || totalWeight > maxViews || totalBytes > maxBytes,
              let victim = oldest, victim != kept {
            remove(victim)
        }
    }

    private func remove(_ slot: Int, evicting: Bool = true) {
        unlink(slot)
        let node = slots.removeValue(forKey: slot)!
        slotOfKey[node.key] = nil
        totalWeight -= node.weight
        totalBytes -= node.bytes
        if evicting, recordsEvictions { evicted.append(node.key) }
    }

    private func unlink(_ slot: Int) {
        let node = slots[slot]!
        if let newer = node.newer { slots[newer]!.older = node.older } else { newest = node.older }
        if let older = node.older { slots[older]!.newer = node.newer } else { oldest = node.newer }
        slots[slot]!.newer = nil
        slots[slot]!.older = nil
    }

    private func linkNewest(_ slot: Int) {
        slots[slot]!.older = newest
        slots[slot]!.newer = nil
        if let newest { slots[newest]!.newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
    }
}

/// What an indexed scene takes in memory, estimated from its parts as it is cached: every
/// array of the index by its element size and count, every heap-allocated string and array of
/// its views, the id directory, the recognizers, with glibc's allocation overhead. Nothing is
/// measured at run time (malloc's statistics are process-wide); `SceneMemoryTests` holds the
/// estimate to what malloc reports for whole indexes. One pass over the views: about 1 % of
/// what decoding and indexing the scene cost.
enum SceneMemory {
    /// glibc's chunk for a request of `size` bytes: 8 bytes of header, 16-byte alignment,
    /// 32 bytes at least.
    static func chunk(_ size: Int) -> Int { max(32, (size + 8 + 15) & ~15) }

    /// A Swift array of `count` elements of `stride` bytes (32 bytes of header); empty arrays
    /// share one static buffer.
    static func array(_ count: Int, stride: Int) -> Int { count == 0 ? 0 : chunk(32 + count * stride) }

    /// A native string: up to 15 UTF-8 bytes are stored inline, longer ones in a buffer of
    /// their own (32 bytes of header and a terminating zero).
    static func string(_ text: String) -> Int { stringBytes(text.utf8.count) }

    /// A native string of `count` UTF-8 bytes.
    @inline(__always)
    static func stringBytes(_ count: Int) -> Int { count <= 15 ? 0 : chunk(32 + count + 1) }

    static func string(_ text: String?) -> Int { text.map { string($0) } ?? 0 }

    /// The index of a scene of `n` views: the scene's views (with their heap parts), the
    /// index's per-view arrays, the object numbering, the id directory and the recognizers.
    /// Arrays count by their capacity where it can be read (a decoded scene's arrays grew by
    /// doubling), by their count where the index reserved exactly that.
    static func bytes(of index: SceneIndex) -> Int {
        let n = index.viewCount
        var total = 16 * chunk(48)   // the index, its objects and small tables
        total += array(index.scene.views.capacity, stride: MemoryLayout<ViewSpec>.stride)
        total += array(index.geometry.capacity, stride: MemoryLayout<ViewGeometry>.stride)
        total += array(index.alpha.capacity, stride: MemoryLayout<Float>.stride)
        total += array(index.windowOf.capacity, stride: MemoryLayout<Int>.stride)
        total += array(index.refs.capacity, stride: MemoryLayout<ObjectRef>.stride)
        total += array(index.bases.capacity, stride: MemoryLayout<ViewBase>.stride)
        // Internal per-view arrays, reserved at `n`: flags, three overrides, childStart and
        // children.
        var perView = MemoryLayout<UInt16>.stride + 2 * MemoryLayout<Int>.stride
        perView += MemoryLayout<HitTestOverride?>.stride + MemoryLayout<PointInsideOverride?>.stride
        perView += MemoryLayout<TouchOverrides?>.stride
        total += n * perView
        // The object numbering: the views' refs (the index's array, shared) and the others.
        total += array(index.objects.count - n, stride: MemoryLayout<ObjectRef>.stride)
        // The id directory: ids and objects reserved for the views and a few more, doubled when
        // recognizers and controllers pass that; slots a power of two at least twice the ids.
        let ids = index.directory.count, reserved = n + 8
        let idCapacity = ids <= reserved ? reserved : max(ids, 2 * reserved)
        total += array(idCapacity, stride: MemoryLayout<String>.stride + MemoryLayout<SceneObject>.stride)
        var slots = 16
        while slots < 2 * max(ids, reserved) { slots *= 2 }
        total += array(slots, stride: MemoryLayout<Int32>.stride)
        index.scene.views.withUnsafeBufferPointer { views in
            for v in views.indices {
                // One copy of the view, every property read from it: each access to a property
                // of `views[v]` across the module boundary copied the 264-byte ViewSpec.
                let view = views[v]
                // Strings are shared (by reference count) between the views, the refs and the
                // directory: counted once, here.
                total += stringBytes(view.id.utf8.count) + stringBytes(view.className.utf8.count)
                total += array(view.subviews.capacity, stride: MemoryLayout<Int>.stride)
                if view.hasRareProperties { total += rareBytes(view) }
            }
        }
        // Recognizers: their infos (grown by appending), the list of each view that has some,
        // the index by id (a dictionary at 3/4 load at most) and the directory's extra ids
        // (counted above).
        let recognizers = index.recognizers.count
        total += array(index.recognizers.capacity, stride: MemoryLayout<RecognizerInfo>.stride)
        total += recognizers * (chunk(32 + MemoryLayout<Int>.stride) + 2 * (2 * MemoryLayout<Int>.stride))
        total += recognizers * 2 * (MemoryLayout<String>.stride + MemoryLayout<Int>.stride)
        return total
    }

    /// A view's rarely set properties (one box for all of them, the properties inline) and
    /// what they hold on the heap.
    private static func rareBytes(_ view: ViewSpec) -> Int {
        var box = 16   // the object's header
        box += 3 * MemoryLayout<String?>.stride + 3 * MemoryLayout<[Int]?>.stride
        box += MemoryLayout<ScrollViewSpec?>.stride + MemoryLayout<ViewOverrides?>.stride
        box += MemoryLayout<ViewControllerSpec?>.stride
        var bytes = chunk(box)
        bytes += string(view.label) + string(view.accessibilityIdentifier) + string(view.address)
        if let targets = view.targets {
            bytes += array(targets.count, stride: MemoryLayout<ControlTarget>.stride)
            for target in targets {
                bytes += string(target.target) + string(target.action)
                bytes += array(target.events.count, stride: MemoryLayout<ControlEvent>.stride)
            }
        }
        if let implements = view.implements { bytes += strings(implements) }
        if let recognizers = view.gestureRecognizers {
            bytes += array(recognizers.count, stride: MemoryLayout<RecognizerSpec>.stride)
            for recognizer in recognizers {
                bytes += string(recognizer.id) + string(recognizer.className)
                bytes += array(recognizer.targets.count, stride: MemoryLayout<RecognizerTarget>.stride)
                for target in recognizer.targets { bytes += string(target.target) + string(target.action) }
                if let required = recognizer.requireToFail { bytes += strings(required) }
            }
        }
        if let controller = view.viewController {
            bytes += string(controller.id) + string(controller.className)
            if let implements = controller.implements { bytes += strings(implements) }
        }
        return bytes
    }

    private static func strings(_ list: [String]) -> Int {
        array(list.count, stride: MemoryLayout<String>.stride) + list.reduce(0) { $0 + string($1) }
    }

    /// The refs a scene's results copy (`SceneRefsJSON`): each object's `{"id":…,"class":…}`
    /// and its offset.
    static func bytes(of refs: SceneRefsJSON, for index: SceneIndex) -> Int {
        let objects = index.objects
        var json = 0
        for k in 0..<objects.count {
            let ref = objects.ref(k)
            json += 20 + ref.id.utf8.count + ref.className.utf8.count
        }
        return chunk(json) + chunk(8 * (objects.count + 1)) + chunk(64)
    }
}

/// Key of a stored version in the cache.
struct StoredSceneKey: Hashable {
    var sceneID: String
    var version: Int
}

/// Key of a stateless request's scene: its bytes exactly as sent. Hashed once (SipHash over
/// the buffer), compared with memcmp on lookup, so a hit can never be a different scene.
struct SceneBytes: Hashable {
    let bytes: [UInt8]
    private let hash: Int

    init<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        self.bytes = Array(bytes)
        var hasher = Hasher()
        self.bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        hash = hasher.finalize()
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    static func == (a: SceneBytes, b: SceneBytes) -> Bool {
        guard a.hash == b.hash, a.bytes.count == b.bytes.count else { return false }
        return a.bytes.withUnsafeBytes { x in
            b.bytes.withUnsafeBytes { y in memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
    }
}

/// The scene caches' byte budgets and when idle memory goes back to the system: settings of
/// `taptrace serve` (`--scene-cache-bytes`, `--stateless-cache-bytes`, `--idle-memory-release`).
///
/// The defaults fit a 1 GiB container: 384 MiB of cached indexes at most, the rest for the
/// requests in flight (decoding a 100,001-view scene takes about three times its index while
/// it runs) and SQLite. A 100,001-view scene's index (about 60 MiB) stays cached with them.
public struct CacheSettings: Sendable, Equatable {
    public static let defaultSceneCacheBytes = 256 << 20
    public static let defaultStatelessCacheBytes = 128 << 20

    /// Indexed stored scene versions (stored dispatch, hit-test, explain, why, audit).
    public var sceneCacheBytes: Int
    /// Indexed scenes of stateless requests, with the bytes they were sent as.
    public var statelessCacheBytes: Int
    /// After how long without requests freed memory is given back (`IdleMemoryRelease`);
    /// nil: never.
    public var idleMemoryRelease: Duration?

    public init(sceneCacheBytes: Int = defaultSceneCacheBytes, statelessCacheBytes: Int = defaultStatelessCacheBytes,
                idleMemoryRelease: Duration? = IdleMemoryRelease.defaultInterval) {
        self.sceneCacheBytes = sceneCacheBytes
        self.statelessCacheBytes = statelessCacheBytes
        self.idleMemoryRelease = idleMemoryRelease
    }
}
