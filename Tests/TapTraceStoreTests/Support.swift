import Foundation
import GRDB
import TestSupport
import Testing

@testable import TapTraceStore
@testable import TapTraceStorePostgres

/// The engines a store test runs on. Every engine-neutral case runs on all of `allCases`: SQLite
/// in a file and in memory, and PostgreSQL when `TAPTRACE_TEST_POSTGRES` names a server
/// (`scripts/postgres start` prints one; `scripts/test` sets it). Cases of SQLite's own
/// machinery (its migrations, pages, checkpoints, query plans, statements) take `sqliteCases`.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case file
    case memory
    case postgres

    var testDescription: String { rawValue }

    /// SQLite's two, and PostgreSQL when the tests have a server.
    static var allCases: [Backend] { PostgresTestServer.url == nil ? sqliteCases : sqliteCases + [.postgres] }

    /// SQLite's two.
    static let sqliteCases: [Backend] = [.file, .memory]

    /// The engines whose database outlives a store, so that a test can open another store on
    /// it, after the first or beside it (another process, a restart).
    static var sharedCases: [Backend] { allCases.filter { $0 != .memory } }
}

/// The PostgreSQL server of the tests: `TAPTRACE_TEST_POSTGRES`, a URL such as
/// `postgres://postgres@127.0.0.1:54329/postgres`. Each test has a schema of its own in it, so
/// that tests running at once do not see each other's rows.
enum PostgresTestServer {
    static let url: String? = {
        guard let url = ProcessInfo.processInfo.environment["TAPTRACE_TEST_POSTGRES"], !url.isEmpty else { return nil }
        return url
    }()

    /// A schema name no other test uses.
    static func freshSchema() -> String { StoreID.make(prefix: "t_") }

    /// Removes a test's schema with everything in it (once its stores are closed).
    static func drop(schema: String) {
        guard let url else { return }
        do {
            let connection = try PostgresConnection(url: url, defaults: [], counter: RoundTripCounter())
            try connection.run("DROP SCHEMA IF EXISTS \(PostgresMigration.quoted(schema)) CASCADE")
        } catch {
            Issue.record("the test schema \(schema) was not dropped: \(error)")
        }
    }
}

/// A database of one test, which stores can be opened on (a file, a PostgreSQL schema, or a
/// fresh database in memory at each opening), removed with everything in it by `remove()`.
final class TestDatabase {
    let backend: Backend
    /// The SQLite file; nil in memory and on PostgreSQL.
    let path: String?
    /// The PostgreSQL schema; nil on SQLite.
    let schema: String?
    private let directory: TemporaryDirectory?

    init(_ backend: Backend) throws {
        self.backend = backend
        switch backend {
        case .memory:
            (directory, path, schema) = (nil, nil, nil)
        case .file:
            let directory = try TemporaryDirectory()
            (self.directory, path, schema) = (directory, directory.databasePath, nil)
        case .postgres:
            guard PostgresTestServer.url != nil else {
                throw StoreError.invalidArgument("TAPTRACE_TEST_POSTGRES is not set: no PostgreSQL server for the tests")
            }
            (directory, path, schema) = (nil, nil, PostgresTestServer.freshSchema())
        }
    }

    /// A store on this database (on PostgreSQL, with its schema).
    func open(clock: StoreClock = SteppingClock().clock) throws -> any TraceStore {
        switch backend {
        case .memory, .file: return try openSQLite(clock: clock)
        case .postgres:
            // 8 connections: enough for the 8 writer threads of the concurrency cases, and few
            // enough for every test running at once (scripts/postgres allows 300).
            return try PostgresTraceStore(url: PostgresTestServer.url!, clock: clock,
                                          settings: PostgresStoreSettings(maxConnections: 8, schema: schema))
        }
    }

    /// An SQLite store on this database (not on PostgreSQL).
    func openSQLite(clock: StoreClock = SteppingClock().clock,
                    checkpoints: Checkpointer.Settings = Checkpointer.Settings()) throws -> SQLiteTraceStore {
        switch backend {
        case .memory: return try SQLiteTraceStore(location: .inMemory, clock: clock)
        case .file:
            return try SQLiteTraceStore(location: .file(path!), clock: clock, migrations: Migration.embedded,
                                        checkpoints: checkpoints)
        case .postgres: preconditionFailure("an SQLite store on the PostgreSQL backend")
        }
    }

