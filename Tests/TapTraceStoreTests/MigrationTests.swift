import Foundation
import GRDB
import TestSupport
import Testing

@testable import TapTraceStore

@Suite("Migrations")
struct MigrationTests {
    @Test("migrations apply at open and record the schema version", arguments: Backend.sqliteCases)
    func migrationsApplyAndRecord(_ backend: Backend) throws {
        try withSQLiteStore(backend) { store, _ in
            let recorded = try store.writer.read { db in
                try Row.fetchAll(db, sql: "SELECT version, name, applied_at FROM schema_migrations ORDER BY version")
            }
            #expect(recorded.map { $0["version"] as Int } == Migration.embedded.map(\.version))
            #expect(recorded.map { $0["name"] as String } == Migration.embedded.map(\.name))
            #expect(recorded.first?["applied_at"] == "2026-11-22T06:01:02.345Z")
            let tables = try store.writer.read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            }
            #expect(Set(tables).isSuperset(of: ["scenes", "scene_versions", "runs", "schema_migrations"]))

            let health = store.health()
            #expect(health.ok)
            #expect(health.schemaVersion == SQLiteTraceStore.supportedSchemaVersion)
            #expect(health.journalMode == (backend == .file ? "wal" : "memory"))
        }
    }

    @Test("a file database is opened with WAL, foreign keys, NORMAL sync and a busy timeout")
    func filePragmas() throws {
        try withSQLiteStore(.file) { store, _ in
            let (journal, foreignKeys, synchronous, busyTimeout) = try store.writer.write { db in
                (
                    try String.fetchOne(db, sql: "PRAGMA journal_mode"),
                    try Int.fetchOne(db, sql: "PRAGMA foreign_keys"),
                    try Int.fetchOne(db, sql: "PRAGMA synchronous"),
                    try Int.fetchOne(db, sql: "PRAGMA busy_timeout")
                )
            }
            #expect(journal == "wal")
            #expect(foreignKeys == 1)
            #expect(synchronous == 1)  // NORMAL
            #expect(busyTimeout == 5000)
        }
    }

    @Test("a new database is created with 1 KiB pages (decision 53)", arguments: Backend.sqliteCases)
    func newDatabasePageSize(_ backend: Backend) throws {
        try withSQLiteStore(backend) { store, _ in
            let pageSize = try store.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") }
            #expect(pageSize == 1024)
            #expect(SQLiteTraceStore.newDatabasePageSize == 1024)
        }
    }

    @Test("a database created with 4 KiB pages keeps them, and the store works in it (decision 53)")
    func existingPageSizeIsKept() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.databasePath
        // As an earlier binary (or SQLite's own default) created it.
        let raw = try DatabaseQueue(path: path)
        try raw.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA page_size = 4096")
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "CREATE TABLE created_before (x)")
        }
        try raw.close()

        let store = try SQLiteTraceStore(location: StoreLocation(path: path))
        let created = try store.createScene(name: "login", content: content("v1"))
        let run = try store.insertRun(newRun(created.scene.id))
        try store.close()

        let reopened = try SQLiteTraceStore(location: StoreLocation(path: path))
        defer { try? reopened.close() }
        let pageSize = try reopened.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") }
        #expect(pageSize == 4096)
        #expect(try reopened.run(id: run.id) == run)
        #expect(try reopened.scene(id: created.scene.id).version.document == Data("v1".utf8))
    }

    @Test("reopening a file keeps every scene, version and run, and applies nothing twice")
    func reopenKeepsEverything() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.databasePath

        let first = try SQLiteTraceStore(location: StoreLocation(path: path))
        let created = try first.createScene(name: "login", content: content("v1"))
        try first.addVersion(sceneID: created.scene.id, content: content("v2"))
        let run = try first.insertRun(newRun(created.scene.id, version: 2))
        try first.close()

        let second = try SQLiteTraceStore(location: StoreLocation(path: path))
        defer { try? second.close() }
        let reloaded = try second.scene(id: created.scene.id)
        #expect(reloaded.scene.name == "login")
        #expect(reloaded.scene.latestVersion == 2)
        #expect(reloaded.version.document == Data("v2".utf8))
        #expect(try second.scene(id: created.scene.id, version: 1).version.document == Data("v1".utf8))
        #expect(try second.run(id: run.id) == run)
        #expect(try rowCount(second, "schema_migrations") == Migration.embedded.count)
    }

    @Test("a database migrated by a newer binary is refused with both versions in the message")
    func newerDatabaseIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.databasePath
        try SQLiteTraceStore(location: .file(path)).close()

        let raw = try DatabaseQueue(path: path)
        try raw.write { db in
            try db.execute(sql: "INSERT INTO schema_migrations VALUES (99, '0099_future', '2030-01-01T00:00:00.000Z')")
        }
        try raw.close()

        let supported = SQLiteTraceStore.supportedSchemaVersion
        #expect(throws: StoreError.databaseTooNew(databaseVersion: 99, supportedVersion: supported)) {
            _ = try SQLiteTraceStore(location: .file(path))
        }
        let message = StoreError.databaseTooNew(databaseVersion: 99, supportedVersion: supported).description
        #expect(message.contains("99"))
        #expect(message.contains("(\(supported))"))
        #expect(message.contains("newer"))
    }

    @Test("a failing migration rolls back completely; the next binary applies the fixed one")
    func failingMigrationRollsBack() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.databasePath
        let next = SQLiteTraceStore.supportedSchemaVersion + 1
        let broken = Migration.embedded + [
            Migration(
                version: next, name: "\(next)_broken",
                sql: "CREATE TABLE extra (x INTEGER); INSERT INTO no_such_table VALUES (1);")
        ]
        #expect(throws: StoreError.self) {
            _ = try SQLiteTraceStore(location: .file(path), clock: .system, migrations: broken)
        }

        let store = try SQLiteTraceStore(location: .file(path))
        let tables = try store.writer.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        #expect(!tables.contains("extra"))
        #expect(store.health().schemaVersion == next - 1)
        try store.close()

        let fixed = Migration.embedded + [Migration(version: next, name: "\(next)_fixed", sql: "CREATE TABLE extra (x INTEGER);")]
        let upgraded = try SQLiteTraceStore(location: .file(path), clock: .system, migrations: fixed)
        defer { try? upgraded.close() }
        #expect(upgraded.health().schemaVersion == next)
        #expect(upgraded.health().ok)
    }

    @Test("migrations are named NNNN_name.sql, versions 1, 2, 3, … without gaps")
    func migrationsAreNumberedWithoutGaps() throws {
        try #require(!Migration.embedded.isEmpty)
        for migration in Migration.embedded {
            #expect(migration.name.range(of: #"^\d{4,}_[a-z0-9_]+$"#, options: .regularExpression) != nil, "\(migration.name)")
        }
        #expect(Migration.embedded.map(\.version) == Array(1...Migration.embedded.count))
    }
}
