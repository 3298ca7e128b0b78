import Foundation
import TapTraceStore

// Deleting a scene, as in SQLite (migration 0007 there, 0001 here): one short transaction marks
// it, which hides it and everything it holds from every read of every process and refuses every
// write to it (run inserts and new versions check the mark under a lock on the scene's row);
// then one statement removes its rows, cascading from `scenes`. PostgreSQL locks rows, not the
// database, so a scene of 100,000 runs being removed holds up no other scene's writers, and
// there is no need to cut the removal into chunks as SQLite's store does.

extension PostgresTraceStore {
    public func deleteScene(id: String) throws -> DeletedScene {
        let deleted = try transaction { connection in
            let marked = try connection.execute(
                "UPDATE scenes SET deleted_at = $2 WHERE id = $1 AND deleted_at IS NULL RETURNING id",
                [.text(id), .text(Timestamp.rfc3339(clock.now()))])
            guard marked.rowCount == 1 else { throw StoreError.sceneNotFound(sceneID: id) }
            let counts = try connection.execute(
                """
                SELECT (SELECT count(*) FROM scene_versions WHERE scene_id = $1) AS versions,
                       (SELECT count(*) FROM runs WHERE scene_id = $1) AS runs
                """,
                [.text(id)])
            return DeletedScene(sceneID: id, versionCount: counts.int(0, "versions") ?? 0, runCount: counts.int(0, "runs") ?? 0)
        }
        // Its results may no longer be shared: their rows are about to go.
        recentResults.forget(sceneID: id)
        // Hidden already: a failure here (the server went away) leaves rows that the next
        // store to open the database removes (`finishDeletions`).
        try? purge(id)
        return deleted
    }

    /// Removes the rows of a scene marked deleted, without the minute's statement timeout: a
    /// scene of millions of runs may take longer, and nothing waits on its rows meanwhile.
    func purge(_ id: String) throws {
        try transaction { connection in
            try connection.run("SET LOCAL statement_timeout = 0")
            try connection.execute("DELETE FROM scenes WHERE id = $1 AND deleted_at IS NOT NULL", [.text(id)])
        }
    }

    /// Removes the rows of scenes whose deletion a process left unfinished, on a thread of its
    /// own so that opening the store does not wait for it.
    func finishDeletions() {
        guard let rows = try? operation({ connection in
            try connection.execute("SELECT id FROM scenes WHERE deleted_at IS NOT NULL")
        }), rows.rowCount > 0 else { return }
        let ids = (0..<rows.rowCount).compactMap { rows.string($0, "id") }
        let thread = Thread { [self] in
            for id in ids { try? purge(id) }
        }
        thread.name = "TapTrace purge"
        thread.start()
    }
}
