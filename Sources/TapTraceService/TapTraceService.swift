import Foundation
import TapTraceCore
import TapTraceFormats
import TapTraceHTTP
import TapTraceStore

/// The REST API of contract §6: the engine (TapTraceCore) behind HTTP (TapTraceHTTP), with
/// scenes, versions and runs kept by TapTraceStore.
///
///     let service = TapTraceService(store: try TraceStore(location: .file("taptrace.sqlite")))
///     var configuration = HTTPServerConfiguration(port: 8080)
///     configuration.errorResponder = TapTraceService.errorResponder
///     let server = HTTPServer(configuration: configuration, router: service.router())
///
/// Handlers are plain `@Sendable` functions that libmicrohttpd's threads call concurrently;
/// the store and the scene cache are safe to share between them.
public final class TapTraceService: Sendable {
    /// The service's version, reported by `GET /health`.
    public static let version = "0.1.0"

    public let store: any TraceStore
    let scenes: SceneCache<StoredSceneKey>
    let statelessScenes: StatelessSceneCache
    let latestVersions = LatestVersions()
    /// Stored dispatch's runs, written in group commits.
    let runWriter: RunWriter
    /// Where replays are computed, one at a time, off the HTTP worker threads.
    let replayQueue = DispatchQueue(label: "TapTrace-replay")
    /// The most runs one replay re-runs (decision 45).
    let replayLimit: Int
    public static let defaultReplayLimit = 10_000
    /// The largest screenshot a version takes, in bytes (`PUT …/versions/{n}/screenshot`).
    let screenshotLimit: Int
    /// 8 MiB: a full-resolution PNG screenshot of an iPhone or iPad screen is a few megabytes.
    public static let defaultScreenshotLimit = 8 << 20
    /// Where unexpected failures (500s) are reported; the client gets no internals.
    let errorLog: @Sendable (String) -> Void
    /// Gives memory back once the caches have been idle for a while (`CacheSettings`).
    let memoryRelease: IdleMemoryRelease?
    /// What one request may cost (`Limits`; `RequestLimits.swift`).
    let limits: Limits
    /// How long one request's work may take; nil: no budget.
    let requestTimeBudget: Duration?
    public static let defaultRequestTimeBudget: Duration = .seconds(30)
    /// Where `/v1` requests are worked on; nil: on the thread that read the request.
    let workPool: WorkPool?

    /// How stored dispatch writes its runs.
    public enum RunWriting: Sendable {
        /// By one writer thread, in group commits (decision 47): what `taptrace serve` uses.
        case groupCommit
        /// Each run by the request's own thread, in a transaction of its own, before the
        /// response completes: one thread does all the work, so that instruction counts of a
        /// stored dispatch do not depend on how threads interleave (`bench/guard`).
        case inline
    }

    public init(store: any TraceStore, sceneCacheCapacity: Int = 256, replayLimit: Int = defaultReplayLimit,
                runWriting: RunWriting = .groupCommit, screenshotLimit: Int = defaultScreenshotLimit,
                limits: Limits = .serviceDefaults, requestTimeBudget: Duration? = defaultRequestTimeBudget,
                caches: CacheSettings = CacheSettings(), workThreads: Int = 0,
                errorLog: @escaping @Sendable (String) -> Void = { _ in }) {
        self.store = store
        self.workPool = workThreads > 0 ? WorkPool(heavyThreads: workThreads) : nil
        self.limits = limits
        self.requestTimeBudget = requestTimeBudget
        self.replayLimit = replayLimit
        self.screenshotLimit = screenshotLimit
        let scenes = SceneCache<StoredSceneKey>(capacity: sceneCacheCapacity, maxBytes: caches.sceneCacheBytes)
        self.scenes = scenes
        self.runWriter = RunWriter(store: store, inline: runWriting == .inline)
        let stateless = StatelessSceneCache(capacity: max(1, sceneCacheCapacity / 4), maxBytes: caches.statelessCacheBytes)
        self.statelessScenes = stateless
        self.memoryRelease = caches.idleMemoryRelease.map { interval in
            IdleMemoryRelease(interval: interval, activity: { scenes.useCount &+ stateless.scenes.useCount })
        }
        self.errorLog = errorLog
    }

    /// Answers TapTraceHTTP's own errors (404, 405, 413, 414, 431) as problem documents.
    public static let errorResponder: HTTPErrorResponder = { status, detail in
        .problem(Problem.fromServer(status: status, detail: detail))
    }

    /// Runs the run writer's commits on these processors in turn (the HTTP server's worker
    /// threads' processors; see `RunWriter.commitOn(processors:)`).
    public func commitRuns(on processors: [Int]) {
        runWriter.commitOn(processors: processors)
    }

