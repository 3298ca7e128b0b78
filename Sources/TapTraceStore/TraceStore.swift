import Foundation

/// The TapTrace database: scenes, their immutable versions, runs and screenshots.
///
/// Two implementations keep the same promises: ``SQLiteTraceStore`` (one file, the embedded
/// default) and `PostgresTraceStore` (module TapTraceStorePostgres: a shared PostgreSQL
/// database that several `taptrace serve` processes use at once). The service holds an
/// `any TraceStore` and does not know which it has; ``TraceStoreLocation`` tells which a
/// `--db` value names.
///
/// ```swift
/// let created = try store.createScene(name: "login", content: SceneContent(
///     document: json, viewCount: 12, windowCount: 1, recognizerCount: 2))
/// let v2 = try store.addVersion(sceneID: created.scene.id, content: edited,
///                               expectedCurrentVersion: 1)   // or StoreError.conflict
/// let run = try store.insertRun(NewRun(sceneID: v2.scene.id, sceneVersion: 2, ...))
/// let page = try store.listRuns(sceneID: v2.scene.id, limit: 20)
/// let next = try store.listRuns(sceneID: v2.scene.id, limit: 20, after: page.nextCursor)
/// ```
///
/// What both promise (the store suite runs every case against both engines):
/// - Every method is synchronous, may be called from any number of threads at once, and runs
///   in one transaction: an operation that throws leaves nothing half-written.
/// - Ids are `scn_` / `run_` and 12 base32 characters; the run ids one process hands out grow
///   in the order it writes them (across processes, `seq` is the order). Versions are 1, 2, … per scene with no gap; `If-Match` style writes
///   (`expectedCurrentVersion`, `requireLatest`) are decided inside the write transaction, so
///   exactly one of two conflicting writers wins, whichever process it runs in.
/// - Listings are newest first, a cursor (opaque, ``PageCursor``) continues after the last item
///   of a page; `createdAt` is RFC 3339 UTC with milliseconds.
/// - Errors are ``StoreError`` only; a storage or connection failure is
///   ``StoreError/storage(_:)`` (the service answers 503), never a hang.
public protocol TraceStore: AnyObject, Sendable {
    // MARK: Scenes

    /// Creates a scene whose version 1 is `content`.
    func createScene(name: String?, content: SceneContent) throws -> StoredScene

    /// Appends version `latestVersion + 1`; with `expectedCurrentVersion`, only if the latest is
    /// still that number (else ``StoreError/conflict(sceneID:expectedVersion:actualVersion:)``).
    @discardableResult
    func addVersion(sceneID: String, content: SceneContent, expectedCurrentVersion: Int?) throws -> StoredScene

    /// As the other `addVersion`, and sets the scene's name to `name` (nil clears it).
    @discardableResult
    func addVersion(sceneID: String, name: String?, content: SceneContent, expectedCurrentVersion: Int?)
        throws -> StoredScene

    /// The latest version number of a scene, without reading any document.
    func latestVersion(sceneID: String) throws -> Int

    /// A scene with its latest version, or with `version` when given.
    func scene(id: String, version: Int?) throws -> StoredScene

    /// Scenes, most recently created first (`limit` 1...``TraceStoreLimits/maxPageSize``).
    func listScenes(limit: Int, after cursor: String?) throws -> Page<SceneRecord>

    /// All versions of a scene, oldest first, without their documents.
    func listVersions(sceneID: String) throws -> [SceneVersionInfo]

    /// Deletes a scene with its versions, screenshots, runs and results. Once it returns (or
    /// once the marking commits), the scene and its runs are not found by anyone.
    @discardableResult
    func deleteScene(id: String) throws -> DeletedScene

    // MARK: Runs

    /// `run` with its result hashed and compressed (or found among recent ones) on the
    /// caller's thread, so that the writing thread only writes. Optional before an insert.
    func prepare(_ run: NewRun) -> NewRun

    /// Records a run; with `requireLatest`, only if its version is still the scene's latest.
    @discardableResult
    func insertRun(_ run: NewRun, requireLatest: Bool) throws -> RunRecord

