import Foundation
import GRDB

// Deleting a scene (migration 0007): one short transaction marks it deleted, which hides it and
// everything it holds from every read and refuses every write to it; then its rows go in
// bounded chunks, each a transaction of its own, so that other writers (stored dispatch of
// other scenes) wait for one chunk at most, never for the whole deletion. In one transaction,
// a scene of 100,000 runs held the write lock for about a second in a release build (8 µs a
// run), and every stored dispatch of every scene waited that long.

/// How a deletion is cut into transactions. The defaults are the server's; tests make chunks
/// small to see them interleave with other writes.
struct DeletionSettings: Sendable {
    /// Runs (then results) removed per transaction: about 4 ms of the write lock in a release
    /// build (8 µs a run with its five index entries; docs/performance.md), so that a stored
    /// dispatch waiting behind one chunk still answers within a few milliseconds.
    var rowsPerChunk = 500
    /// Versions removed per transaction: one, since a version's document (and its screenshot)
    /// may be megabytes.
    var versionsPerChunk = 1
    /// How long the background purge waits after a failure (a full or failing disk) before
    /// trying again.
    var retryInterval: Duration = .seconds(30)
}

extension SQLiteTraceStore {
    /// Deletes a scene, all its versions, screenshots, runs and results.
    ///
    /// The scene disappears in one short transaction: from then on it is not found, its runs
    /// are not found, and nothing can be added to it. Its rows are then removed in chunks of a
    /// few hundred (`DeletionSettings`), each chunk a transaction of its own, before this
    /// returns; other writers take turns with the chunks. Should removing the rows fail (a full
    /// or failing disk), or the process stop, the scene stays hidden and its rows are removed
    /// later by the store's own thread (and at the next open).
    ///
    /// - Returns: How many versions and runs went with it.
    /// - Throws: ``StoreError/sceneNotFound(sceneID:)`` (also for a scene being deleted), or
    ///   the failure of the marking transaction (then nothing changed).
    @discardableResult
    public func deleteScene(id: String) throws -> DeletedScene {
        do {
            return try markAndPurge(id)
        } catch StoreError.storage(let failure) where failure.kind == .full {
            // The disk is full: free the room kept for this (`StorageReserve`) and try once more.
            guard reserve?.release() == true else { throw StoreError.storage(failure) }
            return try markAndPurge(id)
        }
    }

    private func markAndPurge(_ id: String) throws -> DeletedScene {
        let deleted = try write { db, now in
            try Self.requireScene(db, id)
            let versions = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM scene_versions WHERE scene_id = ?", arguments: [id]) ?? 0
            let runs = try Int.fetchOne(db, sql: "SELECT count(*) FROM runs WHERE scene_id = ?", arguments: [id]) ?? 0
            try db.execute(sql: "UPDATE scenes SET deleted_at = ? WHERE id = ?", arguments: [now, id])
            return DeletedScene(sceneID: id, versionCount: versions, runCount: runs)
        }
        // Its results may no longer be shared (their rows are about to go, and their ids may be
        // handed out again).
        recentResults.forget(sceneID: id)
        if purger.claim(id) {
            let purged = (try? purgeRows(ofScene: id)) != nil
            purger.release(id)
            if !purged { purger.wake(self) }
        }
        return deleted
    }

