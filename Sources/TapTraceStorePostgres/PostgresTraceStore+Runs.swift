import Foundation
import TapTraceStore

extension PostgresTraceStore {
    public func prepare(_ run: NewRun) -> NewRun { recentResults.prepare(run) }

    public func insertRun(_ run: NewRun, requireLatest: Bool) throws -> RunRecord {
        try insertRunsIndependently([(run, requireLatest)])[0].get()
    }

    /// One transaction for the whole batch, sent in one round trip: each run's statement judges
    /// it by itself (a refused run writes nothing and makes no error, so the others commit).
    public func insertRunsIndependently(_ runs: [(run: NewRun, requireLatest: Bool)]) throws
        -> [Result<RunRecord, StoreError>]
    {
        let prepared = recentResults.prepare(runs.map(\.run))
        return try writeRuns(Array(zip(prepared, runs.map(\.requireLatest))), atomic: false)
    }

    /// All or nothing (replay): a refused run rolls the batch back and is thrown.
    public func insertRuns(_ runs: [NewRun]) throws -> [RunRecord] {
        let outcomes = try writeRuns(recentResults.prepare(runs).map { ($0, false) }, atomic: true)
        return try outcomes.map { try $0.get() }
    }

    public func run(id: String) throws -> RunRecord {
        try operation { connection in
            let rows = try connection.execute(
                """
                SELECT \(Self.runColumns), r.request, rr.encoding AS result_encoding, rr.bytes AS result
                FROM runs r JOIN run_results rr ON rr.id = r.result_id
                JOIN scenes s ON s.id = r.scene_id AND s.deleted_at IS NULL
                WHERE r.id = $1
                """,
                [.text(id)])
            guard rows.rowCount == 1 else { throw StoreError.runNotFound(runID: id) }
            return try Self.runRecord(rows, 0)
        }
    }

    public func listRuns(sceneID: String, limit: Int, after cursor: String?, label: String?) throws -> Page<RunSummary> {
        try validate(limit: limit)
        let before = try cursor.map { try PageCursor(decoding: $0, for: .runs).seq }
        return try operation { connection in
            let exists = try connection.execute(Self.latestVersionSQL, [.text(sceneID)])
            guard exists.rowCount == 1 else { throw StoreError.sceneNotFound(sceneID: sceneID) }
            let rows: PostgresResult
            if let label {
                rows = try connection.execute(
                    """
                    SELECT \(Self.runColumns) FROM runs r
                    WHERE r.scene_id = $1 AND r.label = $4 AND r.seq < coalesce($2, 9223372036854775807)
                    ORDER BY r.seq DESC LIMIT $3
                    """,
                    [.text(sceneID), .int(before), .int(limit + 1), .text(label)])
            } else {
                rows = try connection.execute(
                    """
                    SELECT \(Self.runColumns) FROM runs r
                    WHERE r.scene_id = $1 AND r.seq < coalesce($2, 9223372036854775807)
                    ORDER BY r.seq DESC LIMIT $3
                    """,
                    [.text(sceneID), .int(before), .int(limit + 1)])
            }
            return Self.page(rows, limit: limit, listing: .runs) { Self.runSummary(rows, $0) }
        }
    }

    public func runExtent(sceneID: String, version: Int) throws -> VersionRunExtent {
        try operation { connection in
            try Self.requireVersion(connection, sceneID, version)
            let row = try connection.execute(
                """
                SELECT count(*) AS n, coalesce(max(seq), 0)::bigint AS last FROM runs
                WHERE scene_id = $1 AND scene_version = $2
                """,
                [.text(sceneID), .int(version)])
            return VersionRunExtent(count: row.int(0, "n") ?? 0, lastSeq: row.int64(0, "last") ?? 0)
        }
    }

    public func runs(sceneID: String, version: Int, after: Int64, through: Int64, limit: Int) throws -> [RunRecord] {
        try operation { connection in
            try Self.requireVersion(connection, sceneID, version)
            let rows = try connection.execute(
                """
                SELECT \(Self.runColumns), r.request, rr.encoding AS result_encoding, rr.bytes AS result
                FROM runs r JOIN run_results rr ON rr.id = r.result_id
                WHERE r.scene_id = $1 AND r.scene_version = $2 AND r.seq > $3 AND r.seq <= $4
                ORDER BY r.seq LIMIT $5
                """,
                [.text(sceneID), .int(version), .int(after), .int(through), .int(Int64(min(limit, Int(Int64.max))))])
            return try (0..<rows.rowCount).map { try Self.runRecord(rows, $0) }
        }
    }

