import Foundation
import GRDB
import TestSupport
import Testing

@testable import TapTraceStore

/// Results live in `run_results` (migration 0002): identical documents of a scene are stored
/// once, different ones never share, and every run reads back exactly what it stored.
@Suite("Run results")
struct RunResultTests {
    static func run(_ sceneID: String, version: Int = 1, result: String, tag: String = "r") -> NewRun {
        var run = newRun(sceneID, version: version, tag: tag)
        run.result = Data(result.utf8)
        return run
    }

    @Test("identical results of a scene are stored once; each run reads its own back", arguments: Backend.allCases)
    func identicalResultsAreShared(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: "s", content: content("v1")).scene.id
            try store.addVersion(sceneID: id, content: content("v2"))
            let a = try store.insertRun(Self.run(id, result: #"{"trace":[1]}"#, tag: "a"))
            let b = try store.insertRun(Self.run(id, result: #"{"trace":[1]}"#, tag: "b"))
            let c = try store.insertRun(Self.run(id, version: 2, result: #"{"trace":[1]}"#, tag: "c"))
            let d = try store.insertRun(Self.run(id, result: #"{"trace":[2]}"#, tag: "d"))
            #expect(try store.listRuns(sceneID: id, limit: 10).items.count == 4)
            #expect(try rowCount(store, "runs", sceneID: id) == 4)
            #expect(try rowCount(store, "run_results", sceneID: id) == 2)
            for run in [a, b, c, d] { #expect(try store.run(id: run.id) == run) }
            #expect(try store.run(id: b.id).result == Data(#"{"trace":[1]}"#.utf8))
            #expect(try store.run(id: b.id).request == Data(#"{"touches":"b"}"#.utf8))
            #expect(try store.runs(sceneID: id, version: 1).map(\.result) == [a.result, b.result, d.result])
        }
    }

    @Test("results are never shared across scenes, and go with their scene", arguments: Backend.allCases)
    func resultsBelongToTheirScene(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let one = try store.createScene(name: "one", content: content("v1")).scene.id
            let two = try store.createScene(name: "two", content: content("v1")).scene.id
            let gone = try store.insertRun(Self.run(one, result: "{}"))
            let kept = try store.insertRun(Self.run(two, result: "{}"))
            #expect(try rowCount(store, "run_results") == 2)
            _ = try store.deleteScene(id: one)
            #expect(try rowCount(store, "run_results") == 1)
            #expect(try rowCount(store, "run_results", sceneID: two) == 1)
            #expect(throws: StoreError.runNotFound(runID: gone.id)) { try store.run(id: gone.id) }
            #expect(try store.run(id: kept.id) == kept)
            #expect(try store.run(id: kept.id).result == Data("{}".utf8))
        }
    }

    /// Equal digests are only candidates: a row whose digest matches but whose bytes differ
    /// (a collision, forced here by writing the digest directly) is not shared.
    @Test("a digest collision does not make two different results one", arguments: Backend.allCases)
    func collisionsCompareBytes(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: "s", content: content("v1")).scene.id
            let first = try store.insertRun(Self.run(id, result: "first"))
            let digest = ResultDigest.of(Array("second".utf8))
            try executeSQL(store, "UPDATE run_results SET digest = $1", [.integer(digest)])
            let second = try store.insertRun(Self.run(id, result: "second"))
            #expect(try rowCount(store, "run_results") == 2)
            #expect(try store.run(id: first.id).result == Data("first".utf8))
            #expect(try store.run(id: second.id).result == Data("second".utf8))
        }
    }

    @Test("the digest depends on every byte and on the length")
    func digestSpreads() {
        var seen = Set<Int64>()
        let base = Array(repeating: UInt8(ascii: "a"), count: 40)
        for length in 0...40 { seen.insert(ResultDigest.of(Array(base.prefix(length)))) }
        for position in 0..<40 {
            var changed = base
            changed[position] = UInt8(ascii: "b")
            seen.insert(ResultDigest.of(changed))
        }
        #expect(seen.count == 41 + 40)
        #expect(ResultDigest.of(Array("same".utf8)) == ResultDigest.of(Array("same".utf8)))
    }

    /// The digest is the result's: it must follow the result when a caller changes it after
    /// building the run.
    @Test("a run's result digest follows its result", arguments: Backend.allCases)
    func newRunDigestFollowsResult(_ backend: Backend) throws {
        var run = newRun("scn", version: 1, tag: "a")
        #expect(run.resultDigest == ResultDigest.of(Array(run.result)))
        run.result = Data("another result".utf8)
        #expect(run.resultDigest == ResultDigest.of(Array("another result".utf8)))
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: "s", content: content("v1")).scene.id
            try store.insertRun(Self.run(id, result: "changed after init"))
            let stored = try integersSQL(store, "SELECT digest AS value FROM run_results")
            #expect(stored == [ResultDigest.of(Array("changed after init".utf8))])
        }
    }

    @Test("runs written together are judged one by one; the refused leave nothing behind", arguments: Backend.allCases)
    func runsWrittenTogether(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: "s", content: content("v1")).scene.id
            try store.addVersion(sceneID: id, content: content("v2"))
            let outcomes = try store.insertRunsIndependently([
                (Self.run(id, version: 2, result: "a", tag: "a"), true),
                (Self.run("scn_missing", result: "b"), false),
                (Self.run(id, version: 9, result: "c"), false),
                (Self.run(id, version: 1, result: "d"), true),
                (Self.run(id, version: 1, result: "a", tag: "e"), false),
            ])
            #expect(outcomes.count == 5)
            let stored = outcomes.compactMap { try? $0.get() }
            #expect(stored.map(\.request) == [Data(#"{"touches":"a"}"#.utf8), Data(#"{"touches":"e"}"#.utf8)])
            #expect(throws: StoreError.sceneNotFound(sceneID: "scn_missing")) { try outcomes[1].get() }
            #expect(throws: StoreError.versionNotFound(sceneID: id, version: 9)) { try outcomes[2].get() }
            #expect(throws: StoreError.conflict(sceneID: id, expectedVersion: 1, actualVersion: 2)) { try outcomes[3].get() }
            #expect(try store.listRuns(sceneID: id, limit: 10).items.map(\.id) == stored.map(\.id).reversed())
            #expect(try rowCount(store, "runs") == 2)
            #expect(try rowCount(store, "run_results") == 1)   // "a" twice, stored once
            for run in stored { #expect(try store.run(id: run.id) == run) }
        }
    }

    /// Results are remembered in memory only once their transaction commits: a result row
    /// written by a transaction that rolled back must not be handed to a later run.
    @Test("a rolled-back result is not remembered", arguments: Backend.allCases)
    func rolledBackResultIsNotRemembered(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: "s", content: content("v1")).scene.id
            #expect(throws: StoreError.versionNotFound(sceneID: id, version: 7)) {
                try store.insertRuns([Self.run(id, result: "shared"), Self.run(id, version: 7, result: "x")])
            }
            #expect(try store.listRuns(sceneID: id, limit: 10).items.isEmpty)
            #expect(try rowCount(store, "run_results") == 0)
            let run = try store.insertRun(Self.run(id, result: "shared"))
            #expect(try store.run(id: run.id).result == Data("shared".utf8))
            let again = try store.insertRun(Self.run(id, result: "shared", tag: "again"))
            #expect(try store.run(id: again.id).result == Data("shared".utf8))
            #expect(try store.listRuns(sceneID: id, limit: 10).items.map(\.id) == [again.id, run.id])
            #expect(try rowCount(store, "run_results") == 1)
        }
    }

    /// A trace-like document: repetitive JSON, like a real result.
    static func traceLike(_ entries: Int, tag: String = "") -> String {
        "[" + (1...entries).map { #"{"seq":\#($0),"kind":"call","receiver":{"id":"card\#($0 % 20)","class":"UIButton"},"selector":"hitTest:withEvent:"\#(tag)}"# }
            .joined(separator: ",") + "]"
    }

    @Test("results that shrink are stored compressed and read back byte for byte; sharing still works after a reopen",
          arguments: Backend.sharedCases)
    func compressedResults(_ backend: Backend) throws {
        try withDatabase(backend) { database in
            let document = Self.traceLike(200)
            let id: String
            let first: RunRecord
            do {
                let store = try database.open(clock: .system)
                id = try store.createScene(name: "s", content: content("v1")).scene.id
                first = try store.insertRun(Self.run(id, result: document))
                try store.close()
            }
            let store = try database.open(clock: .system)
            defer { try? store.close() }
            #expect(try store.run(id: first.id).result == Data(document.utf8))
            // After the reopen nothing is remembered in memory: the row is found by its digest and
            // recognised by its compressed bytes.
            let second = try store.insertRun(Self.run(id, result: document, tag: "again"))
            #expect(try store.run(id: second.id).result == Data(document.utf8))
            #expect(try store.run(id: first.id).result == Data(document.utf8))
            #expect(try textsSQL(store, "SELECT encoding AS value FROM run_results") == ["zstd"])
            let sizes = try integersSQL(store, "SELECT length(bytes) AS value FROM run_results")
            #expect(sizes.count == 1)
            #expect(sizes.first.flatMap { $0 }.map { $0 * 3 < document.utf8.count } == true)
        }
    }

    @Test("results that do not shrink, and small ones, are stored as they are", arguments: Backend.allCases)
    func uncompressedResults(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: "s", content: content("v1")).scene.id
            let random = noise(20_000, seed: 7)
            var run = Self.run(id, result: "")
            run.result = random
            let stored = try store.insertRun(run)
            let small = try store.insertRun(Self.run(id, result: #"{"trace":[]}"#))
            #expect(try store.run(id: stored.id).result == random)
            #expect(try store.run(id: small.id).result == Data(#"{"trace":[]}"#.utf8))
            #expect(try textsSQL(store, "SELECT encoding AS value FROM run_results ORDER BY id") == ["identity", "identity"])
        }
    }

    @Test("a damaged compressed result is an error, not a wrong document")
    func damagedCompressedResult() throws {
        let stored = ResultCompression.encode(Data(Self.traceLike(50).utf8))
        #expect(stored.encoding == "zstd")
        #expect(try ResultCompression.decode(encoding: stored.encoding, bytes: stored.bytes) == Data(Self.traceLike(50).utf8))
        var damaged = stored.bytes
        damaged.removeLast(5)
        #expect(throws: StoreError.self) { try ResultCompression.decode(encoding: "zstd", bytes: damaged) }
        #expect(throws: StoreError.self) { try ResultCompression.decode(encoding: "brotli", bytes: stored.bytes) }
    }

    /// A database written by the schema-1 binary: its runs keep their results, `seq` goes on
    /// after the highest number ever used (a deleted run's included), and new runs share.
    @Test("migration 0002 carries schema-1 runs over")
    func migrationFromSchemaOne() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.databasePath
        let old = try SQLiteTraceStore(location: .file(path), clock: .system, migrations: Array(Migration.embedded.prefix(1)))
        let id = try insertSceneOfAnOlderSchema(old, name: "s", document: "v1")
        try old.writer.write { db in
            for (seq, result) in [(1, "one"), (2, "two"), (3, "three")] {
                try db.execute(
                    sql: """
                        INSERT INTO runs (seq, id, scene_id, scene_version, created_at, request, result,
                                          first_responder, actions, outcome, action_count)
                        VALUES (?, ?, ?, 1, '2026-11-22T00:00:00.000Z', '{}', ?, NULL, '[]', 'o', 0)
                        """,
                    arguments: [seq, "run_old\(seq)", id, Data(result.utf8)])
            }
            try db.execute(sql: "DELETE FROM runs WHERE seq = 3")
        }
        try old.close()

        let store = try SQLiteTraceStore(location: .file(path))
        defer { try? store.close() }
        #expect(store.health().schemaVersion == SQLiteTraceStore.supportedSchemaVersion)
        #expect(try store.run(id: "run_old1").result == Data("one".utf8))
        #expect(try store.run(id: "run_old2").result == Data("two".utf8))
        #expect(try store.run(id: "run_old2").summary.seq == 2)
        let new = try store.insertRun(Self.run(id, result: "two"))
        #expect(new.summary.seq == 4)
        #expect(try store.listRuns(sceneID: id, limit: 10).items.map(\.id) == [new.id, "run_old2", "run_old1"])
        let integrity = try store.writer.read { db in try String.fetchAll(db, sql: "PRAGMA foreign_key_check") }
        #expect(integrity.isEmpty)
        try store.deleteScene(id: id)
        #expect(try rowCount(store, "run_results") == 0)
    }
}