    /// Whether any scene is marked deleted with rows left (a deletion unfinished or failed).
    func hasPendingDeletions() throws -> Bool {
        try read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM scenes WHERE deleted_at IS NOT NULL LIMIT 1") != nil
        }
    }

    /// Removes the rows of every scene marked deleted that no thread of this process is
    /// removing already, oldest mark first.
    ///
    /// - Throws: The first failure; the scenes not finished stay marked.
    func purgeDeletedScenes() throws {
        let marked = try read { db in
            try String.fetchAll(
                db, sql: "SELECT id FROM scenes WHERE deleted_at IS NOT NULL ORDER BY deleted_at, seq")
        }
        for id in marked where purger.claim(id) {
            defer { purger.release(id) }
            try purgeRows(ofScene: id)
        }
    }

    /// Removes a marked scene's rows, a chunk per transaction, children before parents (every
    /// foreign key is checked on rows already gone): runs, results, versions with their
    /// screenshots, the scene. Stops between two chunks when the store is closing.
    func purgeRows(ofScene id: String) throws {
        let rows = deletion.rowsPerChunk, versions = deletion.versionsPerChunk
        // Portable SQL (no DELETE … LIMIT): the chunk is chosen by a subquery on an index.
        let steps: [(sql: String, chunk: Int)] = [
            ("DELETE FROM runs WHERE seq IN (SELECT seq FROM runs WHERE scene_id = ? ORDER BY seq LIMIT ?)", rows),
            ("DELETE FROM run_results WHERE id IN (SELECT id FROM run_results WHERE scene_id = ? LIMIT ?)", rows),
            ("""
             DELETE FROM scene_versions WHERE scene_id = ?1 AND version IN
                 (SELECT version FROM scene_versions WHERE scene_id = ?1 ORDER BY version LIMIT ?2)
             """, versions),
        ]
        for step in steps {
            while true {
                if purger.isStopping { throw StoreError.database("the store is closing") }
                let removed = try write { db, _ in
                    try Self.requireMarked(db, id)
                    try db.execute(sql: step.sql, arguments: [id, step.chunk])
                    return db.changesCount
                }
                if removed < step.chunk { break }
            }
        }
        try write { db, _ in
            try db.execute(sql: "DELETE FROM scenes WHERE id = ? AND deleted_at IS NOT NULL", arguments: [id])
        }
        recentResults.forget(sceneID: id)
    }

    /// Another process may have finished the deletion (and, scene ids never being reused,
    /// nothing else can have happened to the row).
    private static func requireMarked(_ db: Database, _ id: String) throws {
        guard try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT 1 FROM scenes WHERE id = ? AND deleted_at IS NOT NULL"), arguments: [id]) != nil
        else { throw StoreError.sceneNotFound(sceneID: id) }
    }
}

/// The store's thread that finishes deletions: those a process left unfinished (found at
/// open) and those whose chunks failed (retried every `retryInterval`). It runs only while
/// there is such work, and a scene is never purged by two threads of the process at once
/// (`claim`).
final class ScenePurger: @unchecked Sendable {
    private let condition = NSCondition()
    /// Scenes a thread of this process is removing now.
    private var claimed: Set<String> = []
    private var running = false
    /// The thread, once started (guarded by `condition`).
    private var thread: Thread?
    /// Work was asked for while the thread ran (it looks again before it ends).
    private var wanted = false
    private var stopping = false

    /// Whether the store is closing (chunks stop).
    var isStopping: Bool { condition.withLock { stopping } }

    /// Takes `id` for the caller to purge; false when another thread has it.
    func claim(_ id: String) -> Bool {
        condition.withLock { claimed.insert(id).inserted }
    }

    func release(_ id: String) {
        condition.withLock { _ = claimed.remove(id) }
    }

    /// Has the thread purge every marked scene of `store`, starting it if it does not run.
    func wake(_ store: SQLiteTraceStore) {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping else { return }
        wanted = true
        condition.broadcast()
        guard !running else { return }
        running = true
        let retry = store.deletion.retryInterval / .seconds(1)
        let thread = Thread { [weak store, self] in
            Thread.current.name = "TapTrace-purge"
            while self.nextRound() {
                let failed: Bool
                do {
                    // Weak: a store released by its owner is not kept open by its purge (nor
                    // during the pause below). Should this thread drop the last reference, the
                    // store's deinit runs here, and `stop` does not wait for the caller itself.
                    guard let store else { return self.finished() }
                    failed = (try? store.purgeDeletedScenes()) == nil
                }
                if failed { self.pause(seconds: retry) }
            }
        }
        thread.start()
        self.thread = thread
    }

    /// Whether to look for marked scenes (again): once per wake-up. When not, the thread is
    /// done, in the same critical section, so that a `wake` never finds it running and about
    /// to end.
    private func nextRound() -> Bool {
        condition.withLock {
            guard !stopping, wanted else {
                running = false
                condition.broadcast()
                return false
            }
            wanted = false
            return true
        }
    }

    /// After a failure: waits, then asks for another round (unless stopping).
    private func pause(seconds: Double) {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !stopping, condition.wait(until: deadline) {}
        wanted = true
    }

    private func finished() {
        condition.withLock {
            running = false
            condition.broadcast()
        }
    }

    /// Stops the thread after its chunk in progress and waits for it (unless called on it);
    /// no thread starts again.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while running, thread !== Thread.current { condition.wait() }
        condition.unlock()
    }
}
