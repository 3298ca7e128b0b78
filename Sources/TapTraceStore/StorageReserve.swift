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
/// and the delete tried again; once the storage takes writes again (the health probe's write
/// succeeds, or any commit does), the reserve is made again. The blocks are allocated
/// (`posix_fallocate`), not a sparse file, so the room is really there.
final class StorageReserve: @unchecked Sendable {
    /// 1 MiB: marking a scene deleted and removing its rows in chunks of a few hundred takes a
    /// few hundred kilobytes of log at most (1 KiB pages).
    static let defaultBytes = 1 << 20

    let path: String
    let bytes: Int
    private let lock = NSLock()
    private var present = false

    init(databasePath: String, bytes: Int = defaultBytes) {
        path = databasePath + "-reserve"
        self.bytes = bytes
    }

    /// Makes the reserve when it is not there; false when there is no room for it (it is tried
    /// again later). Cheap when present.
    @discardableResult
    func ensure() -> Bool {
        lock.withLock {
            if present { return true }
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
    }

    /// Frees the reserve's space; false when there was none to free.
    func release() -> Bool {
        lock.withLock {
            let existed = unlink(path) == 0
            present = false
            return existed
        }
    }

    /// Whether the reserve is there now (for tests).
    var isPresent: Bool { lock.withLock { present } }
}
