import GRDB

/// One schema step: the SQL of a `migrations/sqlite/NNNN_name.sql` file, compiled into the binary.
///
/// The files in `migrations/sqlite/` are the source of truth; the EmbedFiles build plugin compiles
/// them in (`EmbeddedMigrations`) so that the service never reads SQL from disk at run time.
package struct Migration: Sendable, Equatable {
    /// 1, 2, 3, … — the `NNNN` prefix of the file name.
    package let version: Int
    /// The file name without `.sql`, e.g. `0001_init`.
    package let name: String
    /// The whole file: one or more SQL statements.
    package let sql: String

    init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }

    /// The migrations of one engine's folder, as the EmbedFiles plugin compiled them in: files
    /// named `NNNN_name.sql`, in the order of their names (both engines' stores read theirs so).
    package static func list(_ files: [(name: String, text: String)]) -> [Migration] {
        files.map { file in
            let name = String(file.name.dropLast(".sql".count))
            return Migration(version: Int(name.prefix(while: \.isNumber)) ?? 0, name: name, sql: file.text)
        }
    }

    /// Every migration this binary knows, in the order they are applied: the files of
    /// `migrations/sqlite/`, named `NNNN_name.sql` with versions 1, 2, 3, … without gaps (a test
    /// holds them to it).
    static let embedded: [Migration] = list(EmbeddedMigrations.files)
}

/// Brings a database up to the newest ``Migration`` the binary knows.
///
/// The applied versions are recorded in `schema_migrations(version, name, applied_at)`.
/// Each migration runs in its own `IMMEDIATE` transaction together with its
/// `schema_migrations` row, so a failing migration leaves the database exactly at the
/// previous version, and two processes opening the same file never apply a step twice.
enum MigrationRunner {
    /// The schema version recorded in `db` (0 for a fresh database).
    /// The schema version recorded in the database. A cached statement: `/health` asks on
    /// every call (SQLite prepares it again by itself when a migration changes the schema).
    static func currentVersion(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT max(version) FROM schema_migrations")) ?? 0
    }

    /// Applies every migration of `migrations` newer than the recorded version.
    ///
    /// - Throws: ``StoreError/databaseTooNew(databaseVersion:supportedVersion:)`` when the
    ///   database was migrated by a newer binary; the database is then left untouched.
    /// - Returns: The schema version after migrating.
    @discardableResult
    static func migrate(
        _ writer: any DatabaseWriter,
        migrations: [Migration],
        timestamp: @escaping @Sendable () -> String
    ) throws -> Int {
        let supported = migrations.last?.version ?? 0
        return try writer.writeWithoutTransaction { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version    INTEGER PRIMARY KEY,
                    name       TEXT NOT NULL,
                    applied_at TEXT NOT NULL
                )
                """)
            while true {
                var applied: Int?
                try db.inTransaction(.immediate) {
                    let current = try currentVersion(db)
                    if current > supported {
                        throw StoreError.databaseTooNew(databaseVersion: current, supportedVersion: supported)
                    }
                    guard let next = migrations.first(where: { $0.version > current }) else {
                        return .commit
                    }
                    try db.execute(sql: next.sql)
                    try db.execute(
                        sql: "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                        arguments: [next.version, next.name, timestamp()])
                    applied = next.version
                    return .commit
                }
                if applied == nil { return try currentVersion(db) }
            }
        }
    }
}
