import Foundation
import GRDB
import Testing

@testable import TapTraceStore

/// History pages are read through an index range, newest first, without sorting: a page deep
/// in a long history costs what the first page costs (migration 0003 made the runs index
/// ascending; SQLite walks it backwards).
@Suite("History query plans")
struct HistoryQueryPlanTests {
    func plan(_ store: SQLiteTraceStore, _ sql: String, _ arguments: StatementArguments) throws -> String {
        try store.writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments)
                .map { $0["detail"] as String }.joined(separator: "\n")
        }
    }

    @Test("a scene's runs, newest first, come from a range of runs_by_scene_newest", arguments: [nil, 42] as [Int64?])
    func runs(_ cursor: Int64?) throws {
        try withSQLiteStore(.memory) { store, _ in
            let plan = try plan(store, SQLiteTraceStore.newestRunsSQL, ["scn_aaaaaaaaaaaa", cursor, 21])
            #expect(plan.contains("USING INDEX runs_by_scene_newest (scene_id=? AND seq<?)"), "\(plan)")
            #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
        }
    }

    @Test("a scene's runs of one label come from a range of runs_by_scene_label", arguments: [nil, 42] as [Int64?])
    func labelledRuns(_ cursor: Int64?) throws {
        try withSQLiteStore(.memory) { store, _ in
            let plan = try plan(store, SQLiteTraceStore.newestLabelledRunsSQL, ["scn_aaaaaaaaaaaa", cursor, 21, "checkout"])
            #expect(plan.contains("USING INDEX runs_by_scene_label (scene_id=? AND label=? AND seq<?)"), "\(plan)")
            #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
        }
    }

    @Test("scenes, newest first, come from a range of the table itself", arguments: [nil, 42] as [Int64?])
    func scenes(_ cursor: Int64?) throws {
        try withSQLiteStore(.memory) { store, _ in
            let plan = try plan(store, SQLiteTraceStore.newestScenesSQL, [cursor, 21])
            #expect(plan.contains("USING INTEGER PRIMARY KEY (rowid<?)"), "\(plan)")
            #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
        }
    }

    @Test("the runs index is ascending since migration 0003")
    func ascending() throws {
        try withSQLiteStore(.memory) { store, _ in
            let sql = try store.writer.read { db in
                try String.fetchOne(db, sql: "SELECT sql FROM sqlite_schema WHERE name = 'runs_by_scene_newest'")
            }
            #expect(sql == "CREATE INDEX runs_by_scene_newest ON runs(scene_id, seq)")
        }
    }
}
