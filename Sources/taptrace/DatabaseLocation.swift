import ArgumentParser
import Foundation
import TapTraceStore
import TapTraceStorePostgres

/// What `--db` / `TAPTRACE_DB` names: a PostgreSQL database (`postgres://…` or
/// `postgresql://…`), or a SQLite file (`sqlite:PATH`, or a plain path; `:memory:` keeps
/// nothing). The service gets an `any TraceStore` and does not know which (decision 141).
enum DatabaseLocation: Equatable {
    case sqlite(String)
    case postgres(String)

    init(_ text: String) {
        if PostgresTraceStore.names(text) {
            self = .postgres(text)
        } else if text.hasPrefix("sqlite:") {
            self = .sqlite(String(text.dropFirst("sqlite:".count)))
        } else {
            self = .sqlite(text)
        }
    }

    func open(sqlite: StoreSettings, postgres: PostgresStoreSettings) throws -> any TraceStore {
        switch self {
        case .sqlite(let path):
            return try SQLiteTraceStore(location: StoreLocation(path: path), settings: sqlite)
        case .postgres(let url):
            return try PostgresTraceStore(url: url, settings: postgres)
        }
    }

    /// SQLite's own settings have no meaning on PostgreSQL: refused rather than ignored.
    func validate(sqlite: StoreSettings) throws {
        guard case .postgres = self else { return }
        if sqlite.synchronous != .normal {
            throw ValidationError("--synchronous applies to SQLite; PostgreSQL's durability is the server's synchronous_commit")
        }
        if sqlite.maxDatabaseBytes != nil {
            throw ValidationError("--database-size-limit applies to SQLite; limit a PostgreSQL database on the server")
        }
    }

    /// The location as the log and the start line show it: a URL's password is never printed.
    var displayed: String {
        switch self {
        case .sqlite(let path):
            return path
        case .postgres(let url):
            guard var components = URLComponents(string: url) else { return "postgres://…" }
            if components.password != nil { components.password = "***" }
            components.queryItems = components.queryItems?.map { item in
                item.name.lowercased() == "password" ? URLQueryItem(name: item.name, value: "***") : item
            }
            return components.string ?? "postgres://…"
        }
    }
}
