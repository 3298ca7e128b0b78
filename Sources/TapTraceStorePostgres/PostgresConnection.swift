import CLibPQ
import Foundation

/// One libpq connection, used by one thread at a time (``PostgresConnectionPool`` hands it out).
///
/// Every statement goes through the extended protocol, prepared once per connection (a named
/// statement per distinct SQL text) with binary parameters and binary results. Statements may
/// be sent one at a time (``execute(_:_:)``: one round trip) or several together in libpq's
/// pipeline mode (``pipeline(_:)``: one round trip for all of them), which is how a batch of
/// runs is stored in one transaction with one network wait.
final class PostgresConnection {
    private let handle: OpaquePointer
    /// Statement names by SQL text, for the statements prepared on this connection.
    private var prepared: [String: String] = [:]
    /// Counts the round trips of every connection of a store (``PostgresTraceStore/roundTrips``).
    private let counter: RoundTripCounter

    /// Connects with libpq's keywords; `url` (a `postgres://` URL or a conninfo string) is
    /// expanded, and its own values win over `defaults`.
    init(url: String, defaults: [(String, String)], counter: RoundTripCounter) throws(PostgresError) {
        self.counter = counter
        let pairs = defaults + [("dbname", url)]
        let keywords = pairs.map { strdup($0.0) } + [nil]
        let values = pairs.map { strdup($0.1) } + [nil]
        defer {
            keywords.forEach { free($0) }
            values.forEach { free($0) }
        }
        let connection: OpaquePointer? = keywords.withUnsafeBufferPointer { k in
            values.withUnsafeBufferPointer { v in
                k.withMemoryRebound(to: UnsafePointer<CChar>?.self) { k in
                    v.withMemoryRebound(to: UnsafePointer<CChar>?.self) { v in
                        PQconnectdbParams(k.baseAddress, v.baseAddress, 1)
                    }
                }
            }
        }
        guard let connection else {
            throw PostgresError(sqlState: nil, message: "out of memory", connectionLost: true)
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.trimmed(PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresError(sqlState: nil, message: message, connectionLost: true)
        }
        handle = connection
        // The server's notices ("relation already exists, skipping") are not errors; libpq would
        // print them on standard error, in the middle of the service's log.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        counter.add(1)
    }

    deinit { PQfinish(handle) }

    /// Whether the connection is still usable, as far as can be told without a round trip. An
    /// idle connection receives nothing (no LISTEN here): anything waiting on its socket, or the
    /// socket closed by the peer (readable too), means its server process ended it (a restart says "terminating
    /// connection due to administrator command" and closes), so the first statement after a
    /// restart does not fail on a connection the server has already dropped.
    var isUsable: Bool {
        guard PQstatus(handle) == CONNECTION_OK, PQtransactionStatus(handle) == PQTRANS_IDLE else { return false }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 0
    }

    var isBroken: Bool { PQstatus(handle) != CONNECTION_OK }

    /// Runs SQL text with no parameters and no result rows through the simple protocol: any
    /// number of statements (migrations, `SET`).
    func run(_ sql: String) throws {
        counter.add(1)
        guard let result = PQexec(handle, sql) else { throw lostError() }
        defer { PQclear(result) }
        try check(result)
    }

    /// Runs one statement and returns its rows.
    @discardableResult
    func execute(_ sql: String, _ parameters: [PostgresValue] = []) throws -> PostgresResult {
        let name = try statement(sql, parameters)
        counter.add(1)
        let result = Self.withParameters(parameters) { values, lengths, formats in
            PQexecPrepared(handle, name, Int32(parameters.count), values, lengths, formats, 1)
        }
        guard let result else { throw lostError() }
        let rows = PostgresResult(result)
        try check(result)
        return rows
    }

    /// Runs `statements` in one round trip (libpq's pipeline mode), in order, as one implicit
    /// transaction unless they contain their own `BEGIN`/`COMMIT`. The first failing statement
    /// throws; the ones after it did not run (PostgreSQL skips them up to the pipeline's end),
    /// and what an explicit transaction had written is rolled back.
    func pipeline(_ statements: [(sql: String, parameters: [PostgresValue])]) throws -> [PostgresResult] {
        // Prepared beforehand (a round trip each, once per connection and statement).
        var names: [String] = []
        for statement in statements { names.append(try self.statement(statement.sql, statement.parameters)) }
        guard PQenterPipelineMode(handle) == 1 else { throw lostError() }
        defer { _ = PQexitPipelineMode(handle) }
        for (index, statement) in statements.enumerated() {
            let sent = Self.withParameters(statement.parameters) { values, lengths, formats in
                PQsendQueryPrepared(handle, names[index], Int32(statement.parameters.count), values, lengths, formats, 1)
            }
            guard sent == 1 else { throw lostError() }
        }
        guard PQpipelineSync(handle) == 1 else { throw lostError() }
        counter.add(1)
        var results: [PostgresResult] = []
        var failure: PostgresError?
        for _ in statements {
            guard let result = PQgetResult(handle) else { throw lostError() }
            let rows = PostgresResult(result)
            if failure == nil {
                do { try check(result) } catch { failure = error as? PostgresError }
            }
            results.append(rows)
            // The NULL that ends each statement's results.
            while let extra = PQgetResult(handle) { PQclear(extra) }
        }
        // The sync's own result.
        while let result = PQgetResult(handle) {
            let status = PQresultStatus(result)
            PQclear(result)
            if status == PGRES_PIPELINE_SYNC { break }
        }
        if isBroken { throw lostError() }
        if let failure { throw failure }
        return results
    }

    /// The name of `sql`'s prepared statement on this connection, preparing it the first time.
    private func statement(_ sql: String, _ parameters: [PostgresValue]) throws -> String {
        if let name = prepared[sql] { return name }
        let name = "s\(prepared.count)"
        let types = parameters.map(\.oid)
        counter.add(1)
        guard let result = PQprepare(handle, name, sql, Int32(types.count), types) else { throw lostError() }
        defer { PQclear(result) }
        try check(result)
        prepared[sql] = name
        return name
    }

    private static func withParameters<T>(
        _ parameters: [PostgresValue],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> T
    ) -> T {
        let encoded = parameters.map(\.binary)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(encoded.reduce(0) { $0 + ($1?.count ?? 0) })
        var offsets: [Int?] = []
        for bytes in encoded {
            if let bytes {
                offsets.append(buffer.count)
                buffer.append(contentsOf: bytes)
            } else {
                offsets.append(nil)
            }
        }
        let lengths = encoded.map { Int32($0?.count ?? 0) }
        let formats = [Int32](repeating: 1, count: parameters.count)
        return buffer.withUnsafeBufferPointer { raw in
            // A pointer for empty values too (libpq reads no byte of them).
            let base = raw.baseAddress.map { UnsafeRawPointer($0) } ?? UnsafeRawPointer(bitPattern: 1)!
            let values: [UnsafePointer<CChar>?] = offsets.map { offset in
                offset.map { (base + $0).assumingMemoryBound(to: CChar.self) }
            }
            return values.withUnsafeBufferPointer { v in
                lengths.withUnsafeBufferPointer { l in
                    formats.withUnsafeBufferPointer { f in body(v.baseAddress, l.baseAddress, f.baseAddress) }
                }
            }
        }
    }

    private func check(_ result: OpaquePointer) throws {
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let constraint = PQresultErrorField(result, Int32(UInt8(ascii: "n"))).map { String(cString: $0) }
            let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
            let message = primary ?? Self.trimmed(PQresultErrorMessage(result))
            throw PostgresError(sqlState: state, message: message, connectionLost: isBroken, constraint: constraint)
        }
    }

    private func lostError() -> PostgresError {
        PostgresError(sqlState: nil, message: Self.trimmed(PQerrorMessage(handle)), connectionLost: true)
    }

    private static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        let text = message.map { String(cString: $0) } ?? ""
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        // libpq's messages run over lines indented with tabs: one line for the log.
        let words = trimmed.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
        return words.isEmpty ? "the connection was lost" : words.joined(separator: " ")
    }
}

/// Round trips to the server, counted for the benchmark's figure (statements sent and waited
/// for, pipelines counted once, connection set-ups and preparations included).
final class RoundTripCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add(_ n: Int) { lock.withLock { count += n } }
    var value: Int { lock.withLock { count } }
}
