import Foundation
import GRDB

/// Where a ``SQLiteTraceStore`` keeps its data.
public enum StoreLocation: Sendable, Equatable {
    /// A SQLite file (created if missing), opened in WAL mode with a connection pool:
    /// one writer at a time, many concurrent readers, and readers never wait for writers.
    case file(String)
    /// A private in-memory database, gone when the store is released. Reads and writes
    /// are serialized on one connection. For tests and throw-away servers.
    case inMemory

    /// `":memory:"` means ``inMemory``; anything else is a file path.
    public init(path: String) {
        self = path == ":memory:" ? .inMemory : .file(path)
    }
}

/// The TapTrace database: scenes, their immutable versions, and runs.
///
/// ```swift
/// let store = try SQLiteTraceStore(location: StoreLocation(path: "taptrace.sqlite"))
/// let created = try store.createScene(name: "login", content: SceneContent(
///     document: json, viewCount: 12, windowCount: 1, recognizerCount: 2))
/// let v2 = try store.addVersion(sceneID: created.scene.id, content: edited,
///                               expectedCurrentVersion: 1)   // or StoreError.conflict
/// let run = try store.insertRun(NewRun(sceneID: v2.scene.id, sceneVersion: 2, ...))
/// let page = try store.listRuns(sceneID: v2.scene.id, limit: 20)
/// let next = try store.listRuns(sceneID: v2.scene.id, limit: 20, after: page.nextCursor)
/// ```
///
/// Thread safety: the store is `Sendable`; call it from any number of threads at once.
/// Every method is synchronous and runs in exactly one SQLite transaction, so an
/// operation that throws leaves nothing half-written. Writes are serialized (SQLite has
/// one writer); in a file database, reads run concurrently with them on WAL snapshots.
///
/// Errors: every method throws ``StoreError`` only; SQLite failures arrive as
/// ``StoreError/database(_:)``.
public final class SQLiteTraceStore: TraceStore {
    /// The largest `limit` a listing accepts.
    public static var maxPageSize: Int { TraceStoreLimits.maxPageSize }

    /// The page size of a database this store creates (decision 53). SQLite's default was 1 KiB
    /// until 3.12 and is 4 KiB since; stored dispatch writes about ten pages to the log a commit
    /// whatever their size, and with 1 KiB pages its latency tail is a little narrower. A
    /// database that exists keeps its own: in WAL mode SQLite cannot change it.
    static let newDatabasePageSize = 1024

    /// The newest schema version compiled into this binary.
    public static var supportedSchemaVersion: Int { Migration.embedded.last?.version ?? 0 }

    /// The GRDB connection (pool or queue). Internal so tests can inspect raw rows.
    let writer: any DatabaseWriter
    private let clock: StoreClock
    let recentResults = RecentResults()
    /// What the last operations told of the storage (`health()`).
    let storageStatus = StorageStatus()
    /// Finishes deletions in the background (`SQLiteTraceStore+Deletion.swift`).
    let purger = ScenePurger()
    /// Room kept on the disk for deleting when writes have filled it (file databases).
    let reserve: StorageReserve?
    /// How deletions are cut into transactions.
    let deletion: DeletionSettings
    /// Stored results looked up among the recent ones and not found (hashed), for tests.
    var resultMisses: Int { recentResults.misses }
    /// Ids of new runs, in the order they are written (decision 51).
    private let runIDs: RunIDSequence
    /// File databases only (an in-memory one has no write-ahead log).
    private let checkpointer: Checkpointer?
    /// The writer's checkpoints when the Checkpointer falls behind (decision 54).
    let logBackstop: LogBackstop
    private let supportedVersion: Int
    /// Set by ``close()`` (guarded by `closeLock`).
    nonisolated(unsafe) private var isClosed = false
    private let closeLock = NSLock()

    /// Opens (creating if needed) the database at `location` and applies pending migrations.
    ///
    /// - Parameter clock: The source of `created_at` / `updated_at`; inject a fixed or
    ///   stepping clock in tests.
    /// - Throws: ``StoreError/databaseTooNew(databaseVersion:supportedVersion:)`` when the
    ///   file was written by a newer binary, ``StoreError/database(_:)`` when SQLite fails.
    ///   - settings: Durability and size (``StoreSettings``); the defaults are the server's.
    ///
    /// A deletion that a process left unfinished (``deleteScene(id:)``) is finished on a
    /// thread of the store's own, in short transactions, while the store serves its callers.
    public convenience init(location: StoreLocation, clock: StoreClock = .system,
                            settings: StoreSettings = StoreSettings()) throws {
        try self.init(location: location, clock: clock, settings: settings, migrations: Migration.embedded)
    }

