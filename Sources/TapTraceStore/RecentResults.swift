import Foundation

/// Results stored lately, per scene, kept in memory so that storing the same result again
/// (a harness re-running its touches) is recognised without reading the 20 KB row back from
/// SQLite. A hit still compares every byte, like a hit found in the table.
///
/// Correctness rests on two rules: an entry is added only after the transaction that wrote or
/// found its row has committed (`Sharing.committed()`), and a scene's entries are dropped when
/// the scene is deleted; `run_results` rows are removed with their scene and never otherwise.
/// (Another process deleting the scene is caught before an entry is used: every run insert
/// first checks that its scene exists, and scene ids are never reused.)
final class RecentResults: @unchecked Sendable {
    struct Entry {
        var digest: Int64
        var id: Int64
        var bytes: Data
    }

    static let perScene = 4
    static let maxScenes = 64

    private let lock = NSLock()
    private var byScene: [String: [Entry]] = [:]
    /// Scenes, least recently remembered first.
    private var order: [String] = []

    func id(sceneID: String, digest: Int64, bytes: Data) -> Int64? {
        lock.withLock {
            byScene[sceneID]?.first { $0.digest == digest && $0.bytes == bytes }?.id
        }
    }

    func remember(sceneID: String, _ entry: Entry) {
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

    func forget(sceneID: String) {
        lock.withLock {
            byScene[sceneID] = nil
            order.removeAll { $0 == sceneID }
        }
    }

    /// What one write transaction learned, remembered once it commits.
    final class Sharing {
        private let recent: RecentResults
        private var learned: [(String, Entry)] = []

        init(_ recent: RecentResults) { self.recent = recent }

        func id(sceneID: String, digest: Int64, bytes: Data) -> Int64? {
            learned.last { $0.0 == sceneID && $0.1.digest == digest && $0.1.bytes == bytes }?.1.id
                ?? recent.id(sceneID: sceneID, digest: digest, bytes: bytes)
        }

        func learn(sceneID: String, _ entry: Entry) { learned.append((sceneID, entry)) }

        func committed() {
            for (sceneID, entry) in learned { recent.remember(sceneID: sceneID, entry) }
        }
    }
}
