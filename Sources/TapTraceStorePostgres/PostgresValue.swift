import Foundation

/// A statement parameter, sent in binary form with its type, so that nothing is quoted or
/// parsed as text on either side (bytea documents of megabytes go as they are).
enum PostgresValue {
    case text(String?)
    case int(Int64?)
    case bytes(Data?)
    case bool(Bool)

    static func int(_ value: Int?) -> PostgresValue { .int(value.map(Int64.init)) }

    /// PostgreSQL's type oids (`pg_type`), fixed since 7.x.
    var oid: UInt32 {
        switch self {
        case .text: 25
        case .int: 20
        case .bytes: 17
        case .bool: 16
        }
    }

    /// The value's bytes in PostgreSQL's binary format (big-endian integers); nil for NULL.
    var binary: [UInt8]? {
        switch self {
        case .text(let text): text.map { Array($0.utf8) }
        case .int(let value): value.map { withUnsafeBytes(of: $0.bigEndian, Array.init) }
        case .bytes(let data): data.map { Array($0) }
        case .bool(let value): [value ? 1 : 0]
        }
    }
}