    /// Designated initializer; tests pass their own migration list.
    init(location: StoreLocation, clock: StoreClock, settings: StoreSettings = StoreSettings(),
         migrations: [Migration], checkpoints: Checkpointer.Settings = Checkpointer.Settings(),
         deletion: DeletionSettings = DeletionSettings()) throws {
        var configuration = Configuration()
        configuration.label = "TapTraceStore"
        configuration.foreignKeysEnabled = true  // ON DELETE CASCADE from scenes to versions to runs
        configuration.busyMode = .timeout(5)  // another process holding the write lock: wait up to 5 s
        let backstop = LogBackstop(limit: checkpoints.backstopFrames)
        configuration.prepareDatabase { db in
            // WAL + NORMAL: durable across application crashes; a power loss may lose the
            // last transactions but never corrupts the database. FULL syncs every commit
            // (`StoreSettings.Synchronous`).
            try db.execute(sql: "PRAGMA synchronous = \(settings.synchronous == .full ? "FULL" : "NORMAL")")
            // Takes effect only in a database with no page written yet (decision 53): GRDB
            // turns WAL on after this, and the migrations write the first pages.
            try db.execute(sql: "PRAGMA page_size = \(Self.newDatabasePageSize)")
            if let bytes = settings.maxDatabaseBytes {
                // In pages of this database's size (1 KiB for a new one, set just above).
                let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? Self.newDatabasePageSize
                try db.execute(sql: "PRAGMA max_page_count = \(max(1, bytes / pageSize))")
            }
            // The Checkpointer's thread checkpoints, never a commit (file databases).
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            // Every connection of the pool gets it; only the writer's commits report to it.
            backstop.install(on: db)
        }
        logBackstop = backstop
        self.clock = clock
        self.deletion = deletion
        self.supportedVersion = migrations.last?.version ?? 0
        do {
            switch location {
            case .file(let path):
                writer = try DatabasePool(path: path, configuration: configuration)  // WAL journal mode
                // GRDB sets NORMAL on the writer when it turns WAL on, after `prepareDatabase`;
                // only the writer commits, so FULL is set there once more.
                if settings.synchronous == .full {
                    try writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
                }
            case .inMemory:
                writer = try DatabaseQueue(configuration: configuration)
            }
            try MigrationRunner.migrate(writer, migrations: migrations) { [clock] in
                Timestamp.rfc3339(clock.now())
            }
            runIDs = RunIDSequence(after: try writer.read { db in
                try String.fetchOne(db, sql: "SELECT max(id) FROM runs")
            })
            if case .file(let path) = location {
                checkpointer = try Checkpointer(path: path, settings: checkpoints)
                reserve = StorageReserve(databasePath: path)
                reserve?.ensure()
            } else {
                checkpointer = nil
                reserve = nil
            }
        } catch {
            throw Self.storeError(error)
        }
        // Scenes whose deletion a process left unfinished (migration 0007).
        if (try? hasPendingDeletions()) == true { purger.wake(self) }
    }

    deinit {
        if !closeLock.withLock({ isClosed }) {
            purger.stop()
            try? checkpointer?.stop()
        }
    }

    /// SQLite writes on the caller's thread: the run writer's batches are all CPU (decision 48).
    public var writesOnCallingThread: Bool { true }

    /// Closes the database connections. Later calls throw ``StoreError/database(_:)``.
    /// Optional: releasing the store closes it too.
    public func close() throws {
        let wasClosed = closeLock.withLock {
            defer { isClosed = true }
            return isClosed
        }
        if wasClosed { throw Self.closedError }
        // A deletion in progress stops between two chunks; the next open finishes it.
        purger.stop()
        try translatingErrors {
            try checkpointer?.stop()
            // Copy the write-ahead log into the database file and empty it while the writer
            // is still open: GRDB closes the pool's readers last, and a read-only connection
            // closing last leaves the log behind for the next start to read again. Best
            // effort: another process reading keeps it (it stays valid, only longer).
            _ = try? writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
            try writer.close()
        }
    }

    // MARK: - Scenes

    /// Creates a scene whose version 1 is `content`.
    ///
    /// - Returns: The new scene (fresh `scn_` id, `latestVersion` 1) and its version 1.
    public func createScene(name: String?, content: SceneContent) throws -> StoredScene {
        try validate(content)
        return try write { db, now in
            let id = StoreID.make(prefix: StoreID.scenePrefix)
            try db.execute(
                sql: """
                    INSERT INTO scenes (id, name, created_at, updated_at, latest_version)
                    VALUES (?, ?, ?, ?, 1)
                    """,
                arguments: [id, name, now, now])
            try Self.insertVersion(db, sceneID: id, version: 1, content: content, now: now)
            return try Self.fetchStoredScene(db, sceneID: id, version: nil)
        }
    }

