import Foundation

/// Run ids that grow in the order runs are written, so that each new id goes to the right
/// end of the `runs.id` index instead of a random leaf of it.
///
/// Why: with random ids (``StoreID/make(prefix:)``) every run of a group commit dirtied a
/// leaf of its own in the unique index on `runs.id`, and SQLite's log holds whole pages: a
/// batch of k runs wrote about k + 4 pages (the index leaves, the `runs` leaf, the two
/// history indexes, `sqlite_sequence`) where ordered ids write about 5. The log's volume, its
/// checkpoints and the disk waits of the writer grew with it (docs/performance.md; decision 51).
///
/// The id keeps the shape of every other id (`run_` and 12 characters of the same base32
/// set, ``StoreID/isWellFormed(_:prefix:)``) and carries a 60-bit value written with
/// ``StoreID/sortedAlphabet``, whose characters sort as their values do: byte order of ids
/// is numeric order of values. The value is the millisecond of the write since 2020-01-01
/// (40 bits, until 2054) above 20 bits drawn at random once per sequence (process), or one
/// more than the last id handed out when that is not larger (several runs in a millisecond,
/// or a clock set back). The last id is read from the database when the store opens, so ids
/// stay unique and increasing across restarts, whatever the clock does; ids written before this scheme (random, decision 51)
/// only raise the starting point. Another process writing runs to the same file may take an
/// id first: the insert then finds it taken and goes on after the largest stored
/// (`advance(past:)`).
package final class RunIDSequence: @unchecked Sendable {
    /// 2020-01-01T00:00:00Z in seconds since 1970.
    static let epoch: TimeInterval = 1_577_836_800
    static let randomBits: UInt64 = 20
    static let valueBits: UInt64 = UInt64(StoreID.randomLength) * 5
    static let maxValue: UInt64 = (1 << valueBits) - 1
    static let maxMilliseconds: UInt64 = (1 << (valueBits - randomBits)) - 1

    private let lock = NSLock()
    private var last: UInt64?

    /// The low bits of this sequence's ids, drawn once: they keep two processes writing runs
    /// in the same millisecond apart (a collision is caught by the insert, `advance(past:)`).
    /// Not a draw per run: that was a `getrandom` system call on the run writer's thread for
    /// every stored dispatch.
    private let salt: UInt64

    /// - Parameter newest: The largest run id stored so far (`max(id)`), if any.
    package init(after newest: String?) {
        last = newest.flatMap { StoreID.sortedValue(of: $0, prefix: StoreID.runPrefix) }
        var system = SystemRandomNumberGenerator()
        salt = system.next()
    }

    /// Makes the next ids larger than `id` (the largest stored, when another process has
    /// written runs meanwhile).
    package func advance(past id: String?) {
        guard let value = id.flatMap({ StoreID.sortedValue(of: $0, prefix: StoreID.runPrefix) }) else { return }
        lock.withLock { last = max(last ?? value, value) }
    }

    /// The next id for a run written at `date`.
    package func next(at date: Date) -> String {
        next(at: date, randomBits: salt)
    }

    /// The next id, with `randomBits` as its low bits when the millisecond is new.
    func next(at date: Date, randomBits: UInt64) -> String {
        let milliseconds = Self.milliseconds(since2020: date)
        let candidate = milliseconds << Self.randomBits | randomBits & ((1 << Self.randomBits) - 1)
        let value: UInt64 = lock.withLock {
            var value = candidate
            if let last, value <= last {
                // Past the largest value (after 2^60 ids written in order, never): the random
                // bits alone, and the UNIQUE constraint on runs.id guards as it did for random ids.
                value = last < Self.maxValue ? last + 1 : randomBits & Self.maxValue
            }
            last = value
            return value
        }
        return StoreID.sorted(value, prefix: StoreID.runPrefix)
    }

    static func milliseconds(since2020 date: Date) -> UInt64 {
        let milliseconds = (date.timeIntervalSince1970 - epoch) * 1000
        guard milliseconds > 0 else { return 0 }
        return min(UInt64(milliseconds.rounded()), maxMilliseconds)
    }
}
