import Foundation
import GRDB
import TestSupport
import Testing

@testable import TapTraceStore

/// Run ids grow as runs are written (RunIDSequence, decision 51), so new entries of the
/// unique index on `runs.id` go to its end.
@Suite("Run ids")
struct RunIDTests {
    @Test("values written in the sorted alphabet compare as text as they do as numbers, and read back")
    func sortedEncoding() {
        var generator = SystemRandomNumberGenerator()
        let extremes: [UInt64] = [0, 1, 31, 32, RunIDSequence.maxValue - 1, RunIDSequence.maxValue]
        let values = extremes + (0..<2000).map { _ in generator.next() & RunIDSequence.maxValue }
        for value in values {
            let id = StoreID.sorted(value, prefix: "run_")
            #expect(StoreID.isWellFormed(id, prefix: "run_"))
            #expect(StoreID.sortedValue(of: id, prefix: "run_") == value)
        }
        for (a, b) in zip(values, values.dropFirst()) {
            let (idA, idB) = (StoreID.sorted(a, prefix: "run_"), StoreID.sorted(b, prefix: "run_"))
            // SQLite compares TEXT byte by byte (BINARY collation).
            #expect(Array(idA.utf8).lexicographicallyPrecedes(Array(idB.utf8)) == (a < b))
        }
        #expect(StoreID.sorted(0, prefix: "run_") == "run_222222222222")
        #expect(StoreID.sorted(RunIDSequence.maxValue, prefix: "run_") == "run_zzzzzzzzzzzz")
        #expect(StoreID.sortedValue(of: "run_ABCDEFGHIJKL", prefix: "run_") == nil)
        #expect(StoreID.sortedValue(of: "scn_222222222222", prefix: "run_") == nil)
    }

    @Test("an id carries the millisecond since 2020 above 20 random bits")
    func layout() {
        let sequence = RunIDSequence(after: nil)
        let date = Date(timeIntervalSince1970: RunIDSequence.epoch + 1234.567)
        let value = StoreID.sortedValue(of: sequence.next(at: date, randomBits: 0xABCDE | 0xFFF0_0000), prefix: "run_")!
        #expect(value >> 20 == 1_234_567)
        #expect(value & 0xFFFFF == 0xABCDE)
        #expect(RunIDSequence.milliseconds(since2020: Date(timeIntervalSince1970: 0)) == 0)
        #expect(RunIDSequence.milliseconds(since2020: .distantFuture) == RunIDSequence.maxMilliseconds)
    }

    @Test("each sequence draws its random bits once, so two processes writing in one millisecond differ")
    func randomBitsPerSequence() {
        // Sequences of different processes, in the same millisecond: each draws its own bits
        // from the system, so their ids differ (three collide about 3 times in a million).
        let date = Date(timeIntervalSince1970: RunIDSequence.epoch + 99.999)
        let ids = (0..<3).map { _ in RunIDSequence(after: nil).next(at: date) }
        #expect(Set(ids).count == ids.count)
    }

