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
        case .sqlite(let path): try SQLiteTraceStore(location: StoreLocation(path: path), settings: sqlite)
        case .postgres(let url): try PostgresTraceStore(url: url, settings: postgres)
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
