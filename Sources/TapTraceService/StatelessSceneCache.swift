import Foundation
import TapTraceCore

/// The indexed scenes of stateless dispatch, keyed by the exact bytes of the request's `scene`
/// member (`SceneBytes`), with a second way in that needs no parse at all: given the request
/// bytes and where the scene value starts, `match` finds a cached scene whose bytes are there,
/// byte for byte (memcmp), so the caller learns where the value ends without reading it.
///
/// Candidates are found by a fingerprint of the value's first `prefixLength` bytes; a bucket
/// holds the few most recent scenes sharing that prefix. Scenes shorter than the prefix are
/// not indexed this way: they are cheap to parse anyway. The prefix index never decides a hit
/// on its own: a candidate is a hit only if its whole byte string equals the request's bytes
/// and the LRU cache still holds it (entries it evicted are dropped from the buckets lazily).
final class StatelessSceneCache: @unchecked Sendable {
    static let prefixLength = 256
    /// Scenes per prefix bucket tried by `match`: a harness that varies one layout late in its
    /// bytes gets the most recent few on the fast path and the rest through the full parse.
    static let bucketSize = 8

    let scenes: SceneCache<SceneBytes>
    private let lock = NSLock()
    private var buckets: [Int: [(key: SceneBytes, serial: Int)]] = [:]
    /// Insertions into the prefix index, oldest first, so that it never holds more scenes
    /// than the LRU cache can (their bytes stay alive while indexed), whatever the LRU
    /// evicted. An entry put again gets a new serial; the old insertion then expires alone.
    private var insertions: [(fingerprint: Int, serial: Int)] = []
    private var oldestInsertion = 0
    private var nextSerial = 0

    init(capacity: Int, maxViews: Int = .max, maxBytes: Int = .max) {
        scenes = SceneCache(capacity: capacity, maxViews: maxViews, maxBytes: maxBytes, recordsEvictions: true)
    }

    /// Scenes in the prefix index now (for tests).
    var indexedCount: Int { lock.withLock { buckets.values.reduce(0) { $0 + $1.count } } }

    var count: Int { scenes.count }

    func get(_ key: SceneBytes) -> CachedScene? { scenes.get(key) }

    /// Caches `index` under the scene's bytes, which count toward the byte budget: the cache
    /// keeps them (the key, and the prefix index) as long as the index.
    func put(_ key: SceneBytes, _ index: SceneIndex) {
        scenes.put(key, index, keyBytes: SceneMemory.array(key.bytes.count, stride: 1))
        // The scenes the budget pushed out: their bytes must go with them, not stay alive in
        // the prefix index until their insertions expire (up to `capacity` scenes of 8 MiB).
        let evicted = scenes.takeEvicted()
        if !evicted.isEmpty { forget(evicted) }
        guard key.bytes.count >= Self.prefixLength else { return }
        let fingerprint = key.bytes.withUnsafeBufferPointer { Self.fingerprint($0.baseAddress!) }
        lock.withLock {
            // A scene over the whole budget was not kept, and one evicted meanwhile is gone:
            // nothing to find them by. Asked under this lock, which `forget` takes after the
            // eviction, so that an evicted scene never stays indexed.
            guard scenes.contains(key) else { return }
            let serial = nextSerial
            nextSerial += 1
            var bucket = buckets[fingerprint] ?? []
            bucket.removeAll { $0.key == key }
            bucket.insert((key, serial), at: 0)
            if bucket.count > Self.bucketSize { bucket.removeLast(bucket.count - Self.bucketSize) }
            buckets[fingerprint] = bucket
            insertions.append((fingerprint, serial))
            while insertions.count - oldestInsertion > scenes.capacity {
                let expired = insertions[oldestInsertion]
                oldestInsertion += 1
                if let remaining = buckets[expired.fingerprint]?.filter({ $0.serial != expired.serial }) {
                    buckets[expired.fingerprint] = remaining.isEmpty ? nil : remaining
                }
            }
            if oldestInsertion > 1_024, oldestInsertion * 2 > insertions.count {
                insertions.removeFirst(oldestInsertion)
                oldestInsertion = 0
            }
        }
    }

    /// Drops evicted scenes from the prefix index.
    private func forget(_ keys: [SceneBytes]) {
        lock.withLock {
            for key in keys where key.bytes.count >= Self.prefixLength {
                let fingerprint = key.bytes.withUnsafeBufferPointer { Self.fingerprint($0.baseAddress!) }
                guard let remaining = buckets[fingerprint]?.filter({ $0.key != key }) else { continue }
                buckets[fingerprint] = remaining.isEmpty ? nil : remaining
            }
        }
    }

    /// The cached scene whose bytes are exactly `bytes[start ..< start + length]`, if any.
    func match(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (scene: CachedScene, length: Int)? {
        guard let base = bytes.baseAddress, bytes.count - start >= Self.prefixLength else { return nil }
        let fingerprint = Self.fingerprint(base + start)
        guard let bucket = lock.withLock({ buckets[fingerprint] }) else { return nil }
        for (candidate, _) in bucket {
            let length = candidate.bytes.count
            guard length <= bytes.count - start else { continue }
            let same = candidate.bytes.withUnsafeBytes { memcmp(base + start, $0.baseAddress!, length) == 0 }
            guard same else { continue }
            if let scene = scenes.get(candidate) { return (scene, length) }
            lock.withLock { buckets[fingerprint]?.removeAll { $0.key == candidate } }
        }
        return nil
    }

    private static func fingerprint(_ start: UnsafePointer<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(start: start, count: prefixLength))
        return hasher.finalize()
    }
}
