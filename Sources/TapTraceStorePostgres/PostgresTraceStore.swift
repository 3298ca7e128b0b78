import Foundation
import TapTraceStore

/// How a ``PostgresTraceStore`` uses its server.
public struct PostgresStoreSettings: Sendable {
    /// Most connections the store opens (each a server process on PostgreSQL's side): the
    /// server's worker threads and the run writer share them. Size the server's
    /// `max_connections` for this times the number of instances.
    public var maxConnections: Int
    /// When set, the store keeps its tables in this schema (created if missing) instead of the
    /// user's default (`public`): several deployments, or tests, can share one database.
    public var schema: String?
    /// How long an operation waits for a free connection before it fails with 503.
    public var connectionWaitTimeout: TimeInterval

    public init(maxConnections: Int = 16, schema: String? = nil, connectionWaitTimeout: TimeInterval = 10) {
        self.maxConnections = maxConnections
        self.schema = schema
        self.connectionWaitTimeout = connectionWaitTimeout
    }
}

/// The TapTrace database on a PostgreSQL server (15 or later) that several `taptrace serve`
/// processes share: the same ``TraceStore`` as ``SQLiteTraceStore``, row for row.
///
/// ```swift
/// let store = try PostgresTraceStore(url: "postgres://taptrace@db.internal/taptrace")
/// ```
///
/// What differs from SQLite, and why (decision 141):
/// - Writers do not take turns on one lock: PostgreSQL locks rows. A run insert holds a share
///   lock on its scene's row while it checks the version, so that a new version (which updates
///   that row) cannot slip between the check and the insert, in this process or another.
/// - A batch of runs (the run writer's group commit) is one transaction sent in one round trip
///   (libpq's pipeline mode): one commit, one WAL flush and one network wait for all of them.
/// - Deletion marks the scene (hidden at once from every process) and then removes its rows
///   in one statement: row locks hold up no other scene's writers.
/// - Connection failures are ``StorageFailure/Kind/unreachable`` (503); the pool reconnects
///   on the next operation once the server answers.
public final class PostgresTraceStore: TraceStore {
    let pool: PostgresConnectionPool
    let clock: StoreClock
    let recentResults = RecentResults()
    let runIDs: RunIDSequence
    private let supportedVersion: Int
    private let closeLock = NSLock()
    nonisolated(unsafe) private var isClosed = false

