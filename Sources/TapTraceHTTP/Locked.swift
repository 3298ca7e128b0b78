import Foundation

/// A value guarded by a lock, shareable across libmicrohttpd's threads.
///
/// `Mutex` from Synchronization would do the same, but it needs macOS 15 and
/// the package still declares macOS 13.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
