import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file of `bytes` kept beside the database (`<database>-reserve`) so that deleting can free
/// space on a file system that writes have filled (issue 34, item 5).
///
/// On a full file system SQLite cannot write even the few pages that mark a scene deleted: the
/// log grows before the database file shrinks. So the store keeps this much of the disk for
/// itself while there is room. When a delete finds the storage full, the reserve is removed
/// and the delete tried again. The blocks are allocated (`posix_fallocate`), not a sparse
/// file, so the room is really there.
///
/// The reserve is made again only when the file system has room to spare (`requiredFreeBytes`):
/// space an operator frees on a full disk goes to the database first. Made at once, it took
/// back the megabyte just freed, and SQLite, which must grow the database file to copy its log
/// into it, found the disk as full as before: writes were refused until the next restart.
final class StorageReserve: @unchecked Sendable {
    /// 1 MiB: marking a scene deleted and removing its rows in chunks of a few hundred takes a
    /// few hundred kilobytes of log at most (1 KiB pages).
    static let defaultBytes = 1 << 20
    /// Between two attempts to make the reserve while it is missing (`ensureSoon`).
    static let retryInterval: Duration = .seconds(5)

    let path: String
    let bytes: Int
    private let logPath: String
    private let availableBytes: @Sendable (String) -> Int?
    private let lock = NSLock()
    private var present = false
    private var lastAttempt: ContinuousClock.Instant?

    /// - Parameter availableBytes: The bytes an unprivileged writer may still allocate on the
    ///   file system that holds a path (tests pass their own); nil when unknown.
    init(databasePath: String, bytes: Int = defaultBytes,
         availableBytes: @escaping @Sendable (String) -> Int? = StorageReserve.availableBytes(at:)) {
        path = databasePath + "-reserve"
        logPath = databasePath + "-wal"
        self.bytes = bytes
        self.availableBytes = availableBytes
    }

    /// The free space the reserve needs before it is made: its own bytes, as many again left
    /// for the database, and the log's length, since copying the log into the database file
    /// may grow that file by as much.
    func requiredFreeBytes() -> Int {
        var status = stat()
        let logBytes = stat(logPath, &status) == 0 ? Int(status.st_size) : 0
        return 2 * bytes + logBytes
    }

    /// Makes the reserve when it is not there and the file system has room to spare for it
    /// (`requiredFreeBytes`); false when it is still missing. Cheap when present.
    @discardableResult
    func ensure() -> Bool {
        lock.withLock { ensureLocked(now: .now) }
    }

    /// `ensure`, but at most once every `retryInterval` while the reserve is missing: for
    /// callers on a hot path (every commit of the store).
    func ensureSoon(now: ContinuousClock.Instant = .now) {
        lock.withLock {
            guard !present else { return }
            if let lastAttempt, now - lastAttempt < Self.retryInterval { return }
            _ = ensureLocked(now: now)
        }
    }

    private func ensureLocked(now: ContinuousClock.Instant) -> Bool {
        if present { return true }
        lastAttempt = now
        guard let available = availableBytes(path), available >= requiredFreeBytes() else { return false }
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard posix_fallocate(fd, 0, off_t(bytes)) == 0 else {
            // Not the whole reserve: none, so that what there is goes to the database.
            unlink(path)
            return false
        }
        present = true
        return true
    }

    /// Frees the reserve's space; false when there was none to free.
    func release() -> Bool {
        lock.withLock {
            let existed = unlink(path) == 0
            present = false
            lastAttempt = .now
            return existed
        }
    }

    /// Whether the reserve is there now (for tests).
    var isPresent: Bool { lock.withLock { present } }

    /// `statvfs`'s blocks available to unprivileged writers of the file system that holds
    /// `path`'s directory, in bytes.
    @Sendable static func availableBytes(at path: String) -> Int? {
        let directory = (path as NSString).deletingLastPathComponent
        var status = statvfs()
        guard statvfs(directory.isEmpty ? "." : directory, &status) == 0 else { return nil }
        return Int(status.f_bavail) * Int(status.f_frsize)
    }
}
