import CLibPQ
import Foundation

/// The rows of one statement, in binary form (every statement asks for binary results), read
/// by column name. Owns the libpq result and frees it.
final class PostgresResult {
    private let handle: OpaquePointer
    let rowCount: Int
    private var columns: [String: Int32] = [:]

    init(_ handle: OpaquePointer) {
        self.handle = handle
        rowCount = Int(PQntuples(handle))
    }

    deinit { PQclear(handle) }

    /// The number of rows an INSERT, UPDATE or DELETE changed.
    var affectedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    private func column(_ name: String) -> Int32 {
        if let index = columns[name] { return index }
        let index = PQfnumber(handle, name)
        precondition(index >= 0, "no column \(name) in the result")
        columns[name] = index
        return index
    }

    func isNull(_ row: Int, _ name: String) -> Bool {
        PQgetisnull(handle, Int32(row), column(name)) == 1
    }

    /// A smallint, integer or bigint column; nil when NULL.
    func int64(_ row: Int, _ name: String) -> Int64? {
        let index = column(name)
        guard PQgetisnull(handle, Int32(row), index) == 0 else { return nil }
        let length = Int(PQgetlength(handle, Int32(row), index))
        guard let bytes = PQgetvalue(handle, Int32(row), index) else { return nil }
        var value: Int64 = 0
        for offset in 0..<length { value = value << 8 | Int64(UInt8(bitPattern: bytes[offset])) }
        // Sign-extend 2- and 4-byte integers.
        if length < 8, length > 0 {
            let shift = Int64(64 - 8 * length)
            value = (value << shift) >> shift
        }
        return value
    }

    func int(_ row: Int, _ name: String) -> Int? { int64(row, name).map(Int.init) }

    /// A text column; nil when NULL.
    func string(_ row: Int, _ name: String) -> String? {
        let index = column(name)
        guard PQgetisnull(handle, Int32(row), index) == 0, let bytes = PQgetvalue(handle, Int32(row), index) else {
            return nil
        }
        let length = Int(PQgetlength(handle, Int32(row), index))
        return bytes.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    /// A bytea column; nil when NULL.
    func data(_ row: Int, _ name: String) -> Data? {
        let index = column(name)
        guard PQgetisnull(handle, Int32(row), index) == 0, let bytes = PQgetvalue(handle, Int32(row), index) else {
            return nil
        }
        return Data(bytes: bytes, count: Int(PQgetlength(handle, Int32(row), index)))
    }

    /// A boolean column; nil when NULL.
    func bool(_ row: Int, _ name: String) -> Bool? {
        let index = column(name)
        guard PQgetisnull(handle, Int32(row), index) == 0, let bytes = PQgetvalue(handle, Int32(row), index) else {
            return nil
        }
        return bytes[0] != 0
    }
}