    func remove() {
        directory?.remove()
        if let schema { PostgresTestServer.drop(schema: schema) }
    }
}

/// Runs `body` with a fresh database of `backend`, then removes it.
@discardableResult
func withDatabase<T>(_ backend: Backend, _ body: (TestDatabase) throws -> T) throws -> T {
    let database = try TestDatabase(backend)
    defer { database.remove() }
    return try body(database)
}

/// Runs `body` with a fresh store of `backend` and the database's path (nil in memory and on
/// PostgreSQL), then closes it and removes its database.
@discardableResult
func withStore<T>(
    _ backend: Backend, clock: StoreClock = SteppingClock().clock, _ body: (any TraceStore, String?) throws -> T
) throws -> T {
    try withDatabase(backend) { database in
        let store = try database.open(clock: clock)
        defer { try? store.close() }
        return try body(store, database.path)
    }
}

/// As `withStore`, for cases of SQLite's own machinery: `backend` is `.file` or `.memory`.
/// `checkpoints` sets up a file store's Checkpointer.
@discardableResult
func withSQLiteStore<T>(
    _ backend: Backend, clock: StoreClock = SteppingClock().clock,
    checkpoints: Checkpointer.Settings = Checkpointer.Settings(), _ body: (SQLiteTraceStore, String?) throws -> T
) throws -> T {
    try withDatabase(backend) { database in
        let store = try database.openSQLite(clock: clock, checkpoints: checkpoints)
        defer { try? store.close() }
        return try body(store, database.path)
    }
}

/// A clock that advances 1 ms at each reading, from 2026-11-22T06:01:02.345Z.
final class SteppingClock: @unchecked Sendable {
    static let start = Date(timeIntervalSince1970: 1_795_327_262.345)
    private let lock = NSLock()
    private var millis: Int64 = 0

    var clock: StoreClock {
        StoreClock { [self] in
            lock.lock()
            defer { lock.unlock() }
            let date = Self.start.addingTimeInterval(Double(millis) / 1000)
            millis += 1
            return date
        }
    }
}

func content(_ text: String, views: Int = 3, windows: Int = 1, recognizers: Int = 0) -> SceneContent {
    SceneContent(document: Data(text.utf8), viewCount: views, windowCount: windows, recognizerCount: recognizers)
}

func newRun(_ sceneID: String, version: Int = 1, tag: String = "r") -> NewRun {
    NewRun(
        sceneID: sceneID, sceneVersion: version,
        request: Data(#"{"touches":"\#(tag)"}"#.utf8), result: Data(#"{"trace":"\#(tag)"}"#.utf8),
        firstResponder: "field", actions: "login:touchUpInside", outcome: "delivered \(tag)", actionCount: 1)
}

// MARK: - The tables themselves

/// A parameter of `executeSQL` and the queries below.
enum SQLArgument: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case text(String)
    case integer(Int64)
    case bytes(Data)

    init(stringLiteral value: String) { self = .text(value) }
    init(integerLiteral value: Int64) { self = .integer(value) }

    var sqlite: any DatabaseValueConvertible {
        switch self {
        case .text(let text): text
        case .integer(let value): value
        case .bytes(let data): data
        }
    }

    var postgres: PostgresValue {
        switch self {
        case .text(let text): .text(text)
        case .integer(let value): .int(value)
        case .bytes(let data): .bytes(data)
        }
    }
}

/// Runs `sql` on a store's database, for what a test sets up or checks in the tables besides
/// what it checks through the protocol: both engines keep the same tables and columns
/// (migrations/sqlite/, migrations/postgres/). Parameters are `$1`, `$2`, … on both (SQLite
/// takes them as named parameters, bound in order).
func executeSQL(_ store: any TraceStore, _ sql: String, _ arguments: [SQLArgument] = []) throws {
    switch store {
    case let store as SQLiteTraceStore:
        try store.writer.write { db in try db.execute(sql: sql, arguments: StatementArguments(arguments.map(\.sqlite))) }
    case let store as PostgresTraceStore:
        _ = try store.pool.withConnection { connection in try connection.execute(sql, arguments.map(\.postgres)) }
    default:
        preconditionFailure("a store of no engine the tests know: \(type(of: store))")
    }
}

