import TapTraceStore

/// What PostgreSQL (or libpq) said when a statement or a connection failed.
struct PostgresError: Error, CustomStringConvertible {
    /// The SQLSTATE (`23505`, `08006`, …); nil when libpq failed before the server answered.
    var sqlState: String?
    var message: String
    /// The connection is gone (the server stopped, restarted or cannot be reached): the
    /// statement's fate is unknown and the connection must not be used again.
    var connectionLost: Bool
    /// The constraint a violation names (`runs_id_key`, …).
    var constraint: String?

    var description: String { "PostgreSQL \(sqlState ?? "connection"): \(message)" }

    /// A unique violation of the run id: another process took the id first.
    var isRunIDTaken: Bool { sqlState == "23505" && constraint == "runs_id_key" }

    /// As a ``StoreError``: a server that cannot be reached or is shutting down, a full or
    /// failing disk, lock waits and conflicts are storage failures (503 with `Retry-After`,
    /// nothing stored); everything else is a database error.
    var storeError: StoreError {
        let state = sqlState ?? ""
        if connectionLost || state.hasPrefix("08") || ["57P01", "57P02", "57P03", "53300"].contains(state) {
            // 57P0x: administrator shutdown, crash shutdown, cannot connect now (starting up);
            // 53300: too many connections.
            return .storage(StorageFailure(kind: .unreachable, message: description))
        }
        if state == "53100" { return .storage(StorageFailure(kind: .full, message: description)) }
        if state.hasPrefix("53") || state.hasPrefix("58") || state == "25006" {
            // Out of memory or other resources, I/O errors, a read-only server (a standby).
            return .storage(StorageFailure(kind: .failing, message: description))
        }
        if ["40001", "40P01", "55P03", "57014"].contains(state) {
            // Serialization failure, deadlock, lock not available, a cancelled statement.
            return .storage(StorageFailure(kind: .busy, message: description))
        }
        return .database(description)
    }
}