    /// Appends version `latestVersion + 1` to a scene.
    ///
    /// - Parameter expectedCurrentVersion: Optimistic concurrency. When given, the write
    ///   happens only if the scene's latest version is still this number; otherwise
    ///   ``StoreError/conflict(sceneID:expectedVersion:actualVersion:)`` is thrown and
    ///   nothing changes. Pass `nil` to append unconditionally.
    /// - Returns: The updated scene and the new version.
    @discardableResult
    public func addVersion(sceneID: String, content: SceneContent, expectedCurrentVersion: Int?) throws
        -> StoredScene
    {
        try appendVersion(sceneID: sceneID, rename: nil, content: content, expectedCurrentVersion: expectedCurrentVersion)
    }

    /// Like ``addVersion(sceneID:content:expectedCurrentVersion:)``, and also sets the scene's
    /// name to `name` (nil clears it) in the same transaction: the name follows the latest
    /// version's document.
    @discardableResult
    public func addVersion(sceneID: String, name: String?, content: SceneContent, expectedCurrentVersion: Int?)
        throws -> StoredScene
    {
        try appendVersion(sceneID: sceneID, rename: .some(name), content: content, expectedCurrentVersion: expectedCurrentVersion)
    }

    /// Both `addVersion`s: `rename` nil keeps the name, `.some(name)` sets it.
    private func appendVersion(sceneID: String, rename: String??, content: SceneContent, expectedCurrentVersion: Int?)
        throws -> StoredScene
    {
        try validate(content)
        return try write { db, now in
            guard
                let current = try Int.fetchOne(
                    db, sql: Self.latestVersionSQL, arguments: [sceneID])
            else { throw StoreError.sceneNotFound(sceneID: sceneID) }
            if let expected = expectedCurrentVersion, expected != current {
                throw StoreError.conflict(sceneID: sceneID, expectedVersion: expected, actualVersion: current)
            }
            let next = current + 1
            try Self.insertVersion(db, sceneID: sceneID, version: next, content: content, now: now)
            if let rename {
                try db.execute(
                    sql: "UPDATE scenes SET latest_version = ?, updated_at = ?, name = ? WHERE id = ?",
                    arguments: [next, now, rename, sceneID])
            } else {
                try db.execute(
                    sql: "UPDATE scenes SET latest_version = ?, updated_at = ? WHERE id = ?",
                    arguments: [next, now, sceneID])
            }
            return try Self.fetchStoredScene(db, sceneID: sceneID, version: nil)
        }
    }

    /// The latest version number of a scene, without reading any document (cheap: stored
    /// dispatch asks this on every request that names no version).
    ///
    /// - Throws: ``StoreError/sceneNotFound(sceneID:)``.
    public func latestVersion(sceneID: String) throws -> Int {
        try read { db in
            guard
                let version = try Int.fetchOne(
                    db.cachedStatement(sql: Self.latestVersionSQL), arguments: [sceneID])
            else { throw StoreError.sceneNotFound(sceneID: sceneID) }
            return version
        }
    }

    /// A scene with its latest version, or with `version` when given.
    ///
    /// - Throws: ``StoreError/sceneNotFound(sceneID:)``, ``StoreError/versionNotFound(sceneID:version:)``.
    public func scene(id: String, version: Int?) throws -> StoredScene {
        try read { db in try Self.fetchStoredScene(db, sceneID: id, version: version) }
    }

    /// Scenes, most recently created first.
    ///
    /// - Parameters:
    ///   - limit: 1...``maxPageSize``.
    ///   - cursor: `nil` for the first page, then the previous page's `nextCursor`.
    public func listScenes(limit: Int, after cursor: String?) throws -> Page<SceneRecord> {
        try validate(limit: limit)
        let before = try cursor.map { try PageCursor(decoding: $0, for: .scenes).seq }
        return try read { db in
            let rows = try Row.fetchAll(db, sql: Self.newestScenesSQL, arguments: [before, limit + 1])
            return Self.page(rows, limit: limit, listing: .scenes, map: Self.sceneRecord)
        }
    }

    /// All versions of a scene, oldest first, without their documents.
    public func listVersions(sceneID: String) throws -> [SceneVersionInfo] {
        try read { db in
            try Self.requireScene(db, sceneID)
            return try Row.fetchAll(
                db,
                sql: "SELECT \(Self.versionInfoColumns) FROM scene_versions WHERE scene_id = ? ORDER BY version",
                arguments: [sceneID]
            ).map(Self.versionInfo)
        }
    }

    // MARK: - Runs

    /// Records a run only if its version is still the scene's latest.
    ///
    /// For callers that ran the touches against "the latest version" as they last knew it
    /// (the service keeps that number in memory instead of asking the database on every
    /// request): the check happens inside the write transaction, so a newer version written
    /// meanwhile, by this process or another one, is never missed.
    ///
    /// - Throws: ``StoreError/conflict(sceneID:expectedVersion:actualVersion:)`` when the scene
    ///   has a newer version (nothing is written; run again against `actualVersion`), or as
    ///   ``insertRun(_:)``.
    public func insertRun(_ run: NewRun, requireLatest: Bool) throws -> RunRecord {
        try insertRunsIndependently([(run, requireLatest)])[0].get()
    }

