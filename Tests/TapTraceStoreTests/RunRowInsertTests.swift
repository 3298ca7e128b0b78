import Foundation
import GRDB
import Testing

@testable import TapTraceStore

/// `RunRowInsert` binds a run's values through SQLite's C interface: every column must read
/// back as GRDB would have written it, a taken id must write nothing, and a failed insert must
/// throw SQLite's extended code and message.
@Suite("The run row insert")
struct RunRowInsertTests {
    /// A scene and a stored result to point runs at.
    private func fixture(_ store: SQLiteTraceStore) throws -> (sceneID: String, resultID: Int64) {
        let scene = try store.createScene(name: "insert", content: content("doc"))
        let resultID = try store.writer.write { db in
            try db.execute(sql: "INSERT INTO run_results (scene_id, digest, encoding, bytes) VALUES (?, NULL, 'identity', ?)",
                           arguments: [scene.scene.id, Data("{}".utf8)])
            return db.lastInsertedRowID
        }
        return (scene.scene.id, resultID)
    }

    @Test("every column reads back as written, text with quotes and non-ASCII, NULL and empty values", arguments: Backend.sqliteCases)
    func columnsRoundTrip(_ backend: Backend) throws {
        try withSQLiteStore(backend) { store, _ in
            let (sceneID, resultID) = try fixture(store)
            let full = NewRun(sceneID: sceneID, sceneVersion: 1, request: Data(#"{"touches":{"é":"\u0000"}}"#.utf8), result: Data(),
                              firstResponder: "button \"é\" 🙂", actions: #"[{"t":0.1}]"#, outcome: "o1:abc", actionCount: 3)
            let bare = NewRun(sceneID: sceneID, sceneVersion: 1, request: Data(), result: Data(),
                              firstResponder: nil, actions: "", outcome: "", actionCount: 0)
            try store.writer.write { db in
                let wroteFull = try RunRowInsert.execute(db, id: "run_aaaaaaaaaaaa", run: full, createdAt: "2026-11-25T08:00:00.000Z", resultID: resultID)
                let wroteBare = try RunRowInsert.execute(db, id: "run_aaaaaaaaaaab", run: bare, createdAt: "", resultID: resultID)
                #expect(wroteFull && wroteBare)
            }
            let rows = try store.writer.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT id, scene_id, scene_version, created_at, request, typeof(request) AS request_type, result_id,
                           first_responder, typeof(first_responder) AS responder_type, actions, outcome, action_count
                    FROM runs ORDER BY id
                    """)
            }
            #expect(rows.count == 2)
            let first = rows[0], second = rows[1]
            #expect(first["id"] as String == "run_aaaaaaaaaaaa")
            #expect(first["scene_id"] as String == sceneID)
            #expect(first["scene_version"] as Int == 1)
            #expect(first["created_at"] as String == "2026-11-25T08:00:00.000Z")
            #expect(first["request"] as Data == full.request)
            #expect(first["request_type"] as String == "blob")
            #expect(first["result_id"] as Int64 == resultID)
            #expect(first["first_responder"] as String? == "button \"é\" 🙂")
            #expect(first["actions"] as String == full.actions)
            #expect(first["outcome"] as String == "o1:abc")
            #expect(first["action_count"] as Int == 3)
            #expect(second["request_type"] as String == "blob", "an empty request is an empty blob, not NULL")
            #expect(second["request"] as Data == Data())
            #expect(second["responder_type"] as String == "null")
            #expect(second["created_at"] as String == "")
            #expect(second["actions"] as String == "")
        }
    }

    @Test("a taken id writes nothing and says so; the statement is ready for the next run", arguments: Backend.sqliteCases)
    func takenID(_ backend: Backend) throws {
        try withSQLiteStore(backend) { store, _ in
            let (sceneID, resultID) = try fixture(store)
            let run = newRun(sceneID)
            try store.writer.write { db in
                let first = try RunRowInsert.execute(db, id: "run_aaaaaaaaaaaa", run: run, createdAt: "t", resultID: resultID)
                let again = try RunRowInsert.execute(db, id: "run_aaaaaaaaaaaa", run: run, createdAt: "t", resultID: resultID)
                let next = try RunRowInsert.execute(db, id: "run_aaaaaaaaaaab", run: run, createdAt: "t", resultID: resultID)
                #expect(first && !again && next)
            }
            let count = try store.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM runs") }
            #expect(count == 2)
        }
    }

    @Test("a constraint the row breaks throws SQLite's extended code and message, and nothing is written", arguments: Backend.sqliteCases)
    func failures(_ backend: Backend) throws {
        try withSQLiteStore(backend) { store, _ in
            let (sceneID, resultID) = try fixture(store)
            try store.writer.write { db in
                do {
                    _ = try RunRowInsert.execute(db, id: "run_aaaaaaaaaaaa", run: newRun(sceneID, version: 7), createdAt: "t", resultID: resultID)
                    Issue.record("a run of a version that does not exist was written")
                } catch let error as DatabaseError {
                    #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
                    #expect(error.message?.contains("FOREIGN KEY") == true)
                }
                do {
                    _ = try RunRowInsert.execute(db, id: "not-a-run-id", run: newRun(sceneID), createdAt: "t", resultID: resultID)
                    Issue.record("a malformed id passed the CHECK constraint")
                } catch let error as DatabaseError {
                    #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_CHECK)
                }
                // The statement was reset after each failure: the next run goes in.
                let wrote = try RunRowInsert.execute(db, id: "run_aaaaaaaaaaaa", run: newRun(sceneID), createdAt: "t", resultID: resultID)
                #expect(wrote)
            }
            let count = try store.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM runs") }
            #expect(count == 1)
        }
    }
}