    /// Every route of the API, and the trace viewer at `GET /`.
    public func router() -> Router {
        let router = Router()
        addSystemRoutes(to: router)
        addViewerRoutes(to: router)
        addSceneRoutes(to: router)
        addScreenshotRoutes(to: router)
        addScenePatchRoute(to: router)
        addGeometryRoute(to: router)
        addDispatchRoutes(to: router)
        addRunRoutes(to: router)
        addWhyRoutes(to: router)
        addReplayRoute(to: router)
        addImportRoutes(to: router)
        addAuditRoutes(to: router)
        addCheckRoute(to: router)
        return router
    }

    /// Where a handler runs (`WorkPool`).
    enum Work {
        /// On the thread that read the request: `/health`, which must answer while the pool
        /// is busy.
        case inline
        /// In the pool's light lane: reading what is stored, no engine and no decoding.
        case light
        /// In the pool's heavy lane: everything else.
        case heavy
    }

    /// Wraps a throwing handler: problems become their responses, store errors map to status
    /// codes, anything else is a logged 500. With a work pool the handler runs there, in the
    /// lane `work` names, and the thread that read the request goes on with its other
    /// connections (`WorkPool`).
    func handler(_ work: Work = .heavy,
                 _ body: @escaping @Sendable (HTTPRequest, [String: String]) throws -> HTTPResponse) -> HTTPHandler {
        let answer: HTTPHandler = { [self] request, parameters in
            do {
                return try body(request, parameters)
            } catch {
                return errorResponse(error, for: request)
            }
        }
        guard let workPool, work != .inline else { return answer }
        let lane: WorkPool.Lane = work == .light ? .light : .heavy
        return { request, parameters in
            .deferred { complete in
                workPool.submit(lane) {
                    let response = answer(request, parameters)
                    // A handler that defers in turn (stored dispatch waits for its commit)
                    // completes the same request.
                    if let work = response.deferredWork { work(complete) } else { complete(response) }
                }
            }
        }
    }

    /// A response computed by `body` on `queue` instead of the worker thread that read the
    /// request (a deferred response): for work that can take seconds (a replay, deleting a
    /// scene with many runs), which on the worker would hold up its other connections.
    /// Failures are answered like a handler's.
    func answered(on queue: DispatchQueue, for request: HTTPRequest,
                  _ body: @escaping @Sendable () throws -> HTTPResponse) -> HTTPResponse {
        .deferred { [self] complete in
            queue.async { [self] in
                do {
                    complete(try body())
                } catch {
                    complete(errorResponse(error, for: request))
                }
            }
        }
    }

    /// What a failed request answers: its problem document, and for failures the client
    /// cannot fix, a line in the server log.
    func errorResponse(_ error: any Error, for request: HTTPRequest) -> HTTPResponse {
        switch error {
        case let problem as Problem:
            return .problem(problem)
        case let error as StoreError:
            if case .database = error { errorLog("\(request.method) \(request.path): \(error)") }
            if case .databaseTooNew = error { errorLog("\(request.method) \(request.path): \(error)") }
            if case .storage = error { errorLog("\(request.method) \(request.path): \(error)") }
            return .problem(Problem(error))
        default:
            errorLog("\(request.method) \(request.path): \(error)")
            return .problem(.internalError("The request failed unexpectedly; the server log has the details."))
        }
    }

    /// The indexed scene of a stored version, from the cache or decoded once from the store.
    func cachedScene(sceneID: String, version: Int) throws -> CachedScene {
        let key = StoredSceneKey(sceneID: sceneID, version: version)
        if let cached = scenes.get(key) { return cached }
        let stored = try store.scene(id: sceneID, version: version)
        let scene: Scene
        do throws(InputError) {
            scene = try InputDecoder.scene(Array(stored.version.document))
        } catch {
            // The service validated the document before storing it; failing now means the
            // engine's rules changed under stored data.
            throw Problem.internalError("Stored scene \(sceneID) version \(version) no longer validates: \(error)")
        }
        let index = SceneIndex(validated: scene)
        scenes.put(key, index)
        return CachedScene(index: index, refs: nil)
    }

    /// The version a request names, or the scene's latest. The database is asked either way:
    /// the cached index of a version outlives the scene when another process deletes it (a
    /// shared PostgreSQL store, decision 141), and a deleted scene must be 404 everywhere.
    func resolveVersion(sceneID: String, requested: Int?) throws -> Int {
        let latest = try store.latestVersion(sceneID: sceneID)
        return requested ?? latest
    }

    /// Ids that cannot exist are 404 without a database round trip.
    static func requireSceneID(_ id: String?) throws(Problem) -> String {
        guard let id, StoreID.isWellFormed(id, prefix: StoreID.scenePrefix) else {
            throw Problem.notFound("Scene \(id ?? "") not found.")
        }
        return id
    }

    static func requireRunID(_ id: String?) throws(Problem) -> String {
        guard let id, StoreID.isWellFormed(id, prefix: StoreID.runPrefix) else {
            throw Problem.notFound("Run \(id ?? "") not found.")
        }
        return id
    }
}
