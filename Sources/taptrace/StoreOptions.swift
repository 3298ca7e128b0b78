import Foundation
import ArgumentParser
import TapTraceService
import TapTraceStore
import TapTraceStorePostgres

/// `taptrace serve`'s settings of the database and of memory: durability, the database's size
/// limit, the scene caches' byte budgets and when idle memory goes back to the system. Each has
/// an environment variable, used when the flag is absent.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("synchronous"),
            help: """
                When a commit is on the disk: normal (it survives the process crashing; an OS crash or \
                power loss may lose the last commits) or full (every commit synced: survives a power \
                loss, at some cost per write). TAPTRACE_SYNCHRONOUS; default normal.
                """)
    var synchronous: String?

    @Option(name: .customLong("database-size-limit"),
            help: """
                Most bytes the database file may hold (K, M, G suffixes); writes past it answer 503 \
                storage-full while reads and deletes go on. TAPTRACE_DATABASE_SIZE_LIMIT; default none.
                """)
    var databaseSizeLimit: String?

    @Option(name: .customLong("db-connections"),
            help: """
                Most connections to a PostgreSQL database (--db postgres://…); PostgreSQL's \
                max_connections must cover this times the instances. TAPTRACE_DB_CONNECTIONS; default \
                the worker and work threads plus 2.
                """)
    var databaseConnections: Int?

    @Option(name: .customLong("scene-cache-bytes"),
            help: """
                Memory for indexed stored scenes (K, M, G suffixes); least recently used ones go first. \
                TAPTRACE_SCENE_CACHE_BYTES; default 256M.
                """)
    var sceneCacheBytes: String?

    @Option(name: .customLong("stateless-cache-bytes"),
            help: """
                Memory for indexed scenes of stateless requests (K, M, G suffixes). \
                TAPTRACE_STATELESS_CACHE_BYTES; default 128M.
                """)
    var statelessCacheBytes: String?

    @Option(name: .customLong("idle-memory-release"),
            help: """
                Seconds without requests after which freed memory goes back to the system (0: never). \
                TAPTRACE_IDLE_MEMORY_RELEASE; default 10.
                """)
    var idleMemoryRelease: String?

    /// The settings: flag, else environment variable, else default.
    /// The resolved settings; `postgres(threads:)` gives a PostgreSQL store's.
    struct Resolved {
        var store: StoreSettings
        var caches: CacheSettings
        var databaseConnections: Int?

        /// A connection for each thread that may use the store at once, and two more (the run
        /// writer and a deletion's purge), unless `--db-connections` says otherwise.
        func postgres(threads: Int) -> PostgresStoreSettings {
            PostgresStoreSettings(maxConnections: databaseConnections ?? threads + 2)
        }
    }

    func resolved(environment: [String: String]) throws -> Resolved {
        func value(_ flag: String?, _ variable: String) -> (text: String, source: String)? {
            SettingSource.text(flag: flag, "--" + Self.flagName(of: variable), variable: variable, in: environment)
        }
        func bytes(_ flag: String?, _ variable: String, minimum: Int) throws -> Int? {
            guard let (text, name) = value(flag, variable) else { return nil }
            guard let count = SettingSource.byteCount(text), count >= minimum else {
                throw ValidationError("\(name) must be a byte count of at least \(minimum) (e.g. 65536, 512K, 64M, 2G), not \(text)")
            }
            return count
        }

        var store = StoreSettings()
        if let (text, name) = value(synchronous, "TAPTRACE_SYNCHRONOUS") {
            guard let mode = StoreSettings.Synchronous(rawValue: text.lowercased()) else {
                throw ValidationError("\(name) must be normal or full, not \(text)")
            }
            store.synchronous = mode
        }
        // Room for the schema and a scene or two: a smaller limit only makes every write fail.
        store.maxDatabaseBytes = try bytes(databaseSizeLimit, "TAPTRACE_DATABASE_SIZE_LIMIT", minimum: 64 << 10)

        var caches = CacheSettings()
        if let budget = try bytes(sceneCacheBytes, "TAPTRACE_SCENE_CACHE_BYTES", minimum: 0) { caches.sceneCacheBytes = budget }
        if let budget = try bytes(statelessCacheBytes, "TAPTRACE_STATELESS_CACHE_BYTES", minimum: 0) {
            caches.statelessCacheBytes = budget
        }
        if let (text, name) = value(idleMemoryRelease, "TAPTRACE_IDLE_MEMORY_RELEASE") {
            guard let seconds = Int(text), seconds >= 0 else {
                throw ValidationError("\(name) must be a whole number of seconds (0: never), not \(text)")
            }
            caches.idleMemoryRelease = seconds == 0 ? nil : .seconds(seconds)
        }
        var connections: Int?
        if let (text, name) = value(databaseConnections.map(String.init), "TAPTRACE_DB_CONNECTIONS") {
            guard let count = Int(text), (1...1000).contains(count) else {
                throw ValidationError("\(name) must be a number of connections from 1 to 1000, not \(text)")
            }
            connections = count
        }
        return Resolved(store: store, caches: caches, databaseConnections: connections)
    }

    /// `TAPTRACE_SCENE_CACHE_BYTES` → `scene-cache-bytes`, for messages about a flag.
    static func flagName(of variable: String) -> String {
        variable.dropFirst("TAPTRACE_".count).lowercased().replacingOccurrences(of: "_", with: "-")
    }
}