    /// Records runs gathered from concurrent requests together (group commit), each judged on
    /// its own as ``insertRun(_:requireLatest:)`` judges it.
    func insertRunsIndependently(_ runs: [(run: NewRun, requireLatest: Bool)]) throws
        -> [Result<RunRecord, StoreError>]

    /// Records several runs: all of them, or none when one fails (replay).
    @discardableResult
    func insertRuns(_ runs: [NewRun]) throws -> [RunRecord]

    /// A run with its request and result documents.
    func run(id: String) throws -> RunRecord

    /// Runs of a scene (all versions), newest first, without their documents.
    func listRuns(sceneID: String, limit: Int, after cursor: String?, label: String?) throws -> Page<RunSummary>

    /// How many runs one scene version has, and the `seq` of its newest (0 when none).
    func runExtent(sceneID: String, version: Int) throws -> VersionRunExtent

    /// A page of one scene version's runs with their documents, in insertion order: at most
    /// `limit` runs with `seq` after `after` and up to `through`.
    func runs(sceneID: String, version: Int, after: Int64, through: Int64, limit: Int) throws -> [RunRecord]

    // MARK: Screenshots

    /// Attaches (or replaces) a version's screenshot.
    @discardableResult
    func putScreenshot(sceneID: String, version: Int, _ screenshot: NewScreenshot) throws -> StoredScreenshot

    /// A version's screenshot, nil when it has none.
    func screenshot(sceneID: String, version: Int) throws -> Screenshot?

    /// A version's screenshot without its bytes, nil when it has none.
    func screenshotInfo(sceneID: String, version: Int) throws -> ScreenshotInfo?

    /// Every screenshot of a scene without their bytes, by version.
    func screenshotInfos(sceneID: String) throws -> [ScreenshotInfo]

    /// Removes a version's screenshot; false when it had none.
    @discardableResult
    func deleteScreenshot(sceneID: String, version: Int) throws -> Bool

    // MARK: Health and life

    /// Whether a write runs on the calling thread from its start to its commit (SQLite, in this
    /// process), rather than mostly waiting for a server to answer (PostgreSQL). The service's
    /// run writer takes turns on the request threads' processors, in Linux's batch class, only
    /// in the first case (decision 48): a writer asleep on the network would wait, at every
    /// answer, for a busy request thread to yield its processor (decision 144).
    var writesOnCallingThread: Bool { get }

    /// Whether the database answers with the schema this binary expects, and what the last
    /// writes met. Never throws.
    func health() -> StoreHealth

    /// Closes the connections; later calls throw ``StoreError/database(_:)``.
    func close() throws
}

extension TraceStore {
    /// The latest version as ``scene(id:version:)`` with no version.
    public func scene(id: String) throws -> StoredScene { try scene(id: id, version: nil) }

    /// ``addVersion(sceneID:content:expectedCurrentVersion:)``, unconditionally.
    @discardableResult
    public func addVersion(sceneID: String, content: SceneContent) throws -> StoredScene {
        try addVersion(sceneID: sceneID, content: content, expectedCurrentVersion: nil)
    }

    /// Records a run of an existing scene version, whatever the latest version is.
    @discardableResult
    public func insertRun(_ run: NewRun) throws -> RunRecord { try insertRun(run, requireLatest: false) }

    /// The first page of scenes.
    public func listScenes(limit: Int) throws -> Page<SceneRecord> { try listScenes(limit: limit, after: nil) }

    /// The first page of a scene's runs, or the page after `cursor`.
    public func listRuns(sceneID: String, limit: Int, after cursor: String? = nil) throws -> Page<RunSummary> {
        try listRuns(sceneID: sceneID, limit: limit, after: cursor, label: nil)
    }

    /// Every run of one scene version with its documents, in insertion order.
    public func runs(sceneID: String, version: Int) throws -> [RunRecord] {
        try runs(sceneID: sceneID, version: version, after: 0, through: .max, limit: .max)
    }
}

/// Limits both engines share.
public enum TraceStoreLimits {
    /// The largest `limit` a listing accepts.
    public static let maxPageSize = 1000
}