    /// Records runs gathered from concurrent requests in one transaction (group commit: one
    /// commit, and its WAL writes, for all of them), each judged on its own as
    /// ``insertRun(_:requireLatest:)`` judges it: a run whose scene is gone, whose version does
    /// not exist or, with `requireLatest`, is no longer the latest is not written and gets its
    /// error, the others are written.
    ///
    /// Runs not ``prepare(_:)``d yet are prepared first, on the caller's thread, outside the
    /// transaction.
    ///
    /// - Returns: Per run, in the order given, its record or why it was not written.
    /// - Throws: When the transaction itself fails; then nothing was written.
    public func insertRunsIndependently(_ runs: [(run: NewRun, requireLatest: Bool)]) throws
        -> [Result<RunRecord, StoreError>]
    {
        let runs = Array(zip(prepare(runs.map(\.run)), runs.map(\.requireLatest)))
        return try writeRuns { db, batch in
            // The checks only read, so a refused run leaves nothing behind to roll back.
            var latest = LatestVersions()
            var outcomes: [Result<RunRecord, StoreError>] = []
            outcomes.reserveCapacity(runs.count)
            for (run, requireLatest) in runs {
                do {
                    outcomes.append(.success(try Self.insertCheckedRun(
                        db, run, requireLatest: requireLatest, latest: &latest, batch: batch)))
                } catch let error as StoreError {
                    outcomes.append(.failure(error))
                }
            }
            return outcomes
        }
    }

    /// Each scene's latest version as read once in a transaction; nil when the scene does not
    /// exist. Valid for that transaction only: it writes runs, never versions.
    private struct LatestVersions {
        private var known: [String: Int?] = [:]

        mutating func of(_ sceneID: String, in db: Database) throws -> Int? {
            if let latest = known[sceneID] { return latest }
            let latest = try Int.fetchOne(
                db.cachedStatement(sql: SQLiteTraceStore.latestVersionSQL), arguments: [sceneID])
            known[sceneID] = latest
            return latest
        }
    }

    /// Checks a run as ``insertRun(_:requireLatest:)`` describes, then writes it.
    private static func insertCheckedRun(_ db: Database, _ run: NewRun, requireLatest: Bool,
                                         latest: inout LatestVersions, batch: RunBatch) throws -> RunRecord {
        guard run.actionCount >= 0 else { throw StoreError.invalidArgument("actionCount must not be negative") }
        if let refusal = run.refusal(requireLatest: requireLatest, latest: try latest.of(run.sceneID, in: db)) {
            throw refusal
        }
        return try insertRunRow(db, run, batch: batch)
    }

    private static func insertRunRow(_ db: Database, _ run: NewRun, batch: RunBatch) throws -> RunRecord {
        var id = batch.ids.next(at: batch.date)
        let now = batch.now
        let resultID = try resultRow(db, run, sharing: batch.sharing)
        // The statement is cached (preparing it cost as much as executing it) and its values
        // bound without GRDB's argument conversion (`RunRowInsert`; docs/performance.md).
        while true {
            if try RunRowInsert.execute(db, id: id, run: run, createdAt: now, resultID: resultID) { break }
            // The id is taken: another process wrote runs since this one opened the store (its
            // ids grow from the same largest id). Go on after the largest now stored.
            batch.ids.advance(past: try String.fetchOne(db, sql: "SELECT max(id) FROM runs"))
            id = batch.ids.next(at: batch.date)
        }
        let summary = RunSummary(
            id: id, seq: db.lastInsertedRowID, sceneID: run.sceneID, sceneVersion: run.sceneVersion,
            createdAt: now, firstResponder: run.firstResponder, actions: run.actions,
            outcome: run.outcome, actionCount: run.actionCount, label: run.label)
        return RunRecord(summary: summary, request: run.request, result: run.result)
    }

