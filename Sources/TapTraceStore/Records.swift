import Foundation

// The values that go in and out of a `TraceStore`. They are plain `Sendable` structs:
// the store knows nothing of the scene model (TapTraceCore); documents are opaque bytes
// and the summary columns are whatever the caller computed from them.

/// The content of one scene version, as the caller hands it to the store.
public struct SceneContent: Sendable, Equatable {
    /// The scene JSON, stored byte for byte.
    public var document: Data
    /// A fingerprint of ``document``; by default the lowercase hex SHA-256 of its bytes.
    public var contentHash: String
    /// Summary columns computed by the caller from the document.
    public var viewCount: Int
    public var windowCount: Int
    public var recognizerCount: Int

    /// - Parameter contentHash: Pass `nil` (the default) to store
    ///   ``ContentHash/sha256Hex(_:)`` of `document`; pass a value to use your own
    ///   (for example a hash of the canonical form of the JSON).
    public init(document: Data, contentHash: String? = nil, viewCount: Int, windowCount: Int, recognizerCount: Int) {
        self.document = document
        self.contentHash = contentHash ?? ContentHash.sha256Hex(document)
        self.viewCount = viewCount
        self.windowCount = windowCount
        self.recognizerCount = recognizerCount
    }
}

/// A row of `scenes`: the mutable head of a chain of immutable versions.
public struct SceneRecord: Sendable, Equatable, Hashable {
    /// `scn_` + 12 base32 characters.
    public var id: String
    public var name: String?
    /// RFC 3339 UTC with milliseconds (see ``Timestamp``).
    public var createdAt: String
    /// When the latest version was added (equals ``createdAt`` until then).
    public var updatedAt: String
    /// The highest version number; versions are 1...latestVersion.
    public var latestVersion: Int

    /// For the store engines (memberwise).
    package init(id: String, name: String?, createdAt: String, updatedAt: String, latestVersion: Int) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.latestVersion = latestVersion
    }
}

/// Everything about a scene version except its document (cheap to list).
public struct SceneVersionInfo: Sendable, Equatable, Hashable {
    public var sceneID: String
    /// 1 for the version created with the scene, then 2, 3, …
    public var version: Int
    public var contentHash: String
    public var viewCount: Int
    public var windowCount: Int
    public var recognizerCount: Int
    /// Size of the stored document in bytes.
    public var documentSize: Int
    public var createdAt: String

    /// For the store engines (memberwise).
    package init(sceneID: String, version: Int, contentHash: String, viewCount: Int, windowCount: Int, recognizerCount: Int, documentSize: Int, createdAt: String) {
        self.sceneID = sceneID
        self.version = version
        self.contentHash = contentHash
        self.viewCount = viewCount
        self.windowCount = windowCount
        self.recognizerCount = recognizerCount
        self.documentSize = documentSize
        self.createdAt = createdAt
    }
}

/// A scene version with its document. Properties of ``info`` are reachable directly
/// (`version.contentHash`) through dynamic member lookup.
@dynamicMemberLookup
public struct SceneVersion: Sendable, Equatable {
    public var info: SceneVersionInfo
    /// The scene JSON exactly as it was given to the store.
    public var document: Data

    public subscript<Value>(dynamicMember keyPath: KeyPath<SceneVersionInfo, Value>) -> Value {
        info[keyPath: keyPath]
    }

    /// For the store engines (memberwise).
    package init(info: SceneVersionInfo, document: Data) {
        self.info = info
        self.document = document
    }
}

/// A scene together with one of its versions: what "get scene" returns, and what
/// creating a scene or adding a version returns (the scene after the write).
public struct StoredScene: Sendable, Equatable {
    public var scene: SceneRecord
    public var version: SceneVersion

    /// For the store engines (memberwise).
    package init(scene: SceneRecord, version: SceneVersion) {
        self.scene = scene
        self.version = version
    }
}

/// A run to record: the request and result documents plus caller-computed summary columns.
public struct NewRun: Sendable, Equatable {
    public var sceneID: String
    /// Must be an existing version of the scene.
    public var sceneVersion: Int
    /// The run request JSON (touches, options), stored byte for byte.
    public var request: Data
    /// The run result JSON (trace, deliveries), stored byte for byte.
    public var result: Data {
        didSet { preparedResult = nil }
    }
    /// The result as it will be stored, computed before the write transaction
    /// (``TraceStore/prepare(_:)``); nil until then, and again when ``result`` changes.
    package var preparedResult: PreparedResult?
    /// `ResultDigest` of `result`, by which stored results are shared. The store computes it
    /// only for a result that is not among the ones it stored lately (`RecentResults`).
    public var resultDigest: Int64 { result.withUnsafeBytes { ResultDigest.of($0) } }
    /// Id of the view that ended up first responder, if any.
    public var firstResponder: String?
    /// Compact description of the actions sent (e.g. a JSON array or comma list).
    public var actions: String
    /// One-line digest of the outcome, chosen by the caller.
    public var outcome: String
    public var actionCount: Int
    /// The harness's name for the run (a test's name), if it gave one.
    public var label: String?

    public init(
        sceneID: String, sceneVersion: Int, request: Data, result: Data,
        firstResponder: String?, actions: String, outcome: String, actionCount: Int, label: String? = nil
    ) {
        self.sceneID = sceneID
        self.sceneVersion = sceneVersion
        self.request = request
        self.result = result
        self.firstResponder = firstResponder
        self.actions = actions
        self.outcome = outcome
        self.actionCount = actionCount
        self.label = label
    }