    // MARK: - Writing runs

    /// Writes `runs` in one transaction and one round trip, each judged by its own statement.
    /// Returns each run's record or why it was refused. When `atomic`, a refusal rolls every
    /// run back (a second round trip decides between COMMIT and ROLLBACK).
    private func writeRuns(_ runs: [(run: NewRun, requireLatest: Bool)], atomic: Bool) throws
        -> [Result<RunRecord, StoreError>]
    {
        if atomic, runs.contains(where: { $0.run.actionCount < 0 }) {
            throw StoreError.invalidArgument("actionCount must not be negative")
        }
        // A run id another process took first fails the batch as a whole (nothing committed):
        // the ids go on after the largest stored, and the batch is sent again.
        for _ in 0..<3 {
            do {
                return try operation { connection in try writeBatch(runs, atomic: atomic, on: connection) }
            } catch is RunIDTaken {
                let newest = try operation { try $0.execute("SELECT max(id COLLATE \"C\") AS id FROM runs").string(0, "id") }
                runIDs.advance(past: newest)
            }
        }
        throw StoreError.database("run ids kept colliding with another process's")
    }

    private func writeBatch(_ runs: [(run: NewRun, requireLatest: Bool)], atomic: Bool,
                            on connection: PostgresConnection) throws -> [Result<RunRecord, StoreError>]
    {
        let date = clock.now()
        let now = Timestamp.rfc3339(date)
        var ids: [String?] = []
        var statements: [(sql: String, parameters: [PostgresValue])] = [("BEGIN", [])]
        for (run, requireLatest) in runs {
            // Refused before the database (as SQLite's store refuses it): nothing to send.
            guard run.actionCount >= 0 else {
                ids.append(nil)
                continue
            }
            let id = runIDs.next(at: date)
            ids.append(id)
            var knownResult: Int64?
            var digest: Int64?
            var encoding: String?
            var bytes: Data?
            switch run.preparedResult ?? PreparedResult.encoding(run.result) {
            case .recent(let resultID):
                knownResult = resultID
            case .encoded(let d, let e, let b):
                digest = d
                encoding = e
                bytes = b
            }
            statements.append((Self.insertRunSQL, [
                .text(run.sceneID), .int(run.sceneVersion), .bool(requireLatest), .int(digest), .text(encoding),
                .bytes(bytes), .text(id), .text(now), .bytes(run.request), .text(run.firstResponder),
                .text(run.actions), .text(run.outcome), .int(run.actionCount), .text(run.label), .int(knownResult),
            ]))
        }
        if !atomic { statements.append(("COMMIT", [])) }
        let results = try Self.send(statements, on: connection)
        var outcomes: [Result<RunRecord, StoreError>] = []
        var learned: [(sceneID: String, digest: Int64, entry: RecentResults.Entry)] = []
        var next = 1
        for (index, (run, requireLatest)) in runs.enumerated() {
            guard let id = ids[index] else {
                outcomes.append(.failure(.invalidArgument("actionCount must not be negative")))
                continue
            }
            let row = results[next]
            next += 1
            guard let seq = row.int64(0, "seq"), let resultID = row.int64(0, "result_id") else {
                outcomes.append(.failure(run.refusal(requireLatest: requireLatest, latest: row.int(0, "latest"))
                    ?? .database("run of \(run.sceneID) v\(run.sceneVersion) was not written")))
                continue
            }
            if case .encoded(let digest, _, _)? = run.preparedResult {
                learned.append((run.sceneID, digest, .init(id: resultID, bytes: run.result)))
            }
            let summary = RunSummary(
                id: id, seq: seq, sceneID: run.sceneID, sceneVersion: run.sceneVersion, createdAt: now,
                firstResponder: run.firstResponder, actions: run.actions, outcome: run.outcome,
                actionCount: run.actionCount, label: run.label)
            outcomes.append(.success(RunRecord(summary: summary, request: run.request, result: run.result)))
        }
        if atomic {
            if let refused = outcomes.first(where: { if case .failure = $0 { true } else { false } }) {
                try connection.run("ROLLBACK")
                _ = try refused.get()
            }
            try connection.run("COMMIT")
        }
        // Committed: the results written or found may be shared by the next runs.
        let sharing = RecentResults.Sharing(recentResults)
        for item in learned { sharing.learn(sceneID: item.sceneID, digest: item.digest, item.entry) }
        sharing.committed()
        return outcomes
    }

