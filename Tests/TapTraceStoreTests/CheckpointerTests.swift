import Foundation
import TestSupport
import Testing

@testable import TapTraceStore

/// The write-ahead log is copied into the database file by the Checkpointer's thread, not by
/// the writer, which never checkpoints.
@Suite("Checkpointer")
struct CheckpointerTests {
    @Test("committed pages reach the database file without the writer checkpointing")
    func pagesReachTheFile() throws {
        // At the idle class the thread may not run for seconds while other tests keep the
        // processors busy; what is tested here is that it copies.
        try withSQLiteStore(.file, checkpoints: .init(runsWhenIdle: false)) { store, path in
            let size = { (try? FileManager.default.attributesOfItem(atPath: path!)[.size] as? Int) ?? 0 }
            let before = size()
            let id = try store.createScene(name: "s", content: content("v1")).scene.id
            // 2 MB of distinct results: about 500 pages, far below the writer's threshold.
            try insertDistinctResults(store, sceneID: id, count: 100)
            _ = eventually { size() >= before + 2_000_000 }
            #expect(size() >= before + 2_000_000)
        }
    }

    @Test("the writer never checkpoints inside a commit")
    func writerDoesNotCheckpoint() throws {
        try withSQLiteStore(.file) { store, _ in
            let pages = try store.writer.write { db in try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") }
            #expect(pages == 0)
        }
    }

    /// Under continuous writes a passive checkpoint never catches up, so the log would only
    /// grow; past `restartFrames` the restart checkpoint makes the next write start it over.
    @Test("the log is restarted once it holds restartFrames frames")
    func logIsRestarted() throws {
        // At the idle class it may not run at all while other tests keep the processors busy
        // (the backstop then bounds the log).
        let checkpoints = Checkpointer.Settings(interval: .milliseconds(50), restartFrames: 64, runsWhenIdle: false)
        try withSQLiteStore(.file, checkpoints: checkpoints) { store, path in
            let id = try store.createScene(name: "s", content: content("v1")).scene.id
            // 16 MB of distinct results (some 33 MB of log), written without pause: the log
            // starts over every round of the Checkpointer (50 ms, about 12 MB here).
            let largest = try insertDistinctResults(store, sceneID: id, count: 800, watching: path! + "-wal")
            #expect(largest < 24_000_000, "the write-ahead log grew to \(largest) bytes")
        }
    }

    /// Its thread yields to every other: a checkpoint copies some 3,000 pages every two seconds
    /// under stored dispatch, and at the same priority it held up the run writer and the
    /// workers for milliseconds at a time (decision 54).
    @Test("the Checkpointer's thread runs only when a processor is otherwise idle (Linux)")
    func threadIsIdleClass() throws {
        #if os(Linux)
        try withSQLiteStore(.file) { _, _ in
            // The thread names itself, then drops to the idle class: the name may be seen a
            // moment before the class. Every such thread of this process is looked at (other
            // tests' stores have one too), and every one must get there.
            var policies: [Int] = []
            _ = eventually {
                policies = schedulingPolicies(ofThreadsNamed: "TapTrace-ckpt")
                return !policies.isEmpty && policies.allSatisfy { $0 == 5 }
            }
            #expect(!policies.isEmpty)
            #expect(policies.allSatisfy { $0 == 5 }, "policies \(policies); SCHED_IDLE is 5")
        }
        #endif
    }

    /// A Checkpointer that gets no processor (its thread is of the idle class, and a busy
    /// machine may leave it none) must not let the log grow without bound: past
    /// `backstopFrames` the writer checkpoints itself, between two transactions, and the next
    /// write starts the log over.
    @Test("the writer checkpoints itself when the Checkpointer falls behind")
    func writerBacksUpAStalledCheckpointer() throws {
        // A Checkpointer that never comes round in this test.
        let checkpoints = Checkpointer.Settings(interval: .seconds(3600), restartFrames: 64, backstopFrames: 256,
                                                stallTime: .zero)
        try withSQLiteStore(.file, checkpoints: checkpoints) { store, path in
            let id = try store.createScene(name: "s", content: content("v1")).scene.id
            // 8 MB of distinct results, some 16 MB of log without a checkpoint.
            let largest = try insertDistinctResults(store, sceneID: id, count: 400, watching: path! + "-wal")
            // 256 frames of 4 KiB, plus the transaction that crosses the mark.
            #expect(largest < 2_000_000, "the write-ahead log grew to \(largest) bytes")
            #expect(store.logBackstop.checkpoints > 0)
            #expect(try store.runs(sceneID: id, version: 1).count == 400)
        }
    }

    /// Under heavy writes the log grows long between two rounds of a Checkpointer that keeps
    /// up; copying it is the Checkpointer's job, and the writer doing it held every stored
    /// dispatch for 208 ms (decision 54).
    @Test("the writer leaves a long log to a Checkpointer that comes round")
    func writerLeavesTheLogToAWorkingCheckpointer() throws {
        let checkpoints = Checkpointer.Settings(interval: .milliseconds(50), restartFrames: 64, backstopFrames: 256,
                                                runsWhenIdle: false, stallTime: .seconds(30))
        try withSQLiteStore(.file, checkpoints: checkpoints) { store, _ in
            let id = try store.createScene(name: "s", content: content("v1")).scene.id
            // 8 MB of distinct results: the log passes 256 frames between two rounds.
            try insertDistinctResults(store, sceneID: id, count: 400)
            #expect(store.logBackstop.checkpoints == 0)
        }
    }

    @Test("the backstop is due at its limit, and an eighth later after a checkpoint that fell short or was not needed")
    func backstopRetriesLater() {
        let backstop = LogBackstop(limit: 800)
        backstop.committed(frames: 799)
        #expect(!backstop.isDue)
        backstop.committed(frames: 800)
        #expect(backstop.isDue)
        // The Checkpointer held the lock, or a reader an old snapshot: not on every commit.
        backstop.attempted(copiedAll: false)
        backstop.committed(frames: 850)
        #expect(!backstop.isDue)
        backstop.committed(frames: 900)
        #expect(backstop.isDue)
        // Copied to the end: the next write starts the log over, short again.
        backstop.attempted(copiedAll: true)
        backstop.committed(frames: 12)
        #expect(!backstop.isDue)
        backstop.committed(frames: 800)
        #expect(backstop.isDue)
        // The Checkpointer is at work: looked at again an eighth later, not counted.
        backstop.postpone()
        backstop.committed(frames: 899)
        #expect(!backstop.isDue)
        backstop.committed(frames: 900)
        #expect(backstop.isDue)
        #expect(backstop.checkpoints == 2)
        // Postponed, then the Checkpointer's restart: the mark is the limit again.
        backstop.postpone()
        backstop.committed(frames: 30)
        backstop.committed(frames: 800)
        #expect(backstop.isDue)
    }

    @Test("the database file is synced through SQLite's own file handle")
    func syncsTheDatabaseFile() throws {
        try withSQLiteStore(.file) { store, path in
            try store.insertRun(newRun(try store.createScene(name: "s", content: content("v1")).scene.id, tag: "a"))
            let checkpointer = try Checkpointer(path: path!)
            #expect(checkpointer.syncDatabaseFile())
            try checkpointer.stop()
        }
    }

    /// A stopped server must not leave its write-ahead log behind: the next start would have
    /// to read it all again (a 5-minute soak left 348 MB). The pool's readers are read-only
    /// and close last, so closing alone never removed it once a reader had been used.
    @Test("closing the store folds the write-ahead log into the database file")
    func closeEmptiesTheLog() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteTraceStore(location: .file(directory.databasePath), clock: SteppingClock().clock)
        let id = try store.createScene(name: "s", content: content("v1")).scene.id
        try insertDistinctResults(store, sceneID: id, count: 20)
        #expect(store.health().ok)             // a read through the pool's reader
        let wal = directory.databasePath + "-wal"
        #expect(((try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0) > 0)
        try store.close()
        let left = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
        #expect(left == 0, "\(left) bytes of log left after close")
        // Everything is in the database file itself.
        let reopened = try SQLiteTraceStore(location: .file(directory.databasePath), clock: SteppingClock().clock)
        defer { try? reopened.close() }
        #expect(try reopened.runs(sceneID: id, version: 1).count == 20)
    }
}