/// The column named `value` of every row `sql` returns, read by `sqlite` or `postgres`.
private func column<T>(
    _ store: any TraceStore, _ sql: String, _ arguments: [SQLArgument],
    sqlite: (Row) -> T, postgres: (PostgresResult, Int) -> T
) throws -> [T] {
    switch store {
    case let store as SQLiteTraceStore:
        return try store.writer.read { db in
            try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments.map(\.sqlite))).map(sqlite)
        }
    case let store as PostgresTraceStore:
        let result = try store.pool.withConnection { connection in try connection.execute(sql, arguments.map(\.postgres)) }
        return (0..<result.rowCount).map { postgres(result, $0) }
    default:
        preconditionFailure("a store of no engine the tests know: \(type(of: store))")
    }
}

/// The integers (bigint on PostgreSQL) in column `value` of `sql`'s rows.
func integersSQL(_ store: any TraceStore, _ sql: String, _ arguments: [SQLArgument] = []) throws -> [Int64?] {
    try column(store, sql, arguments, sqlite: { $0["value"] }, postgres: { $0.int64($1, "value") })
}

/// The text in column `value` of `sql`'s rows.
func textsSQL(_ store: any TraceStore, _ sql: String, _ arguments: [SQLArgument] = []) throws -> [String?] {
    try column(store, sql, arguments, sqlite: { $0["value"] }, postgres: { $0.string($1, "value") })
}

/// The bytes (blob, bytea) in column `value` of `sql`'s rows.
func blobsSQL(_ store: any TraceStore, _ sql: String, _ arguments: [SQLArgument] = []) throws -> [Data?] {
    try column(store, sql, arguments, sqlite: { $0["value"] }, postgres: { $0.data($1, "value") })
}

/// Counts rows of `table` in the store's database (optionally those of one scene: `scene_id`,
/// or `id` in `scenes`).
func rowCount(_ store: any TraceStore, _ table: String, sceneID: String? = nil) throws -> Int {
    let sql = "SELECT count(*) AS value FROM \(table)"
    guard let sceneID else { return Int(try integersSQL(store, sql)[0]!) }
    return Int(try integersSQL(store, sql + " WHERE \(table == "scenes" ? "id" : "scene_id") = $1", [.text(sceneID)])[0]!)
}

/// How many results the store hashed and compressed because they were not among the recent
/// ones (`RecentResults`, which both engines use).
func resultMisses(_ store: any TraceStore) -> Int {
    switch store {
    case let store as SQLiteTraceStore: store.resultMisses
    case let store as PostgresTraceStore: store.recentResults.misses
    default: preconditionFailure("a store of no engine the tests know: \(type(of: store))")
    }
}

/// Starts `count` real threads running `body(index)` and waits for all of them.
/// (Real threads, not `concurrentPerform`, so that all of them run at once even on 2 cores.)
func runThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            body(index)
            group.leave()
        }
        thread.start()
    }
    group.wait()
}

/// `count` bytes that do not compress (a linear congruential sequence), different per `seed`.
func noise(_ count: Int, seed: Int) -> Data {
    var state = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 | 1
    var bytes = [UInt8](repeating: 0, count: count)
    for i in 0..<count {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        bytes[i] = UInt8(truncatingIfNeeded: state >> 33)
    }
    return Data(bytes)
}

/// Runs `body` with two stores on one fresh database of `backend`, as two `taptrace serve`
/// processes share it, then closes both and removes the database.
@discardableResult
func withTwoStores<T>(
    _ backend: Backend, clock: @autoclosure () -> StoreClock = SteppingClock().clock,
    _ body: (any TraceStore, any TraceStore) throws -> T
) throws -> T {
    try withDatabase(backend) { database in
        let a = try database.open(clock: clock())
        defer { try? a.close() }
        let b = try database.open(clock: clock())
        defer { try? b.close() }
        return try body(a, b)
    }
}