    /// Whether `text` names a PostgreSQL database (`postgres://` or `postgresql://`).
    public static func names(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Connects to the database `url` names (libpq's URL or keyword form), applies pending
    /// migrations and finishes deletions another process left unfinished.
    ///
    /// - Throws: ``StoreError/databaseTooNew(databaseVersion:supportedVersion:)``, or
    ///   ``StoreError/storage(_:)`` when the server cannot be reached.
    public convenience init(url: String, clock: StoreClock = .system,
                            settings: PostgresStoreSettings = PostgresStoreSettings()) throws {
        try self.init(url: url, clock: clock, settings: settings, migrations: PostgresMigration.embedded)
    }

    init(url: String, clock: StoreClock, settings: PostgresStoreSettings, migrations: [Migration]) throws {
        self.clock = clock
        supportedVersion = migrations.last?.version ?? 0
        let schema = settings.schema
        // Defaults the URL may override: a bounded wait for the server; keepalives so that a
        // peer gone silent is noticed in seconds rather than after the kernel's two hours; and
        // no statement, nor a transaction left open by a process that hangs, waits on the
        // server for more than a minute (a 503 then, never a request that does not end).
        let defaults = [
            ("connect_timeout", "5"), ("application_name", "taptrace"),
            ("keepalives_idle", "10"), ("keepalives_interval", "5"), ("keepalives_count", "3"),
            ("options", "-c statement_timeout=60000 -c idle_in_transaction_session_timeout=60000"),
        ]
        pool = PostgresConnectionPool(
            url: url, defaults: defaults, maxConnections: settings.maxConnections,
            waitTimeout: settings.connectionWaitTimeout
        ) { (connection: PostgresConnection) throws in
            if let schema { try connection.run("SET search_path TO \(PostgresMigration.quoted(schema))") }
        }
        do {
            let newest = try pool.withConnection { connection -> String? in
                try PostgresMigration.migrate(connection, migrations: migrations, schema: schema) {
                    Timestamp.rfc3339(clock.now())
                }
                return try connection.execute("SELECT max(id COLLATE \"C\") AS id FROM runs").string(0, "id")
            }
            runIDs = RunIDSequence(after: newest)
        } catch {
            pool.close()
            throw Self.storeError(error)
        }
        finishDeletions()
    }

    /// A batch of runs mostly waits for the server's answer (decision 144).
    public var writesOnCallingThread: Bool { false }

    public func close() throws {
        let wasClosed = closeLock.withLock {
            defer { isClosed = true }
            return isClosed
        }
        if wasClosed { throw StoreError.database("the store is closed") }
        pool.close()
    }

    /// Round trips to the server so far (statements, pipelines, preparations and connection
    /// set-ups), for `bench/run`'s figure of round trips per request.
    public var roundTrips: Int { pool.counter.value }

    // MARK: - Scenes

    public func createScene(name: String?, content: SceneContent) throws -> StoredScene {
        try validate(content)
        return try operation { connection in
            let now = Timestamp.rfc3339(clock.now())
            let id = StoreID.make(prefix: StoreID.scenePrefix)
            // One statement: the scene and its version 1 commit together.
            try connection.execute(
                """
                WITH scene AS (
                    INSERT INTO scenes (id, name, created_at, updated_at, latest_version)
                    VALUES ($1, $2, $3, $3, 1) RETURNING id
                )
                INSERT INTO scene_versions (scene_id, version, document, content_hash, view_count,
                                            window_count, recognizer_count, created_at)
                SELECT id, 1, $4, $5, $6, $7, $8, $3 FROM scene
                """,
                [.text(id), .text(name), .text(now), .bytes(content.document), .text(content.contentHash),
                 .int(content.viewCount), .int(content.windowCount), .int(content.recognizerCount)])
            let scene = SceneRecord(id: id, name: name, createdAt: now, updatedAt: now, latestVersion: 1)
            return StoredScene(scene: scene, version: Self.version(of: id, 1, content, now))
        }
    }

    public func addVersion(sceneID: String, content: SceneContent, expectedCurrentVersion: Int?) throws -> StoredScene {
        try appendVersion(sceneID: sceneID, rename: nil, content: content, expectedCurrentVersion: expectedCurrentVersion)
    }

    public func addVersion(sceneID: String, name: String?, content: SceneContent, expectedCurrentVersion: Int?)
        throws -> StoredScene
    {
        try appendVersion(sceneID: sceneID, rename: .some(name), content: content,
                          expectedCurrentVersion: expectedCurrentVersion)
    }

    private func appendVersion(sceneID: String, rename: String??, content: SceneContent, expectedCurrentVersion: Int?)
        throws -> StoredScene
    {
        try validate(content)
        return try transaction { connection in
            let now = Timestamp.rfc3339(clock.now())
            // The scene's row, locked: a second writer waits here and then reads the version
            // this one wrote, so versions stay gapless and one `If-Match` wins.
            let current = try connection.execute(
                "SELECT name, created_at, latest_version FROM scenes WHERE id = $1 AND deleted_at IS NULL FOR UPDATE",
                [.text(sceneID)])
            guard current.rowCount == 1, let latest = current.int(0, "latest_version") else {
                throw StoreError.sceneNotFound(sceneID: sceneID)
            }
            if let expected = expectedCurrentVersion, expected != latest {
                throw StoreError.conflict(sceneID: sceneID, expectedVersion: expected, actualVersion: latest)
            }
            let next = latest + 1
            let name = rename ?? current.string(0, "name")
            try connection.execute(
                """
                INSERT INTO scene_versions (scene_id, version, document, content_hash, view_count,
                                            window_count, recognizer_count, created_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                """,
                [.text(sceneID), .int(next), .bytes(content.document), .text(content.contentHash),
                 .int(content.viewCount), .int(content.windowCount), .int(content.recognizerCount), .text(now)])
            try connection.execute(
                "UPDATE scenes SET latest_version = $1, updated_at = $2, name = $3 WHERE id = $4",
                [.int(next), .text(now), .text(name), .text(sceneID)])
            let scene = SceneRecord(id: sceneID, name: name, createdAt: current.string(0, "created_at") ?? now,
                                    updatedAt: now, latestVersion: next)
            return StoredScene(scene: scene, version: Self.version(of: sceneID, next, content, now))
        }
    }

    public func latestVersion(sceneID: String) throws -> Int {
        try operation { connection in
            let row = try connection.execute(Self.latestVersionSQL, [.text(sceneID)])
            guard row.rowCount == 1, let version = row.int(0, "latest_version") else {
                throw StoreError.sceneNotFound(sceneID: sceneID)
            }
            return version
        }
    }

    public func scene(id: String, version: Int?) throws -> StoredScene {
        try operation { connection in
            // One statement: the scene and the version it names (or its latest) from one snapshot.
            let row = try connection.execute(
                """
                SELECT s.name, s.created_at, s.updated_at, s.latest_version, v.version, v.document,
                       v.content_hash, v.view_count, v.window_count, v.recognizer_count, v.created_at AS version_created_at
                FROM scenes s LEFT JOIN scene_versions v
                  ON v.scene_id = s.id AND v.version = coalesce($2, s.latest_version)
                WHERE s.id = $1 AND s.deleted_at IS NULL
                """,
                [.text(id), .int(version)])
            guard row.rowCount == 1, let latest = row.int(0, "latest_version") else {
                throw StoreError.sceneNotFound(sceneID: id)
            }
            guard let number = row.int(0, "version"), let document = row.data(0, "document") else {
                throw StoreError.versionNotFound(sceneID: id, version: version ?? latest)
            }
            let scene = SceneRecord(id: id, name: row.string(0, "name"), createdAt: row.string(0, "created_at") ?? "",
                                    updatedAt: row.string(0, "updated_at") ?? "", latestVersion: latest)
            let info = SceneVersionInfo(
                sceneID: id, version: number, contentHash: row.string(0, "content_hash") ?? "",
                viewCount: row.int(0, "view_count") ?? 0, windowCount: row.int(0, "window_count") ?? 0,
                recognizerCount: row.int(0, "recognizer_count") ?? 0, documentSize: document.count,
                createdAt: row.string(0, "version_created_at") ?? "")
            return StoredScene(scene: scene, version: SceneVersion(info: info, document: document))
        }
    }

    public func listScenes(limit: Int, after cursor: String?) throws -> Page<SceneRecord> {
        try validate(limit: limit)
        let before = try cursor.map { try PageCursor(decoding: $0, for: .scenes).seq }
        return try operation { connection in
            let rows = try connection.execute(
                """
                SELECT seq, id, name, created_at, updated_at, latest_version FROM scenes
                WHERE seq < coalesce($1, 9223372036854775807) AND deleted_at IS NULL
                ORDER BY seq DESC LIMIT $2
                """,
                [.int(before), .int(limit + 1)])
            return Self.page(rows, limit: limit, listing: .scenes) { row in
                SceneRecord(id: rows.string(row, "id") ?? "", name: rows.string(row, "name"),
                            createdAt: rows.string(row, "created_at") ?? "", updatedAt: rows.string(row, "updated_at") ?? "",
                            latestVersion: rows.int(row, "latest_version") ?? 0)
            }
        }
    }

    public func listVersions(sceneID: String) throws -> [SceneVersionInfo] {
        try operation { connection in
            let rows = try connection.execute(
                """
                SELECT s.id AS scene, v.version, v.content_hash, v.view_count, v.window_count, v.recognizer_count,
                       octet_length(v.document)::bigint AS document_size, v.created_at
                FROM scenes s LEFT JOIN scene_versions v ON v.scene_id = s.id
                WHERE s.id = $1 AND s.deleted_at IS NULL ORDER BY v.version
                """,
                [.text(sceneID)])
            guard rows.rowCount > 0 else { throw StoreError.sceneNotFound(sceneID: sceneID) }
            return (0..<rows.rowCount).compactMap { row in
                guard let version = rows.int(row, "version") else { return nil }
                return SceneVersionInfo(
                    sceneID: sceneID, version: version, contentHash: rows.string(row, "content_hash") ?? "",
                    viewCount: rows.int(row, "view_count") ?? 0, windowCount: rows.int(row, "window_count") ?? 0,
                    recognizerCount: rows.int(row, "recognizer_count") ?? 0,
                    documentSize: rows.int(row, "document_size") ?? 0, createdAt: rows.string(row, "created_at") ?? "")
            }
        }
    }

    // MARK: - Health

    public func health() -> StoreHealth {
        var health = StoreHealth(ok: false, schemaVersion: nil, supportedSchemaVersion: supportedVersion,
                                 journalMode: nil, error: nil)
        do {
            let version = try operation { connection in try PostgresMigration.currentVersion(connection) }
            health.schemaVersion = version
            health.journalMode = "postgresql"
            if version == supportedVersion {
                health.ok = true
            } else {
                health.error = "schema version \(version), expected \(supportedVersion)"
            }
        } catch let error as StoreError {
            if case .storage(let failure) = error, failure.kind != .busy {
                // The server cannot be reached, or its storage fails: 503 for orchestration.
                health.storage = failure
            }
            health.error = error.description
        } catch {
            health.error = String(describing: error)
        }
        return health
    }

    // MARK: - Implementation

    static let latestVersionSQL = "SELECT latest_version FROM scenes WHERE id = $1 AND deleted_at IS NULL"

    /// Runs `body` on a connection of the pool, each statement committing by itself, with
    /// every failure as a ``StoreError``.
    func operation<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        if closeLock.withLock({ isClosed }) { throw StoreError.database("the store is closed") }
        do {
            return try pool.withConnection(body)
        } catch let error as RunIDTaken {
            throw error
        } catch {
            throw Self.storeError(error)
        }
    }

    /// Runs `body` in a transaction (READ COMMITTED), rolled back when it throws.
    func transaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try operation { connection in
            try connection.run("BEGIN")
            do {
                let value = try body(connection)
                try connection.run("COMMIT")
                return value
            } catch {
                if !connection.isBroken { try? connection.run("ROLLBACK") }
                throw error
            }
        }
    }

