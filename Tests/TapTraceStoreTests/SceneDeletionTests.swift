import Foundation
import GRDB
import TestSupport
import Testing

@testable import TapTraceStore

/// Deleting a scene (issue 34, item 3; migration 0007): the scene is hidden in one short
/// transaction, then its rows go in chunks, each its own transaction, so that other writers
/// are never held up for the whole deletion; a deletion a process left unfinished is finished
/// by the next one to open the database.
@Suite struct SceneDeletionTests {
    /// A scene with versions, a screenshot, runs and results, as a deletion finds it.
    static func populatedScene(_ store: any TraceStore, runs: Int = 30) throws -> (scene: String, run: String) {
        let id = try store.createScene(name: "doomed", content: content("a")).scene.id
        try store.addVersion(sceneID: id, content: content("b"))
        _ = try store.putScreenshot(sceneID: id, version: 2, NewScreenshot(mediaType: "image/png", width: 1, height: 1, image: Data([1, 2, 3])))
        let stored = try store.insertRuns((0..<runs).map { newRun(id, version: 1 + $0 % 2, tag: "d\($0)") })
        return (id, stored[0].id)
    }

    /// `id`'s rows left in every table that holds them.
    static func remainingRows(_ store: any TraceStore, _ id: String) throws -> [String: Int] {
        var rows: [String: Int] = [:]
        for table in ["runs", "run_results", "scene_versions", "screenshots", "scenes"] {
            rows[table] = try rowCount(store, table, sceneID: id)
        }
        return rows
    }

    static let none = ["runs": 0, "run_results": 0, "scene_versions": 0, "screenshots": 0, "scenes": 0]

    /// Marks a scene deleted as the first step of `deleteScene` does, and stops there (a
    /// process killed between the two steps).
    static func markOnly(_ store: any TraceStore, _ id: String) throws {
        try executeSQL(store, "UPDATE scenes SET deleted_at = '2026-11-27T00:00:00.000Z' WHERE id = $1", [.text(id)])
    }

