import Foundation
import GRDB
import TestSupport
import Testing

@testable import TapTraceStore

/// A full or failing disk (issue 34, item 5). A full disk is made without mount privileges by
/// SQLite's `max_page_count` (`StoreSettings.maxDatabaseBytes`): SQLite answers `SQLITE_FULL`
/// exactly as it does when the file system has no room (the service's tests also fill a real
/// tmpfs where mounting one is allowed).
@Suite struct StorageFailureTests {
    /// A store whose database file may not grow past `bytes`.
    static func withLimitedStore<T>(bytes: Int, _ body: (SQLiteTraceStore) throws -> T) throws -> T {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteTraceStore(location: .file(directory.databasePath), clock: SteppingClock().clock,
                                   settings: StoreSettings(maxDatabaseBytes: bytes), migrations: Migration.embedded)
        defer { try? store.close() }
        return try body(store)
    }

    /// Runs with results that do not compress, until a write fails; the runs written and the
    /// failure.
    static func fill(_ store: SQLiteTraceStore, sceneID: String) -> (written: [RunRecord], failure: StoreError?) {
        var written: [RunRecord] = []
        for n in 0..<10_000 {
            var run = newRun(sceneID, tag: "fill\(n)")
            run.result = noise(4_096, seed: n)
            do {
                written.append(try store.insertRun(run))
            } catch let error as StoreError {
                return (written, error)
            } catch {
                return (written, .database("\(error)"))
            }
        }
        return (written, nil)
    }

    @Test func aFullDatabaseRefusesWritesAsStorageFullAndKeepsWhatItHas() throws {
        try Self.withLimitedStore(bytes: 512 << 10) { store in
            let id = try store.createScene(name: "filled", content: content("a")).scene.id
            let other = try store.createScene(name: "other", content: content("b")).scene.id
            let (written, failure) = Self.fill(store, sceneID: id)
            #expect(written.count > 10)
            guard case .storage(let storage)? = failure else {
                Issue.record("expected a storage failure, got \(String(describing: failure))")
                return
            }
            #expect(storage.kind == .full)
            #expect(storage.message.contains("13"), "\(storage.message)")   // SQLITE_FULL

            // Known until a write succeeds; reads go on meanwhile.
            let health = store.health()
            #expect(!health.ok)
            #expect(health.storage?.kind == .full)
            #expect(health.error?.contains("full") == true)
            #expect(try store.run(id: written[0].id) == written[0])
            #expect(try store.listRuns(sceneID: id, limit: 1000).items.count == written.count)
            var big = newRun(other, tag: "big")
            big.result = noise(64 << 10, seed: 99_999)
            #expect(throws: StoreError.self) { try store.insertRun(big) }

            // Deleting frees pages without needing any: it works on the full database, and the
            // commit clears the failure.
            #expect(try store.deleteScene(id: id).runCount == written.count)
            #expect(store.health().ok)
            #expect(store.health().storage == nil)
            #expect(try store.insertRun(big).result == big.result)
        }
    }

    /// With nothing written, `health()` finds out by itself that the storage takes writes again
    /// (a probe, at most once a second), and that it does not while it is still full.
    @Test func healthProbesTheStorageWhileAFailureIsKnown() throws {
        try Self.withLimitedStore(bytes: 512 << 10) { store in
            let id = try store.createScene(name: "filled", content: content("a")).scene.id
            let (written, failure) = Self.fill(store, sceneID: id)
            guard case .storage? = failure else { Issue.record("not full: \(String(describing: failure))"); return }
            // Still full: the probe's 64 KiB do not fit either.
            #expect(!store.health().ok)
            Thread.sleep(forTimeInterval: 1.1)
            #expect(!store.health().ok)
            // Room again (as if files were removed from the disk).
            try store.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA max_page_count = 1000000") }
            Thread.sleep(forTimeInterval: 1.1)
            #expect(store.health().ok)
            #expect(try rowCount(store, "health_probe") == 0)
            #expect(try store.listRuns(sceneID: id, limit: 1000).items.count == written.count)
        }
    }

    /// SQLite's result codes as storage failures: no room, I/O and the like, busy; anything
    /// else stays a database error.
    @Test(arguments: [
        (ResultCode.SQLITE_FULL, StorageFailure.Kind.full),
        (ResultCode.SQLITE_IOERR, .failing), (ResultCode.SQLITE_IOERR_WRITE, .failing),
        (ResultCode.SQLITE_IOERR_FSYNC, .failing), (ResultCode.SQLITE_READONLY, .failing),
        (ResultCode.SQLITE_CANTOPEN, .failing), (ResultCode.SQLITE_CORRUPT, .failing), (ResultCode.SQLITE_NOTADB, .failing),
        (ResultCode.SQLITE_BUSY, .busy), (ResultCode.SQLITE_LOCKED, .busy),
    ])
    func storageResultCodes(_ pair: (ResultCode, StorageFailure.Kind)) {
        let error = SQLiteTraceStore.storeError(DatabaseError(resultCode: pair.0, message: "m"))
        guard case .storage(let failure) = error else {
            Issue.record("\(pair.0) is \(error)")
            return
        }
        #expect(failure.kind == pair.1)
        #expect(failure.message.hasSuffix(": m"))
    }

    @Test func otherFailuresStayDatabaseErrors() {
        for code in [ResultCode.SQLITE_CONSTRAINT, .SQLITE_ERROR, .SQLITE_INTERRUPT, .SQLITE_MISUSE] {
            guard case .database = SQLiteTraceStore.storeError(DatabaseError(resultCode: code, message: "m")) else {
                Issue.record("\(code) became a storage failure")
                continue
            }
        }
    }

    /// `synchronous` follows the setting on every connection the store opens.
    @Test(arguments: [(StoreSettings.Synchronous.normal, 1), (.full, 2)])
    func synchronousFollowsTheSetting(_ pair: (StoreSettings.Synchronous, Int)) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteTraceStore(location: .file(directory.databasePath), settings: StoreSettings(synchronous: pair.0))
        defer { try? store.close() }
        let writing = try store.writer.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        let reading = try store.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        #expect(writing == pair.1)
        #expect(reading == pair.1)
    }

    /// The default is NORMAL, and no size limit.
    @Test func defaultSettings() throws {
        try withSQLiteStore(.file) { store, _ in
            let synchronous = try store.writer.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
            let maxPages = try store.writer.write { db in try Int.fetchOne(db, sql: "PRAGMA max_page_count") }
            #expect(synchronous == 1)
            #expect(maxPages! > 1_000_000_000)
        }
    }
}