    static func storeError(_ error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? PostgresError { return error.storeError }
        return .database(String(describing: error))
    }

    func validate(limit: Int) throws {
        guard (1...TraceStoreLimits.maxPageSize).contains(limit) else {
            throw StoreError.invalidArgument("limit must be between 1 and \(TraceStoreLimits.maxPageSize), got \(limit)")
        }
    }

    private func validate(_ content: SceneContent) throws {
        guard content.viewCount >= 0, content.windowCount >= 0, content.recognizerCount >= 0 else {
            throw StoreError.invalidArgument("view, window and recognizer counts must not be negative")
        }
    }

    /// Throws ``StoreError/sceneNotFound(sceneID:)`` or ``StoreError/versionNotFound(sceneID:version:)``
    /// unless the scene (not being deleted) has the version.
    static func requireVersion(_ connection: PostgresConnection, _ sceneID: String, _ version: Int) throws {
        let row = try connection.execute(
            """
            SELECT s.latest_version FROM scenes s WHERE s.id = $1 AND s.deleted_at IS NULL
            """,
            [.text(sceneID)])
        guard row.rowCount == 1, let latest = row.int(0, "latest_version") else {
            throw StoreError.sceneNotFound(sceneID: sceneID)
        }
        // Versions are 1...latest_version, appended and never removed one by one.
        guard (1...latest).contains(version) else { throw StoreError.versionNotFound(sceneID: sceneID, version: version) }
    }

    private static func version(of sceneID: String, _ version: Int, _ content: SceneContent, _ now: String) -> SceneVersion {
        SceneVersion(
            info: SceneVersionInfo(
                sceneID: sceneID, version: version, contentHash: content.contentHash, viewCount: content.viewCount,
                windowCount: content.windowCount, recognizerCount: content.recognizerCount,
                documentSize: content.document.count, createdAt: now),
            document: content.document)
    }

    /// Turns `limit + 1` fetched rows into a page: the extra row only tells that more exist.
    static func page<Item>(_ rows: PostgresResult, limit: Int, listing: PageCursor.Listing, map: (Int) -> Item)
        -> Page<Item>
    {
        let visible = min(rows.rowCount, limit)
        var next: String?
        if rows.rowCount > limit, visible > 0, let seq = rows.int64(visible - 1, "seq") {
            next = PageCursor(listing: listing, seq: seq).encoded
        }
        return Page(items: (0..<visible).map(map), nextCursor: next)
    }
}