    @Test(arguments: Backend.allCases)
    func deletingRemovesEveryRowInChunks(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let (id, runID) = try Self.populatedScene(store)
            let kept = try store.createScene(name: "kept", content: content("k")).scene.id
            let keptRun = try store.insertRun(newRun(kept, tag: "kept"))
            let deleted = try store.deleteScene(id: id)
            #expect(deleted == DeletedScene(sceneID: id, versionCount: 2, runCount: 30))
            #expect(try Self.remainingRows(store, id) == Self.none)
            #expect(throws: StoreError.runNotFound(runID: runID)) { try store.run(id: runID) }
            #expect(try store.run(id: keptRun.id) == keptRun)
            #expect(try store.scene(id: kept).scene.id == kept)
            #expect(throws: StoreError.sceneNotFound(sceneID: id)) { try store.deleteScene(id: id) }
        }
    }

    /// Chunks of 7 runs: the deletion takes many transactions and still removes everything.
    @Test func smallChunksRemoveEverything() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteTraceStore(location: .file(directory.databasePath), clock: SteppingClock().clock,
                                   migrations: Migration.embedded, deletion: DeletionSettings(rowsPerChunk: 7))
        defer { try? store.close() }
        let (id, _) = try Self.populatedScene(store, runs: 50)
        #expect(try store.deleteScene(id: id).runCount == 50)
        #expect(try Self.remainingRows(store, id) == Self.none)
    }

    /// Every operation on a deleted scene `id` (with run `runID`) finds nothing and adds
    /// nothing; `other` is the one scene left.
    static func expectGone(_ store: any TraceStore, _ id: String, runID: String, other: String) throws {
        let missing = StoreError.sceneNotFound(sceneID: id)
        #expect(throws: missing) { try store.scene(id: id) }
        #expect(throws: missing) { try store.scene(id: id, version: 1) }
        #expect(throws: missing) { try store.latestVersion(sceneID: id) }
        #expect(throws: missing) { try store.listVersions(sceneID: id) }
        #expect(throws: missing) { try store.listRuns(sceneID: id, limit: 10) }
        #expect(throws: missing) { try store.runs(sceneID: id, version: 1) }
        #expect(throws: missing) { try store.runExtent(sceneID: id, version: 1) }
        #expect(throws: missing) { try store.screenshot(sceneID: id, version: 2) }
        #expect(throws: missing) { try store.deleteScreenshot(sceneID: id, version: 2) }
        #expect(try store.screenshotInfo(sceneID: id, version: 2) == nil)
        #expect(try store.screenshotInfos(sceneID: id).isEmpty)
        #expect(throws: StoreError.runNotFound(runID: runID)) { try store.run(id: runID) }
        #expect(try store.listScenes(limit: 10).items.map(\.id) == [other])

        #expect(throws: missing) { try store.insertRun(newRun(id)) }
        #expect(throws: missing) { try store.insertRuns([newRun(id)]) }
        #expect(try store.insertRunsIndependently([(newRun(id), false)])[0] == .failure(missing))
        #expect(throws: missing) { try store.addVersion(sceneID: id, content: content("c")) }
        #expect(throws: missing) {
            try store.putScreenshot(sceneID: id, version: 1, NewScreenshot(mediaType: "image/png", width: 1, height: 1, image: Data([1])))
        }
        #expect(throws: missing) { try store.deleteScene(id: id) }
    }

    /// Once deleted, nothing of the scene is seen and nothing can be added to it.
    @Test(arguments: Backend.allCases)
    func aDeletedSceneIsGoneForEveryOperation(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let (id, runID) = try Self.populatedScene(store)
            let other = try store.createScene(name: "other", content: content("o")).scene.id
            _ = try store.deleteScene(id: id)
            try Self.expectGone(store, id, runID: runID, other: other)
            #expect(try Self.remainingRows(store, id) == Self.none)
        }
    }

    /// Once marked, nothing of the scene is seen and nothing can be added to it, though its
    /// rows are still there.
    @Test(arguments: Backend.allCases)
    func aMarkedSceneIsGoneForEveryOperation(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let (id, runID) = try Self.populatedScene(store)
            let other = try store.createScene(name: "other", content: content("o")).scene.id
            try Self.markOnly(store, id)
            #expect(try Self.remainingRows(store, id)["runs"] == 30)
            try Self.expectGone(store, id, runID: runID, other: other)
            // Nothing was added meanwhile.
            #expect(try Self.remainingRows(store, id)["runs"] == 30)
            #expect(try Self.remainingRows(store, id)["scene_versions"] == 2)
        }
    }

    /// A process stopped after the mark: the next open finishes the deletion on its own thread.
    @Test(arguments: Backend.sharedCases)
    func theNextOpenFinishesAnInterruptedDeletion(_ backend: Backend) throws {
        try withDatabase(backend) { database in
            var id = ""
            var keptRun: RunRecord?
            do {
                let store = try database.open(clock: .system)
                id = try Self.populatedScene(store, runs: 2_000).scene
                let kept = try store.createScene(name: "kept", content: content("k")).scene.id
                keptRun = try store.insertRun(newRun(kept, tag: "kept"))
                try Self.markOnly(store, id)
                try store.close()
            }
            let reopened = try database.open(clock: .system)
            defer { try? reopened.close() }
            #expect(throws: StoreError.sceneNotFound(sceneID: id)) { try reopened.scene(id: id) }
            #expect(eventually(timeoutSeconds: 60) { (try? Self.remainingRows(reopened, id)) == Self.none })
            #expect(try reopened.run(id: keptRun!.id) == keptRun)
            #expect(try rowCount(reopened, "scenes") == 1)
            if let reopened = reopened as? SQLiteTraceStore { #expect(try reopened.hasPendingDeletions() == false) }
        }
    }

    /// Deleting a scene of 100,000 runs (each with a result of its own) leaves other writers
    /// their turn: runs of another scene are written while the deletion is under way (the
    /// doomed scene half gone), and none of them waits long for the write lock. In one
    /// transaction every one of them waited for the whole deletion (seconds; 20 s in a debug
    /// build).
    @Test func otherWritersProceedWhileA100000RunSceneIsDeleted() throws {
        try withSQLiteStore(.file) { store, _ in
            let doomed = try store.createScene(name: "doomed", content: content("a")).scene.id
            let busy = try store.createScene(name: "busy", content: content("b")).scene.id
            let count = 100_000
            try Self.insertRunsQuickly(store, sceneID: doomed, count: count)
            #expect(try rowCount(store, "runs", sceneID: doomed) == count)

            let finished = Locked(false)
            let deleting = TestThread {
                #expect((try? store.deleteScene(id: doomed))?.runCount == count)
                finished.withLock { $0 = true }
            }
            // Another scene's runs, one transaction each, until the deletion ends: how long each
            // waited, and how many were written while the doomed scene was half deleted.
            var written: [RunRecord] = []
            var longestWait: Double = 0
            var duringDeletion = 0
            var serial = 0
            while !finished.withLock({ $0 }) {
                let start = Date()
                written.append(try store.insertRun(newRun(busy, tag: "busy\(serial)")))
                longestWait = max(longestWait, Date().timeIntervalSince(start))
                serial += 1
                let left = try rowCount(store, "runs", sceneID: doomed)
                if left > 0 && left < count { duringDeletion += 1 }
            }
            #expect(deleting.join(timeoutSeconds: 300))
            #expect(try Self.remainingRows(store, doomed) == Self.none)
            #expect(duringDeletion >= 3, "only \(duringDeletion) runs of another scene were written during the deletion")
            #expect(longestWait < 0.5, "a run of another scene waited \(longestWait) s for the deletion")
            #expect(try store.listRuns(sceneID: busy, limit: 1000).items.count == min(written.count, 1000))
            for run in written.suffix(5) { #expect(try store.run(id: run.id) == run) }
        }
    }

    /// `count` runs of version 1, each with a result of its own, written in SQL (the store's
    /// own inserts take minutes for this many in a debug build).
    static func insertRunsQuickly(_ store: SQLiteTraceStore, sceneID: String, count: Int) throws {
        try store.writer.write { db in
            let base = try Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM run_results")!
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
                INSERT INTO run_results (id, scene_id, digest, encoding, bytes)
                SELECT ?3 + i, ?1, i, 'identity', CAST('{"trace":"' || i || '"}' AS BLOB) FROM n
                """, arguments: [sceneID, count, base])
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
                INSERT INTO runs (id, scene_id, scene_version, created_at, request, result_id,
                                  first_responder, actions, outcome, action_count)
                SELECT printf('run_q%011d', i), ?1, 1, '2026-11-27T00:00:00.000Z',
                       CAST('{"touches":"' || i || '"}' AS BLOB), ?3 + i, NULL, '[]', 'o1:' || i, 0
                FROM n
                """, arguments: [sceneID, count, base])
        }
    }
}

