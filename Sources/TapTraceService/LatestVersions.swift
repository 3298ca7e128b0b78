import Foundation

/// The latest version of each scene as this process last saw it, so that a stored dispatch
/// that names no version does not open a read transaction first (it cost a quarter of the
/// request: docs/performance.md).
///
/// Optimistic: the number may be stale when another process (or a concurrent request) added a
/// version. The run is therefore stored with `TraceStore.insertRun(_:requireLatest:)`, which
/// checks the number inside the write transaction; on a conflict the dispatch runs again
/// against the actual latest version. Scene creation, new versions and deletion through this
/// service keep the numbers current.
final class LatestVersions: @unchecked Sendable {
    private let lock = NSLock()
    private var versions: [String: Int] = [:]
    private let capacity: Int

    init(capacity: Int = 100_000) { self.capacity = max(1, capacity) }

    func get(_ sceneID: String) -> Int? {
        lock.withLock { versions[sceneID] }
    }

    /// Records `version` unless a higher one is known (versions only grow).
    func set(_ sceneID: String, _ version: Int) {
        lock.withLock {
            if versions.count >= capacity, versions[sceneID] == nil { versions.removeAll(keepingCapacity: true) }
            versions[sceneID] = max(version, versions[sceneID] ?? 0)
        }
    }

    func remove(_ sceneID: String) {
        lock.withLock { _ = versions.removeValue(forKey: sceneID) }
    }
}