    /// Equal documents and columns: whether the run was prepared does not matter.
    public static func == (a: NewRun, b: NewRun) -> Bool {
        a.sceneID == b.sceneID && a.sceneVersion == b.sceneVersion && a.request == b.request && a.result == b.result
            && a.firstResponder == b.firstResponder && a.actions == b.actions && a.outcome == b.outcome
            && a.actionCount == b.actionCount && a.label == b.label
    }
}

/// A stored run without its (possibly large) request and result documents.
public struct RunSummary: Sendable, Equatable, Hashable {
    /// `run_` + 12 base32 characters.
    public var id: String
    /// Position in the store-wide insertion order: strictly increasing, never reused.
    public var seq: Int64
    public var sceneID: String
    public var sceneVersion: Int
    public var createdAt: String
    public var firstResponder: String?
    public var actions: String
    public var outcome: String
    public var actionCount: Int
    /// The harness's name for the run, if it gave one.
    public var label: String?

    /// For the store engines (memberwise).
    package init(id: String, seq: Int64, sceneID: String, sceneVersion: Int, createdAt: String, firstResponder: String?, actions: String, outcome: String, actionCount: Int, label: String?) {
        self.id = id
        self.seq = seq
        self.sceneID = sceneID
        self.sceneVersion = sceneVersion
        self.createdAt = createdAt
        self.firstResponder = firstResponder
        self.actions = actions
        self.outcome = outcome
        self.actionCount = actionCount
        self.label = label
    }
}

/// A stored run with its documents. Properties of ``summary`` are reachable directly
/// (`run.id`, `run.seq`) through dynamic member lookup.
@dynamicMemberLookup
public struct RunRecord: Sendable, Equatable {
    public var summary: RunSummary
    public var request: Data
    public var result: Data

    public subscript<Value>(dynamicMember keyPath: KeyPath<RunSummary, Value>) -> Value {
        summary[keyPath: keyPath]
    }

    /// For the store engines (memberwise).
    package init(summary: RunSummary, request: Data, result: Data) {
        self.summary = summary
        self.request = request
        self.result = result
    }
}

/// One page of a newest-first listing.
public struct Page<Item: Sendable>: Sendable {
    /// At most `limit` items, newest first.
    public var items: [Item]
    /// Pass this to the same listing to get the next (older) page; `nil` on the last page.
    /// Opaque: clients must not build or parse it.
    public var nextCursor: String?

    /// For the store engines (memberwise).
    package init(items: [Item], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}

extension Page: Equatable where Item: Equatable {}

/// What ``TraceStore/deleteScene(id:)`` removed.
public struct DeletedScene: Sendable, Equatable {
    public var sceneID: String
    public var versionCount: Int
    public var runCount: Int

    /// For the store engines (memberwise).
    package init(sceneID: String, versionCount: Int, runCount: Int) {
        self.sceneID = sceneID
        self.versionCount = versionCount
        self.runCount = runCount
    }
}

/// The answer of ``TraceStore/health()``.
public struct StoreHealth: Sendable, Equatable {
    /// True when a read transaction succeeded and the schema is the one the binary expects.
    public var ok: Bool
    /// The version recorded in `schema_migrations`, if it could be read.
    public var schemaVersion: Int?
    /// The newest migration compiled into this binary.
    public var supportedSchemaVersion: Int
    /// `wal` for a file database, `memory` for `:memory:`.
    public var journalMode: String?
    /// Why ``ok`` is false.
    public var error: String?
    /// The storage failure the last writes met (a full or failing disk), while no write has
    /// succeeded since; ``ok`` is false then.
    public var storage: StorageFailure? = nil

    /// For the store engines (memberwise).
    package init(ok: Bool, schemaVersion: Int?, supportedSchemaVersion: Int, journalMode: String?, error: String?, storage: StorageFailure? = nil) {
        self.ok = ok
        self.schemaVersion = schemaVersion
        self.supportedSchemaVersion = supportedSchemaVersion
        self.journalMode = journalMode
        self.error = error
        self.storage = storage
    }
}

/// How many runs a scene version has and the `seq` of the newest
/// (``TraceStore/runExtent(sceneID:version:)``).
public struct VersionRunExtent: Sendable, Equatable {
    public var count: Int
    public var lastSeq: Int64

    /// For the store engines (memberwise).
    package init(count: Int, lastSeq: Int64) {
        self.count = count
        self.lastSeq = lastSeq
    }
}

extension NewRun {
    /// Why the run may not be written, given its scene's latest version (nil: the scene does
    /// not exist or is being deleted); nil when it may. Versions are 1...latest (appended,
    /// never removed one by one), so the latest alone tells whether the run's version exists.
    /// Both engines judge a run by it (SQLite before its insert, PostgreSQL after a statement
    /// that wrote nothing).
    package func refusal(requireLatest: Bool, latest: Int?) -> StoreError? {
        guard let latest else { return .sceneNotFound(sceneID: sceneID) }
        guard (1...latest).contains(sceneVersion) else {
            return .versionNotFound(sceneID: sceneID, version: sceneVersion)
        }
        if requireLatest, sceneVersion != latest {
            return .conflict(sceneID: sceneID, expectedVersion: sceneVersion, actualVersion: latest)
        }
        return nil
    }
}
