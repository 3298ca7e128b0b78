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

/// Indexed scenes, least recently used evicted first; bounded by entry count and by total
/// views, so a few huge scenes cannot hold the memory of thousands of small ones.
///
/// Two caches use it (brief: "no work per request that could be done once per scene"):
/// - stored versions by (scene id, version): versions are immutable, so an entry never goes
///   stale, and stored dispatch, hit-test and explain decode and index a version once;
/// - stateless dispatch by the exact bytes of the request's `scene` member (`SceneBytes`): a
///   harness that sends the same layout with different touches validates it once.
final class SceneCache<Key: Hashable>: @unchecked Sendable {
    private struct Node {
        var key: Key
        var index: SceneIndex
        var refs: SceneRefsJSON?
        var weight: Int
        var newer: Int?
        var older: Int?
    }

    let capacity: Int
    let maxViews: Int
    private let lock = NSLock()
    private var slots: [Int: Node] = [:]
    private var slotOfKey: [Key: Int] = [:]
    private var nextSlot = 0
    private var newest: Int?
    private var oldest: Int?
    private var totalWeight = 0
    private(set) var hits = 0
    private(set) var misses = 0

    init(capacity: Int = 256, maxViews: Int = 2_000_000) {
        self.capacity = max(1, capacity)
        self.maxViews = max(1, maxViews)
    }

    var count: Int { lock.withLock { slotOfKey.count } }

    func get(_ key: Key) -> CachedScene? {
        lock.withLock {
            guard let slot = slotOfKey[key] else { misses += 1; return nil }
            hits += 1
            // Already the most recently used (a client dispatching against one scene again and
            // again): nothing to move, and moving it cost four more dictionary look-ups.
            if slot != newest {
                unlink(slot)
                linkNewest(slot)
            }
            if slots[slot]!.refs == nil { slots[slot]!.refs = SceneRefsJSON(slots[slot]!.index) }
            return CachedScene(index: slots[slot]!.index, refs: slots[slot]!.refs)
        }
    }

    func put(_ key: Key, _ index: SceneIndex) {
        lock.withLock {
            if let slot = slotOfKey[key] {
                unlink(slot)
                totalWeight -= slots[slot]!.weight
                slots[slot] = nil
                slotOfKey[key] = nil
            }
            let slot = nextSlot
            nextSlot += 1
            let weight = index.viewCount + 1
            slots[slot] = Node(key: key, index: index, refs: nil, weight: weight)
            slotOfKey[key] = slot
            totalWeight += weight
            linkNewest(slot)
            // Evict down to the bounds, but always keep the entry just added.
            while slotOfKey.count > capacity || totalWeight > maxViews, let victim = oldest, victim != slot {
                unlink(victim)
                let node = slots.removeValue(forKey: victim)!
                slotOfKey[node.key] = nil
                totalWeight -= node.weight
            }
        }
    }

    /// Drops the entries whose keys match (every version of a deleted scene).
    func removeAll(where matches: (Key) -> Bool) {
        lock.withLock {
            for (key, slot) in slotOfKey where matches(key) {
                unlink(slot)
                totalWeight -= slots[slot]!.weight
                slots[slot] = nil
                slotOfKey[key] = nil
            }
        }
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