    @Test("ids increase within a millisecond, when the clock goes back, and after the largest value")
    func increasing() {
        let sequence = RunIDSequence(after: nil)
        let now = Date(timeIntervalSince1970: 1_795_327_262.345)
        let (high, low): (UInt64, UInt64) = (.max, 0)
        var ids = [sequence.next(at: now, randomBits: high)]
        ids.append(sequence.next(at: now, randomBits: low))  // same millisecond, smaller random part
        ids.append(sequence.next(at: now.addingTimeInterval(-3600), randomBits: high))  // clock set back
        ids.append(sequence.next(at: now.addingTimeInterval(0.001), randomBits: low))
        for (a, b) in zip(ids, ids.dropFirst()) { #expect(a < b) }

        let last = RunIDSequence(after: StoreID.sorted(RunIDSequence.maxValue, prefix: "run_"))
        let wrapped = last.next(at: now, randomBits: 0x1234_5678_9ABC_DEF0)
        #expect(StoreID.sortedValue(of: wrapped, prefix: "run_") == 0x1234_5678_9ABC_DEF0 & RunIDSequence.maxValue)
    }

    @Test("runs get increasing ids in the order they are written, also after reopening with the clock set back",
          arguments: Backend.sharedCases)
    func storedInOrder(_ backend: Backend) throws {
        try withDatabase(backend) { database in
            var ids: [String] = []
            let store = try database.open(clock: SteppingClock().clock)
            let scene = try store.createScene(name: nil, content: content("one")).scene.id
            ids += try store.insertRuns((0..<5).map { newRun(scene, tag: "\($0)") }).map(\.id)
            for tag in 5..<10 { ids.append(try store.insertRun(newRun(scene, tag: "\(tag)")).id) }
            try store.close()

            // A day earlier: the ids go on from the largest stored, not from the clock.
            let yesterday = StoreClock.fixed(SteppingClock.start.addingTimeInterval(-86_400))
            let reopened = try database.open(clock: yesterday)
            defer { try? reopened.close() }
            ids += try reopened.insertRuns((10..<13).map { newRun(scene, tag: "\($0)") }).map(\.id)
            #expect(ids.count == 13)
            #expect(ids == ids.sorted())
            #expect(Set(ids).count == ids.count)
            #expect(ids.allSatisfy { StoreID.isWellFormed($0, prefix: "run_") })
            // Newest first by seq: the ids in the order they were written, reversed.
            let bySeq = try reopened.listRuns(sceneID: scene, limit: 100).items.map(\.id)
            #expect(bySeq == ids.reversed())
        }
    }

    @Test("a database whose runs have random ids (before decision 51) goes on after the largest",
          arguments: Backend.sharedCases)
    func afterRandomIDs(_ backend: Backend) throws {
        try withDatabase(backend) { database in
            let store = try database.open()
            let scene = try store.createScene(name: nil, content: content("one")).scene.id
            let old = try store.insertRun(newRun(scene, tag: "old"))
            try executeSQL(store, "UPDATE runs SET id = 'run_zzzz7abcdefg' WHERE id = $1", [.text(old.id)])
            try store.close()
            let reopened = try database.open()
            defer { try? reopened.close() }
            let next = try reopened.insertRun(newRun(scene, tag: "new"))
            #expect(next.id > "run_zzzz7abcdefg")
            #expect(StoreID.isWellFormed(next.id, prefix: "run_"))
        }
    }
}

@Suite("Run ids from two processes")
struct RunIDTwoWriterTests {
    @Test("two stores on one database that would hand out the same next id both write their runs",
          arguments: Backend.sharedCases)
    func twoStores(_ backend: Backend) throws {
        let database = try TestDatabase(backend)
        defer { database.remove() }
        // A stored id far ahead of the clock: both stores go on from it, by one.
        let setup = try database.open()
        let scene = try setup.createScene(name: nil, content: content("one")).scene.id
        let first = try setup.insertRun(newRun(scene, tag: "first"))
        let ahead = StoreID.sorted(RunIDSequence.maxValue - 10, prefix: "run_")
        try executeSQL(setup, "UPDATE runs SET id = $1 WHERE id = $2", [.text(ahead), .text(first.id)])
        try setup.close()

        let a = try database.open()
        defer { try? a.close() }
        let b = try database.open()
        defer { try? b.close() }
        let fromA = try a.insertRun(newRun(scene, tag: "a"))
        let fromB = try b.insertRun(newRun(scene, tag: "b"))
        #expect(fromA.id == StoreID.sorted(RunIDSequence.maxValue - 9, prefix: "run_"))
        #expect(fromB.id == StoreID.sorted(RunIDSequence.maxValue - 8, prefix: "run_"))
        let more = try a.insertRuns([newRun(scene, tag: "c"), newRun(scene, tag: "d")])
        #expect(more.map(\.id) == more.map(\.id).sorted())
        #expect(more[0].id > fromB.id)
        if backend == .file {
            // SQLite's store takes the next free id row by row. (PostgreSQL's sends the batch
            // again after the largest stored, past the ids its first attempt drew.)
            #expect(more.map(\.id) == [7, 6].map { StoreID.sorted(RunIDSequence.maxValue - $0, prefix: "run_") })
        }
        #expect(try rowCount(a, "runs") == 5)
        let listed = try b.listRuns(sceneID: scene, limit: 10).items.map(\.id)
        #expect(listed == [more[1].id, more[0].id, fromB.id, fromA.id, ahead])
    }
}