/// Inserts `count` runs with distinct 20 KB results (about 5 pages each) for `sceneID`, and
/// returns the largest size the write-ahead log at `wal` had after any of them (0 without).
@discardableResult
func insertDistinctResults(_ store: SQLiteTraceStore, sceneID: String, count: Int, watching wal: String? = nil) throws -> Int {
    var largest = 0
    for k in 0..<count {
        var run = newRun(sceneID, tag: "\(k)")
        run.result = noise(20_000, seed: k)
        try store.insertRun(run)
        if let wal {
            largest = max(largest, (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0)
        }
    }
    return largest
}

/// Before asking the writer for a restart, the Checkpointer copies what was written while its
/// last checkpoint ran, until a round finds little new, so the restart (which holds up the
/// writer) has little left to sync and copy.
@Suite("Checkpointer catch-up")
struct CheckpointerCatchUpTests {
    /// Checkpoints that report the given `copied` counts in turn (nil: it could not run).
    final class Script {
        var results: [(frames: Int, copied: Int)?]
        var calls = 0
        init(_ copied: [Int?]) { results = copied.map { $0.map { (frames: $0, copied: $0) } } }
        func next() -> (frames: Int, copied: Int)? {
            defer { calls += 1 }
            return calls < results.count ? results[calls] : (frames: 0, copied: 0)
        }
    }

    @Test("rounds go on while each copies many frames, and stop at the first that copies few")
    func stopsWhenLittleIsNew() {
        let script = Script([32_000, 34_000, 34_200])
        #expect(Checkpointer.catchUp(from: 30_000, checkpoint: script.next) == 3)
        #expect(script.calls == 3)
    }

    @Test("a first round that copies few is the only one")
    func oneRound() {
        let script = Script([30_100])
        #expect(Checkpointer.catchUp(from: 30_000, checkpoint: script.next) == 1)
    }

    @Test("at most catchUpRounds rounds, however much each copies")
    func bounded() {
        let script = Script((1...10).map { 30_000 + $0 * 5_000 })
        #expect(Checkpointer.catchUp(from: 30_000, checkpoint: script.next) == Checkpointer.catchUpRounds)
        #expect(script.calls == Checkpointer.catchUpRounds)
    }

    @Test("a checkpoint that cannot run ends the catch-up")
    func failure() {
        let script = Script([35_000, nil, 40_000])
        #expect(Checkpointer.catchUp(from: 30_000, checkpoint: script.next) == 2)
    }

    @Test("the database file is synced once, after the catch-up and before the restart is asked for")
    func syncsTheDatabaseAfterCatchingUp() {
        var events: [String] = []
        let script = Script([32_000, 34_000, 34_100])
        Checkpointer.prepareRestart(
            from: 30_000,
            checkpoint: {
                events.append("checkpoint")
                return script.next()
            },
            syncDatabase: { events.append("sync") })
        #expect(events == ["checkpoint", "checkpoint", "checkpoint", "sync"])
    }
}
