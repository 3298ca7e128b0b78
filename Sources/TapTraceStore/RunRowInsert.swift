import Foundation
import GRDB
import GRDBSQLite

/// The `INSERT` of a stored run's row, with its eleven values bound straight through SQLite's C
/// interface on the statement GRDB prepared and cached.
///
/// Why not `Statement.execute(arguments:)`: the run writer inserts one row per stored dispatch,
/// and GRDB's arguments (an array of `DatabaseValue`s built from `DatabaseValueConvertible`
/// existentials, then bound one by one through generic code) cost more than the SQLite insert
/// itself does in a batch (`taptrace-bench store` and callgrind,
/// docs/performance.md). GRDB documents using the raw statement handle alongside it; it does
/// not see the execution, which matters only to transaction observers, and the store has none.
///
/// Text and blobs are bound with `SQLITE_TRANSIENT` (SQLite copies them before the call
/// returns), so no Swift buffer has to outlive the binding.
enum RunRowInsert {
    static let sql = """
        INSERT INTO runs (id, scene_id, scene_version, created_at, request, result_id,
                          first_responder, actions, outcome, action_count, label)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (id) DO NOTHING
        """

    /// Runs the cached insert for one row; returns whether a row was written (false: the id
    /// was taken, `ON CONFLICT (id) DO NOTHING`).
    static func execute(_ db: Database, id: String, run: NewRun, createdAt: String, resultID: Int64) throws -> Bool {
        let handle = try db.cachedStatement(sql: sql).sqliteStatement
        // The first failing bind's code; the binds after it are skipped. All eleven values are
        // bound on every call, so no earlier run's value can be left in place.
        var code = SQLITE_OK
        func bind(_ result: @autoclosure () -> Int32) { if code == SQLITE_OK { code = result() } }
        bind(bindText(handle, 1, id))
        bind(bindText(handle, 2, run.sceneID))
        bind(sqlite3_bind_int64(handle, 3, Int64(run.sceneVersion)))
        bind(bindText(handle, 4, createdAt))
        bind(bindBlob(handle, 5, run.request))
        bind(sqlite3_bind_int64(handle, 6, resultID))
        bind(run.firstResponder.map { bindText(handle, 7, $0) } ?? sqlite3_bind_null(handle, 7))
        bind(bindText(handle, 8, run.actions))
        bind(bindText(handle, 9, run.outcome))
        bind(sqlite3_bind_int64(handle, 10, Int64(run.actionCount)))
        bind(run.label.map { bindText(handle, 11, $0) } ?? sqlite3_bind_null(handle, 11))
        var failure: DatabaseError?
        if code != SQLITE_OK {
            failure = DatabaseError(resultCode: ResultCode(rawValue: code), message: "binding a run's values failed", sql: sql)
        } else if sqlite3_step(handle) != SQLITE_DONE {
            // Read before the reset, as GRDB does: the extended code (a constraint's kind) and
            // SQLite's message.
            let connection = db.sqliteConnection
            failure = DatabaseError(resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
                                    message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        }
        // Reset at once, whatever happened: a statement left stepped keeps its read of the
        // database open. Every call leaves it reset, so none has to reset it first.
        sqlite3_reset(handle)
        if let failure { throw failure }
        return sqlite3_changes(db.sqliteConnection) == 1
    }

    /// `SQLITE_TRANSIENT`, which the C header defines as a cast Swift does not import.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private static func bindText(_ handle: OpaquePointer, _ index: Int32, _ text: String) -> Int32 {
        var text = text
        return text.withUTF8 { bytes in
            // A non-null pointer for empty text: SQLite binds a null pointer as SQL NULL.
            let base = bytes.baseAddress.map { UnsafeRawPointer($0) } ?? UnsafeRawPointer(("" as StaticString).utf8Start)
            return sqlite3_bind_text(handle, index, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), transient)
        }
    }

    private static func bindBlob(_ handle: OpaquePointer, _ index: Int32, _ data: Data) -> Int32 {
        data.withUnsafeBytes { bytes in
            // An empty blob is bound as a zero-length blob, not NULL (the column is NOT NULL).
            guard let base = bytes.baseAddress, bytes.count > 0 else { return sqlite3_bind_zeroblob(handle, index, 0) }
            return sqlite3_bind_blob(handle, index, base, Int32(bytes.count), transient)
        }
    }
}
