import Foundation

/// The digests of the last few results hashed, each with the bytes it was computed from.
///
/// A harness re-running the same touches against the same version gets the same ~20 KB
/// result every time, and hashing it (`ResultDigest`, for every stored run) was the largest
/// single cost that stored dispatch adds to a stateless one: 25.7k of 283k instructions per
/// request (callgrind, bench request, 2026-11-24). Equal bytes have equal digests, so a
/// remembered digest is handed out only for bytes equal to the remembered ones, compared in
/// full; results that differ (another touch id, another version) differ in their length or
/// within their first few hundred bytes, where the touches are, so a miss costs little more
/// than the hash it falls back to.
///
/// Safe from any thread: the lock only guards the table; comparing runs outside it.
final class ResultDigestMemo: @unchecked Sendable {
    /// The memo `NewRun` uses.
    static let shared = ResultDigestMemo(capacity: 4)
    /// Larger results are hashed every time and not kept: the memo must not hold a big
    /// scene's megabytes of trace alive, and next to producing such a result hashing it is
    /// nothing.
    static let maxBytes = 256 * 1024

    private struct Entry {
        var bytes: Data
        var digest: Int64
    }

    private let capacity: Int
    private let lock = NSLock()
    /// Most recently hashed or used first.
    private var entries: [Entry] = []
    /// How many times a result was hashed rather than found (for tests).
    private var hashes = 0

    init(capacity: Int) {
        precondition(capacity > 0, "a memo needs room for one result")
        self.capacity = capacity
        entries.reserveCapacity(capacity)
    }

    /// `ResultDigest.of(result)`, without hashing bytes equal to ones hashed lately.
    func digest(of result: Data) -> Int64 {
        guard result.count <= Self.maxBytes else {
            lock.withLock { hashes += 1 }
            return result.withUnsafeBytes { ResultDigest.of($0) }
        }
        let known = lock.withLock { entries }
        for (index, entry) in known.enumerated() where entry.bytes == result {
            if index > 0 { remember(entry) }
            return entry.digest
        }
        let digest = result.withUnsafeBytes { ResultDigest.of($0) }
        lock.withLock { hashes += 1 }
        remember(Entry(bytes: result, digest: digest))
        return digest
    }

    var hashCount: Int { lock.withLock { hashes } }

    /// Puts `entry` first, dropping an older copy of the same bytes and the least recent entry
    /// beyond `capacity`.
    private func remember(_ entry: Entry) {
        lock.withLock {
            entries.removeAll { $0.digest == entry.digest && $0.bytes == entry.bytes }
            entries.insert(entry, at: 0)
            if entries.count > capacity { entries.removeLast(entries.count - capacity) }
        }
    }
}
