import Foundation

/// Results stored lately, per scene, kept in memory so that storing the same result again
/// (a harness re-running its touches) is recognised without reading the 20 KB row back from
/// SQLite, and without hashing or compressing it: a result is looked up here by its bytes
/// (compared in full; results that differ differ in their length or early, where the touches
/// are) when its run is prepared (`SQLiteTraceStore.prepare`, before the write transaction), and its
/// digest and compressed form are computed only when it is not found (`misses`). Hashing every stored result was the
/// largest single cost stored dispatch added to a stateless one (25.7k of 283k instructions per
/// request, callgrind, `taptrace-bench request`).
///
/// Correctness rests on two rules: an entry is added only after the transaction that wrote or
/// found its row has committed (`Sharing.committed()`), and a scene's entries are dropped when
/// the scene is deleted; `run_results` rows are removed with their scene and never otherwise.
/// (Another process deleting the scene is caught before an entry is used: every run insert
/// first checks that its scene exists, and scene ids are never reused.)
package final class RecentResults: @unchecked Sendable {
    package struct Entry {
        package var id: Int64
        package var bytes: Data

        package init(id: Int64, bytes: Data) {
            self.id = id
            self.bytes = bytes
        }
    }

    package init() {}

    static let perScene = 4
    static let maxScenes = 64
    /// Larger results are not kept (they are found in the table, by digest): a big scene's
    /// megabytes of trace must not stay in memory, and next to producing such a result
    /// hashing it is nothing.
    static let maxBytes = 256 * 1024

    private let lock = NSLock()
    private var byScene: [String: [Entry]] = [:]
    /// Scenes, least recently remembered first.
    private var order: [String] = []
    /// Results looked up and not found, which the writer then hashed (for tests).
    private var missCount = 0

    package var misses: Int { lock.withLock { missCount } }

    package func id(sceneID: String, bytes: Data) -> Int64? {
        lock.withLock {
            byScene[sceneID]?.first { $0.bytes == bytes }?.id
        }
    }

    package func missed() { lock.withLock { missCount += 1 } }

    func remember(sceneID: String, _ entry: Entry) {
        guard entry.bytes.count <= Self.maxBytes else { return }
        lock.withLock {
            var entries = byScene[sceneID] ?? []
            entries.removeAll { $0.id == entry.id }
            entries.insert(entry, at: 0)
            if entries.count > Self.perScene { entries.removeLast(entries.count - Self.perScene) }
            byScene[sceneID] = entries
            order.removeAll { $0 == sceneID }
            order.append(sceneID)
            while order.count > Self.maxScenes { byScene[order.removeFirst()] = nil }
        }
    }

    package func forget(sceneID: String) {
        lock.withLock {
            byScene[sceneID] = nil
            order.removeAll { $0 == sceneID }
        }
    }

    /// What one write transaction learned, remembered once it commits.
    package final class Sharing {
        private struct Key: Hashable {
            var sceneID: String
            var digest: Int64
        }

        private let recent: RecentResults
        /// Results this transaction wrote or found, in order (remembered in that order).
        private var learned: [(sceneID: String, entry: Entry)] = []
        /// Positions in `learned` by scene and digest. A replay stores up to thousands of
        /// results in one transaction: comparing each new one with the bytes of every earlier
        /// one was quadratic (4,000 results of one length that differ at their end: 8.5 s
        /// against 2.1 s when they differ at their start, debug build).
        private var learnedByKey: [Key: [Int]] = [:]

        package init(_ recent: RecentResults) { self.recent = recent }

        /// The row of a result equal to `bytes`, whose digest is `digest`, that this
        /// transaction wrote or found.
        package func learnedID(sceneID: String, digest: Int64, bytes: Data) -> Int64? {
            learnedByKey[Key(sceneID: sceneID, digest: digest)]?
                .lazy.map { self.learned[$0].entry }.last { $0.bytes == bytes }?.id
        }

        package func learn(sceneID: String, digest: Int64, _ entry: Entry) {
            learnedByKey[Key(sceneID: sceneID, digest: digest), default: []].append(learned.count)
            learned.append((sceneID, entry))
        }

        package func committed() {
            for (sceneID, entry) in learned { recent.remember(sceneID: sceneID, entry) }
        }
    }
}
