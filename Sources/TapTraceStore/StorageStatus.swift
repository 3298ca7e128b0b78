import Foundation
import GRDB

extension StorageFailure.Kind {
    /// The kind of storage failure SQLite's result code reports; nil for other failures.
    init?(_ code: ResultCode) {
        switch code.primaryResultCode {
        case .SQLITE_FULL:
            self = .full
        case .SQLITE_IOERR, .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_CORRUPT, .SQLITE_NOTADB:
            self = .failing
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            self = .busy
        default:
            return nil
        }
    }
}

/// What the store's operations last told of its storage, for ``SQLiteTraceStore/health()``: a failure
/// (a full or failing disk) is known from the operation that met it until a write commits.
final class StorageStatus: @unchecked Sendable {
    /// Between two probes while a failure is known (`probeDue`).
    static let probeInterval: Duration = .seconds(1)

    private let lock = NSLock()
    private var known: StorageFailure?
    private var lastProbe: ContinuousClock.Instant?

    var failure: StorageFailure? { lock.withLock { known } }

    func failed(_ failure: StorageFailure) {
        lock.withLock { known = failure }
    }

    /// A write committed: the storage takes writes.
    func committed() {
        lock.withLock { known = nil }
    }

    /// Whether a failure is known and no probe ran for `probeInterval`; if so, the caller
    /// probes now (counted from here, so that concurrent callers do not all probe).
    func probeDue(now: ContinuousClock.Instant = .now) -> Bool {
        lock.withLock {
            guard known != nil else { return false }
            if let lastProbe, now - lastProbe < Self.probeInterval { return false }
            lastProbe = now
            return true
        }
    }
}