    /// The batch's statements in one pipeline; a failure ends the transaction it aborted.
    private static func send(_ statements: [(sql: String, parameters: [PostgresValue])],
                             on connection: PostgresConnection) throws -> [PostgresResult] {
        do {
            // A pipeline is sent whole before its answers are read: one of thousands of runs (a
            // replay) could fill both sockets' buffers, the server waiting for its answers to be
            // read and this thread for its statements to be taken. Chunks of a few hundred
            // statements keep each side's backlog small; the transaction spans them.
            var results: [PostgresResult] = []
            results.reserveCapacity(statements.count)
            var start = 0
            while start < statements.count {
                let end = min(start + Self.pipelineChunk, statements.count)
                results += try connection.pipeline(Array(statements[start..<end]))
                start = end
            }
            return results
        } catch {
            // The transaction block is left aborted (its COMMIT was skipped): end it.
            if !connection.isBroken { try? connection.run("ROLLBACK") }
            if let error = error as? PostgresError, error.isRunIDTaken { throw RunIDTaken() }
            throw error
        }
    }

    /// Statements per pipeline: a stored dispatch's batch under load fits in one.
    static let pipelineChunk = 256

    /// One run: checked against its scene (locked in share mode until the commit, so that no
    /// new version or deletion comes between the check and the insert), its result found among
    /// the scene's equal results or added, then the run. Writes nothing when the check fails;
    /// the answer's `latest` then says why.
    ///
    /// $1 scene, $2 version, $3 requireLatest, $4 digest, $5 encoding, $6 stored bytes, $7 run
    /// id, $8 created_at, $9 request, $10 first responder, $11 actions, $12 outcome, $13 action
    /// count, $14 label, $15 the result's row when it is known already (a recent result).
    static let insertRunSQL = """
        WITH scene AS (
            SELECT latest_version FROM scenes WHERE id = $1 AND deleted_at IS NULL FOR SHARE
        ), ok AS (
            SELECT 1 FROM scene WHERE $2 BETWEEN 1 AND latest_version AND (NOT $3 OR latest_version = $2)
        ), found AS (
            SELECT id FROM run_results
            WHERE $15::bigint IS NULL AND scene_id = $1 AND digest = $4 AND encoding = $5 AND bytes = $6
              AND EXISTS (SELECT 1 FROM ok)
            LIMIT 1
        ), made AS (
            INSERT INTO run_results (scene_id, digest, encoding, bytes)
            SELECT $1, $4, $5, $6
            WHERE $15::bigint IS NULL AND EXISTS (SELECT 1 FROM ok) AND NOT EXISTS (SELECT 1 FROM found)
            RETURNING id
        ), run AS (
            INSERT INTO runs (id, scene_id, scene_version, created_at, request, result_id, first_responder,
                              actions, outcome, action_count, label)
            SELECT $7, $1, $2, $8, $9, coalesce($15::bigint, (SELECT id FROM found), (SELECT id FROM made)),
                   $10, $11, $12, $13, $14
            WHERE EXISTS (SELECT 1 FROM ok)
            RETURNING seq, result_id
        )
        SELECT (SELECT latest_version FROM scene) AS latest, (SELECT seq FROM run) AS seq,
               (SELECT result_id FROM run) AS result_id
        """

    static let runColumns = """
        r.id, r.seq, r.scene_id, r.scene_version, r.created_at, r.first_responder, r.actions, r.outcome,
        r.action_count, r.label
        """

    static func runSummary(_ rows: PostgresResult, _ row: Int) -> RunSummary {
        RunSummary(
            id: rows.string(row, "id") ?? "", seq: rows.int64(row, "seq") ?? 0, sceneID: rows.string(row, "scene_id") ?? "",
            sceneVersion: rows.int(row, "scene_version") ?? 0, createdAt: rows.string(row, "created_at") ?? "",
            firstResponder: rows.string(row, "first_responder"), actions: rows.string(row, "actions") ?? "",
            outcome: rows.string(row, "outcome") ?? "", actionCount: rows.int(row, "action_count") ?? 0,
            label: rows.string(row, "label"))
    }

    static func runRecord(_ rows: PostgresResult, _ row: Int) throws -> RunRecord {
        let result = try ResultCompression.decode(
            encoding: rows.string(row, "result_encoding") ?? ResultCompression.identity, bytes: rows.data(row, "result") ?? Data())
        return RunRecord(summary: runSummary(rows, row), request: rows.data(row, "request") ?? Data(), result: result)
    }
}

/// A run id that another process wrote first (its unique index refused the batch).
struct RunIDTaken: Error {}
