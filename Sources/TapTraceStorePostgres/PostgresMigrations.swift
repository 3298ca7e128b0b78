import TapTraceStore

/// The schema steps of `migrations/postgres/NNNN_name.sql`, compiled into the binary by the
/// EmbedFiles plugin (`EmbeddedPostgresMigrations`), and how they are applied.
///
/// As SQLite's: versions 1, 2, 3, … without gaps, recorded in `schema_migrations(version,
/// name, applied_at)`, each applied in a transaction of its own with its row, and a database
/// migrated by a newer binary is refused (``StoreError/databaseTooNew(databaseVersion:supportedVersion:)``).
/// Several processes may start at once against one database: a transaction-scoped advisory
/// lock makes them take turns, so no step is applied twice.
struct PostgresMigration: Sendable, Equatable {
    let version: Int
    let name: String
    let sql: String

    static let embedded: [PostgresMigration] = EmbeddedPostgresMigrations.files.map { file in
        let name = String(file.name.dropLast(".sql".count))
        return PostgresMigration(version: Int(name.prefix(while: \.isNumber)) ?? 0, name: name, sql: file.text)
    }

    /// The advisory lock's key: "TapTrace" in ASCII, the same for every process.
    static let lockKey: Int64 = 0x5461_7054_7261_6365

    static let createTable = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            version    bigint PRIMARY KEY,
            name       text   NOT NULL,
            applied_at text   NOT NULL
        )
        """

    /// Applies the migrations newer than the recorded version; returns the version after.
    @discardableResult
    static func migrate(_ connection: PostgresConnection, migrations: [PostgresMigration], schema: String?,
                        timestamp: () -> String) throws -> Int {
        let supported = migrations.last?.version ?? 0
        while true {
            try connection.run("BEGIN")
            do {
                try connection.execute("SELECT pg_advisory_xact_lock($1)", [.int(lockKey)])
                if let schema { try connection.run("CREATE SCHEMA IF NOT EXISTS \(quoted(schema))") }
                try connection.run(createTable)
                let current = try currentVersion(connection)
                if current > supported {
                    throw StoreError.databaseTooNew(databaseVersion: current, supportedVersion: supported)
                }
                guard let next = migrations.first(where: { $0.version > current }) else {
                    try connection.run("COMMIT")
                    return current
                }
                try connection.run(next.sql)
                try connection.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                    [.int(next.version), .text(next.name), .text(timestamp())])
                try connection.run("COMMIT")
            } catch {
                if !connection.isBroken { try? connection.run("ROLLBACK") }
                throw error
            }
        }
    }

    static func currentVersion(_ connection: PostgresConnection) throws -> Int {
        try connection.execute("SELECT max(version) AS version FROM schema_migrations").int(0, "version") ?? 0
    }

    /// An identifier in double quotes (a schema name from the settings).
    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