    /// The `run_results` row holding `result` for the scene (migration 0002): an identical
    /// document stored before (found by digest, confirmed byte for byte, or among the recent
    /// ones when the run was prepared), or a new row. A harness re-running the same touches
    /// against the same version stores its 20 KB trace once instead of once per run.
    ///
    /// Nothing here compresses or hashes: ``prepare(_:)`` did, before the transaction.
    private static func resultRow(_ db: Database, _ run: NewRun, sharing: RecentResults.Sharing) throws -> Int64 {
        let sceneID = run.sceneID, result = run.result
        let digest: Int64, stored: (encoding: String, bytes: Data)
        switch run.preparedResult ?? PreparedResult.encoding(run.result) {
        case .recent(let id):
            // Valid while the scene exists, which the caller checked in this transaction.
            return id
        case .encoded(let d, let encoding, let bytes):
            digest = d
            stored = (encoding, bytes)
        }
        if let id = sharing.learnedID(sceneID: sceneID, digest: digest, bytes: result) { return id }
        let candidates = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT id, encoding, bytes FROM run_results WHERE scene_id = ? AND digest = ?"),
            arguments: [sceneID, digest])
        var found: Int64?
        while let row = try candidates.next() {
            let encoding: String = row["encoding"]
            // Equal stored bytes in the same encoding are equal documents (decompression is a
            // function); otherwise the document itself is compared.
            let same = try row.withUnsafeData(named: "bytes") { bytes in
                guard let bytes else { return false }
                return try encoding == stored.encoding && bytes == stored.bytes
                    || ResultCompression.decode(encoding: encoding, bytes: bytes) == result
            }
            if same {
                found = row["id"]
                break
            }
        }
        if found == nil {
            try db.cachedStatement(
                sql: "INSERT INTO run_results (scene_id, digest, encoding, bytes) VALUES (?, ?, ?, ?)"
            ).execute(arguments: [sceneID, digest, stored.encoding, stored.bytes])
            found = db.lastInsertedRowID
        }
        sharing.learn(sceneID: sceneID, digest: digest, .init(id: found!, bytes: result))
        return found!
    }

    /// Records several runs in one transaction: all of them, or none when one fails (replay
    /// stores every replayed run at once).
    ///
    /// - Returns: The stored runs, in the order given.
    /// - Throws: As ``insertRun(_:)``; nothing is written then.
    @discardableResult
    public func insertRuns(_ runs: [NewRun]) throws -> [RunRecord] {
        // Compressed and hashed before the transaction: a replay's thousands of results would
        // otherwise hold the write lock for as long.
        let runs = prepare(runs)
        return try writeRuns { db, batch in
            // The same checks as every other run insert; the first refusal rolls all back.
            var latest = LatestVersions()
            return try runs.map {
                try Self.insertCheckedRun(db, $0, requireLatest: false, latest: &latest, batch: batch)
            }
        }
    }

    /// A run with its request and result documents.
    ///
    /// - Throws: ``StoreError/runNotFound(runID:)``.
    public func run(id: String) throws -> RunRecord {
        try read { db in
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT \(Self.runColumns), request, \(Self.resultColumn) FROM runs WHERE id = ? AND \(Self.runOfVisibleScene)"),
                    arguments: [id])
            else { throw StoreError.runNotFound(runID: id) }
            return try Self.runRecord(row)
        }
    }

    /// Runs of a scene (all versions), newest first, without their documents.
    ///
    /// Pages are stable under concurrent inserts: the cursor is the `seq` of the last run
    /// returned, so runs recorded after the first page never appear in, nor shift, later pages.
    ///
    /// - Parameters:
    ///   - limit: 1...``maxPageSize``.
    ///   - cursor: `nil` for the first page, then the previous page's `nextCursor`.
    ///   - label: only the runs stored with this label.
    /// - Throws: ``StoreError/sceneNotFound(sceneID:)``, ``StoreError/invalidCursor(_:)``.
    public func listRuns(sceneID: String, limit: Int, after cursor: String?, label: String?) throws -> Page<RunSummary> {
        try validate(limit: limit)
        let before = try cursor.map { try PageCursor(decoding: $0, for: .runs).seq }
        return try read { db in
            try Self.requireScene(db, sceneID)
            let rows = try label.map { label in
                try Row.fetchAll(db, sql: Self.newestLabelledRunsSQL, arguments: [sceneID, before, limit + 1, label])
            } ?? Row.fetchAll(db, sql: Self.newestRunsSQL, arguments: [sceneID, before, limit + 1])
            return Self.page(rows, limit: limit, listing: .runs, map: Self.runSummary)
        }
    }

    /// How many runs one scene version has, and the `seq` of its newest (0 when none): what a
    /// replay checks against its limit before reading any run, and where its pages stop.
    ///
    /// - Throws: ``StoreError/sceneNotFound(sceneID:)``, ``StoreError/versionNotFound(sceneID:version:)``.
    public func runExtent(sceneID: String, version: Int) throws -> VersionRunExtent {
        try read { db in
            try Self.requireVersion(db, sceneID, version)
            let row = try Row.fetchOne(
                db, sql: "SELECT count(*) AS n, coalesce(max(seq), 0) AS last FROM runs WHERE scene_id = ? AND scene_version = ?",
                arguments: [sceneID, version])
            return VersionRunExtent(count: row?["n"] ?? 0, lastSeq: row?["last"] ?? 0)
        }
    }

    /// A page of one scene version's runs with their documents, in insertion order: at most
    /// `limit` runs with `seq` after `after` and up to `through`. Replay reads its originals
    /// this way, a page at a time, instead of holding every document at once.
    ///
    /// - Throws: ``StoreError/sceneNotFound(sceneID:)``, ``StoreError/versionNotFound(sceneID:version:)``.
    public func runs(sceneID: String, version: Int, after: Int64, through: Int64, limit: Int) throws -> [RunRecord] {
        try read { db in
            try Self.requireVersion(db, sceneID, version)
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.runColumns), request, \(Self.resultColumn) FROM runs
                    WHERE scene_id = ? AND scene_version = ? AND seq > ? AND seq <= ? ORDER BY seq LIMIT ?
                    """,
                arguments: [sceneID, version, after, through, limit]
            ).map { try Self.runRecord($0) }
        }
    }

    // MARK: - Health

    /// Reads the schema version in a read transaction, and reports a storage failure that the
    /// last writes met (a full or failing disk) until a write succeeds again. Never throws:
    /// failures are reported in ``StoreHealth/ok``, ``StoreHealth/storage`` and
    /// ``StoreHealth/error``.
    ///
    /// While a failure is known, a call writes a probe of 64 KiB (and deletes it again), at most
    /// once a second (migration 0008): so the report clears once the storage takes writes
    /// again, even when no client writes.
    /// SQLite's `PRAGMA integrity_check` of the whole file: `["ok"]`, or what is wrong. Reads
    /// every page, so it takes as long as the database is large: for tests and maintenance,
    /// not for `/health`.
    public func integrityCheck() throws -> [String] {
        do {
            return try read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        } catch {
            throw Self.storeError(error)
        }
    }

    public func health() -> StoreHealth {
        var health = StoreHealth(ok: false, supportedSchemaVersion: supportedVersion)
        if storageStatus.probeDue() { probeStorage() }
        do {
            // Cached statements: preparing both on every call was a fifth of a `/health`
            // request's instructions (callgrind; brief: nothing per request that can be done
            // once).
            let (version, journalMode) = try read { db in
                (try MigrationRunner.currentVersion(db), try String.fetchOne(db.cachedStatement(sql: "PRAGMA journal_mode")))
            }
            health.schemaVersion = version
            health.journalMode = journalMode
            if version == supportedVersion {
                health.ok = true
            } else {
                health.error = "schema version \(version), expected \(supportedVersion)"
            }
        } catch {
            health.error = Self.storeError(error).description
        }
        if let failure = storageStatus.failure {
            health.ok = false
            health.storage = failure
            health.error = failure.description
        }
        return health
    }

    /// A write that needs new pages and log frames, as stored runs do; its success clears the
    /// known failure (`writeAtNow`), its failure renews it (`translatingErrors`).
    private func probeStorage() {
        let filler = Data(count: 64 * 1024)
        guard (try? write({ db, _ in
            try db.execute(sql: "INSERT INTO health_probe (filler) VALUES (?)", arguments: [filler])
        })) != nil else { return }
        _ = try? write { db, _ in try db.execute(sql: "DELETE FROM health_probe") }
    }
}

// MARK: - Implementation

extension StoreHealth {
    fileprivate init(ok: Bool, supportedSchemaVersion: Int) {
        self.init(ok: ok, schemaVersion: nil, supportedSchemaVersion: supportedSchemaVersion, journalMode: nil, error: nil)
    }
}

extension SQLiteTraceStore {
    private static let versionInfoColumns = """
        scene_id, version, content_hash, view_count, window_count, recognizer_count,
        length(document) AS document_size, created_at
        """
    private static let runColumns = """
        id, seq, scene_id, scene_version, created_at, first_responder, actions, outcome, action_count, label
        """

    /// Pages of history, newest first, before a cursor's `seq` or from the newest: a range on
    /// `seq` (`coalesce` with the largest rowid), so a page deep in the history starts where
    /// the cursor points instead of stepping over every newer row (`?2 IS NULL OR seq < ?2`
    /// did; the query plans are tested).
    static let newestScenesSQL = """
        SELECT seq, id, name, created_at, updated_at, latest_version FROM scenes
        WHERE seq < coalesce(?1, 9223372036854775807) AND deleted_at IS NULL
        ORDER BY seq DESC LIMIT ?2
        """
    /// A scene's latest version; no row for a scene that does not exist or is being deleted
    /// (migration 0007: every query that names a scene hides the ones being deleted).
    static let latestVersionSQL = "SELECT latest_version FROM scenes WHERE id = ? AND deleted_at IS NULL"
    /// Whether a run's scene is not being deleted (`runs` is read by run id alone there).
    private static let runOfVisibleScene =
        "EXISTS (SELECT 1 FROM scenes WHERE scenes.id = runs.scene_id AND scenes.deleted_at IS NULL)"
    static let newestRunsSQL = """
        SELECT \(runColumns) FROM runs
        WHERE scene_id = ?1 AND seq < coalesce(?2, 9223372036854775807)
        ORDER BY seq DESC LIMIT ?3
        """
    /// The same for one label (`runs_by_scene_label`, migration 0004).
    static let newestLabelledRunsSQL = """
        SELECT \(runColumns) FROM runs
        WHERE scene_id = ?1 AND label = ?4 AND seq < coalesce(?2, 9223372036854775807)
        ORDER BY seq DESC LIMIT ?3
        """

    /// A run's result document, from `run_results` (migration 0002).
    private static let resultColumn = """
        (SELECT encoding FROM run_results WHERE run_results.id = runs.result_id) AS result_encoding,
        (SELECT bytes FROM run_results WHERE run_results.id = runs.result_id) AS result
        """

    /// A write that stores runs: results it wrote or found are remembered once it commits.
    private func writeRuns<T>(_ body: (Database, RunBatch) throws -> T) throws -> T {
        let sharing = RecentResults.Sharing(recentResults)
        let value = try writeAtNow { db, date in
            try body(db, RunBatch(date: date, now: Timestamp.rfc3339(date), ids: runIDs, sharing: sharing))
        }
        sharing.committed()
        return value
    }

    /// What every run written in one transaction shares: the operation's time, the source of
    /// their ids and the results the transaction wrote or found.
    private struct RunBatch {
        var date: Date
        var now: String
        var ids: RunIDSequence
        var sharing: RecentResults.Sharing
    }

    /// Runs `body` in a write transaction with the operation's timestamp (internal: the store's
    /// extensions in other files write through it too).
    func write<T>(_ body: (Database, String) throws -> T) throws -> T {
        try writeAtNow { db, date in try body(db, Timestamp.rfc3339(date)) }
    }

    /// Runs `body` in a write transaction with the operation's time.
    private func writeAtNow<T>(_ body: (Database, Date) throws -> T) throws -> T {
        let result = try commitAtNow(body)
        // The storage takes writes: the room kept for deleting is made again once there is
        // enough to spare (`StorageReserve`), outside the writer's turn.
        reserve?.ensureSoon()
        return result
    }

    private func commitAtNow<T>(_ body: (Database, Date) throws -> T) throws -> T {
        try perform {
            try writer.writeWithoutTransaction { db in
                let result = try Self.inTransaction(db) { try body(db, clock.now()) }
                // A commit: the storage takes writes (again).
                storageStatus.committed()
                // The log is long: restart it here, between two transactions of the writer
                // (the Checkpointer cannot win the lock against a busy writer). Most of it is
                // in the database file already; a failure only means trying after the next.
                if checkpointer?.takeRestartRequest() == true {
                    _ = try? db.checkpoint(.restart)
                } else if logBackstop.isDue {
                    if checkpointer?.hasFallenBehind() ?? true {
                        // A long log and a Checkpointer that does not come round (`LogBackstop`).
                        let counts = try? db.checkpoint(.passive)
                        logBackstop.attempted(copiedAll: counts.map { $0.checkpointedFrameCount >= $0.walFrameCount } ?? false)
                    } else {
                        logBackstop.postpone()
                    }
                }
                return result
            }
        }
    }

    /// `Database.inTransaction` (an immediate transaction, rolled back when `body` throws), with
    /// its BEGIN and COMMIT statements prepared once per connection instead of for every
    /// transaction. Stored dispatch commits about a thousand batches a second, and preparing
    /// those two statements took about 6 % of the run writer's time (`perf`) and 24k
    /// instructions per transaction (callgrind; docs/performance.md).
    private static func inTransaction<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        try db.cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
        do {
            let result = try body()
            try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
            return result
        } catch {
            // As GRDB does: a failed statement may have rolled the transaction back already;
            // `rollback()` only acts while one is open.
            try? db.rollback()
            throw error
        }
    }

    /// Runs `body` in a read transaction (a consistent snapshot).
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try perform { try writer.read(body) }
    }

    /// Runs `body` unless the store is closed: GRDB's closed connections must not be used
    /// (SQLite dereferences a freed handle; CloseTests).
    private func perform<T>(_ body: () throws -> T) throws -> T {
        if closeLock.withLock({ isClosed }) { throw Self.closedError }
        return try translatingErrors(body)
    }

    private static let closedError = StoreError.database("the store is closed")

    private func translatingErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            let failure = Self.storeError(error)
            // Remembered for `health()`; a busy database is another process's doing.
            if case .storage(let storage) = failure, storage.kind != .busy { storageStatus.failed(storage) }
            throw failure
        }
    }

    static func storeError(_ error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? DatabaseError {
            if let kind = StorageFailure.Kind(error.resultCode) {
                // SQLite's message, with the extended code that tells I/O errors apart.
                let code = error.extendedResultCode.rawValue
                return .storage(StorageFailure(kind: kind, message: "SQLite \(code): \(error.message ?? "no message")"))
            }
            return .database("\(error.resultCode): \(error.message ?? "no message")")
        }
        return .database(String(describing: error))
    }

    private func validate(limit: Int) throws {
        guard (1...Self.maxPageSize).contains(limit) else {
            throw StoreError.invalidArgument("limit must be between 1 and \(Self.maxPageSize), got \(limit)")
        }
    }

    private func validate(_ content: SceneContent) throws {
        guard content.viewCount >= 0, content.windowCount >= 0, content.recognizerCount >= 0 else {
            throw StoreError.invalidArgument("view, window and recognizer counts must not be negative")
        }
    }

    static func requireScene(_ db: Database, _ sceneID: String) throws {
        guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM scenes WHERE id = ? AND deleted_at IS NULL"), arguments: [sceneID]) != nil else {
            throw StoreError.sceneNotFound(sceneID: sceneID)
        }
    }

    static func requireVersion(_ db: Database, _ sceneID: String, _ version: Int) throws {
        let found = try Bool.fetchOne(
            db.cachedStatement(sql: """
                SELECT 1 FROM scene_versions JOIN scenes ON scenes.id = scene_versions.scene_id
                WHERE scene_versions.scene_id = ? AND scene_versions.version = ? AND scenes.deleted_at IS NULL
                """),
            arguments: [sceneID, version])
        if found == nil {
            try requireScene(db, sceneID)
            throw StoreError.versionNotFound(sceneID: sceneID, version: version)
        }
    }

    private static func insertVersion(_ db: Database, sceneID: String, version: Int, content: SceneContent, now: String)
        throws
    {
        try db.execute(
            sql: """
                INSERT INTO scene_versions (scene_id, version, document, content_hash,
                                            view_count, window_count, recognizer_count, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                sceneID, version, content.document, content.contentHash,
                content.viewCount, content.windowCount, content.recognizerCount, now,
            ])
    }

    private static func fetchStoredScene(_ db: Database, sceneID: String, version: Int?) throws -> StoredScene {
        guard
            let sceneRow = try Row.fetchOne(
                db, sql: "SELECT id, name, created_at, updated_at, latest_version FROM scenes WHERE id = ? AND deleted_at IS NULL",
                arguments: [sceneID])
        else { throw StoreError.sceneNotFound(sceneID: sceneID) }
        let scene = sceneRecord(sceneRow)
        let wanted = version ?? scene.latestVersion
        guard
            let versionRow = try Row.fetchOne(
                db,
                sql: "SELECT \(versionInfoColumns), document FROM scene_versions WHERE scene_id = ? AND version = ?",
                arguments: [sceneID, wanted])
        else { throw StoreError.versionNotFound(sceneID: sceneID, version: wanted) }
        return StoredScene(scene: scene, version: SceneVersion(info: versionInfo(versionRow), document: versionRow["document"]))
    }

    /// Turns `limit + 1` fetched rows into a page: the extra row only tells that more exist.
    private static func page<Item>(_ rows: [Row], limit: Int, listing: PageCursor.Listing, map: (Row) -> Item)
        -> Page<Item>
    {
        let visible = rows.prefix(limit)
        var next: String?
        if rows.count > limit, let last = visible.last {
            next = PageCursor(listing: listing, seq: last["seq"]).encoded
        }
        return Page(items: visible.map(map), nextCursor: next)
    }

    private static func sceneRecord(_ row: Row) -> SceneRecord {
        SceneRecord(
            id: row["id"], name: row["name"], createdAt: row["created_at"], updatedAt: row["updated_at"],
            latestVersion: row["latest_version"])
    }

    private static func versionInfo(_ row: Row) -> SceneVersionInfo {
        SceneVersionInfo(
            sceneID: row["scene_id"], version: row["version"], contentHash: row["content_hash"],
            viewCount: row["view_count"], windowCount: row["window_count"], recognizerCount: row["recognizer_count"],
            documentSize: row["document_size"], createdAt: row["created_at"])
    }

    private static func runSummary(_ row: Row) -> RunSummary {
        RunSummary(
            id: row["id"], seq: row["seq"], sceneID: row["scene_id"], sceneVersion: row["scene_version"],
            createdAt: row["created_at"], firstResponder: row["first_responder"], actions: row["actions"],
            outcome: row["outcome"], actionCount: row["action_count"], label: row["label"])
    }

    private static func runRecord(_ row: Row) throws -> RunRecord {
        RunRecord(summary: runSummary(row), request: row["request"],
                  result: try ResultCompression.decode(encoding: row["result_encoding"], bytes: row["result"]))
    }
}
