import Foundation
import GRDB
import TestSupport
import Testing

@testable import TapTraceStore

/// Deleting a scene costs time linear in what it holds (issue 34, item 3): each deleted
/// `run_results` row is checked against `runs` through the index of migration 0006, not by a
/// scan of every run.
struct DeleteCostTests {
    @Test(arguments: Backend.sharedCases)
    func deletingASceneWith20000DistinctResultsIsLinear(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let doomed = try store.createScene(name: "doomed", content: content("a")).scene.id
            let kept = try store.createScene(name: "kept", content: content("b")).scene.id
            // Every run its own result, so the scene has 20,000 run_results rows to check.
            try store.insertRuns((0..<20_000).map { newRun(doomed, tag: "d\($0)") })
            let keptRun = try store.insertRun(newRun(kept))

            // Without the index this was 20,000 scans of 20,001 runs: minutes.
            let thread = TestThread {
                #expect((try? store.deleteScene(id: doomed))?.runCount == 20_000)
            }
            if !thread.join(timeoutSeconds: 60) {
                Issue.record("deleting 20,000 runs took over a minute: quadratic?")
                // The statement stops with SQLITE_INTERRUPT; the store can close.
                if let store = store as? SQLiteTraceStore { store.writer.interrupt() }
                thread.join()
            }
            #expect(try store.run(id: keptRun.id) == keptRun)
        }
    }

    /// The query plan of the foreign key check uses the index.
    @Test func theResultChecksUseTheIndex() throws {
        try withSQLiteStore(.memory) { store, _ in
            let plan = try store.writer.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT 1 FROM runs WHERE result_id = ?", arguments: [1])
                    .map { $0["detail"] as String }.joined(separator: "\n")
            }
            #expect(plan.contains("USING COVERING INDEX runs_by_result (result_id=?)"), "\(plan)")
        }
    }
}