/// A scene with one version written in SQL, for tests that build a database of an older
/// schema: the store's own methods need the newest one (every query of a scene asks for
/// `deleted_at`, migration 0007).
func insertSceneOfAnOlderSchema(_ store: SQLiteTraceStore, name: String, document: String) throws -> String {
    let id = StoreID.make(prefix: StoreID.scenePrefix)
    try store.writer.write { db in
        try db.execute(sql: """
            INSERT INTO scenes (id, name, created_at, updated_at, latest_version)
            VALUES (?, ?, '2026-11-22T00:00:00.000Z', '2026-11-22T00:00:00.000Z', 1)
            """, arguments: [id, name])
        try db.execute(sql: """
            INSERT INTO scene_versions (scene_id, version, document, content_hash, view_count, window_count,
                                        recognizer_count, created_at)
            VALUES (?, 1, ?, ?, 3, 1, 0, '2026-11-22T00:00:00.000Z')
            """, arguments: [id, Data(document.utf8), ContentHash.sha256Hex(Data(document.utf8))])
    }
    return id
}

/// A run of version 1 with its result written in SQL, in a database of schema 2 to 6.
func insertRunOfAnOlderSchema(_ store: SQLiteTraceStore, sceneID: String) throws {
    try store.writer.write { db in
        try db.execute(sql: "INSERT INTO run_results (scene_id, digest, encoding, bytes) VALUES (?, 1, 'identity', ?)",
                       arguments: [sceneID, Data(#"{"trace":"r"}"#.utf8)])
        try db.execute(sql: """
            INSERT INTO runs (id, scene_id, scene_version, created_at, request, result_id, first_responder, actions,
                              outcome, action_count)
            VALUES (?, ?, 1, '2026-11-22T00:00:00.000Z', ?, ?, 'field', 'login:touchUpInside', 'delivered r', 1)
            """, arguments: ["run_old000000001", sceneID, Data(#"{"touches":"r"}"#.utf8), db.lastInsertedRowID])
    }
}
