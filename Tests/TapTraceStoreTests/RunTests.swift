import Foundation
import GRDB
import TestSupport
import Testing

@testable import TapTraceStore

@Suite("Runs")
struct RunTests {
    @Test("a run is stored with its documents and summary columns, and read back whole", arguments: Backend.allCases)
    func insertAndGet(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: nil, content: content("one")).scene.id
            let input = NewRun(
                sceneID: id, sceneVersion: 1, request: Data(#"{"touches":[]}"#.utf8), result: Data(#"{"trace":[]}"#.utf8),
                firstResponder: nil, actions: "[]", outcome: "no-hit", actionCount: 0)
            let run = try store.insertRun(input)
            #expect(StoreID.isWellFormed(run.id, prefix: "run_"))
            #expect(run.seq > 0)
            #expect(run.request == input.request)
            #expect(run.result == input.result)
            #expect(run.firstResponder == nil)
            #expect(run.outcome == "no-hit")
            #expect(run.createdAt.hasPrefix("2026-11-22T06:01:02."))
            #expect(try store.run(id: run.id) == run)
            #expect(throws: StoreError.runNotFound(runID: "run_missing")) { try store.run(id: "run_missing") }
        }
    }

    @Test("a run of a missing scene or version is rejected and leaves nothing behind", arguments: Backend.allCases)
    func rejectedRunWritesNothing(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: nil, content: content("one")).scene.id
            #expect(throws: StoreError.versionNotFound(sceneID: id, version: 2)) { try store.insertRun(newRun(id, version: 2)) }
            #expect(throws: StoreError.sceneNotFound(sceneID: "scn_nope")) { try store.insertRun(newRun("scn_nope")) }
            #expect(try store.listRuns(sceneID: id, limit: 10).items.isEmpty)
            #expect(try store.runExtent(sceneID: id, version: 1) == VersionRunExtent(count: 0, lastSeq: 0))
            #expect(try rowCount(store, "runs") == 0)
        }
    }

    @Test("runs are listed newest first; pages are stable when runs are inserted between requests",
          arguments: Backend.allCases)
    func listRunsPagination(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: nil, content: content("one")).scene.id
            let other = try store.createScene(name: nil, content: content("other")).scene.id
            var inserted: [String] = []
            for index in 0..<25 {
                inserted.append(try store.insertRun(newRun(id, tag: "\(index)")).id)
                if index % 5 == 0 { try store.insertRun(newRun(other)) }  // interleaved runs of another scene
            }
            let expected = Array(inserted.reversed())

            var seen: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let page = try store.listRuns(sceneID: id, limit: 10, after: cursor)
                seen += page.items.map(\.id)
                #expect(page.items.map(\.seq) == page.items.map(\.seq).sorted(by: >))
                cursor = page.nextCursor
                pages += 1
                // Newer runs arrive between page requests: they must not appear in, or shift, later pages.
                for late in 0..<3 { try store.insertRun(newRun(id, tag: "late\(pages)-\(late)")) }
            } while cursor != nil && pages < 10
            #expect(pages == 3)
            #expect(seen == expected)

            let fresh = try store.listRuns(sceneID: id, limit: 10)
            #expect(fresh.items.first?.outcome == "delivered late3-2")
            #expect(try store.listRuns(sceneID: other, limit: 100).items.count == 5)
            #expect(throws: StoreError.sceneNotFound(sceneID: "scn_nope")) { try store.listRuns(sceneID: "scn_nope", limit: 5) }
            let sceneCursor = try #require(try store.listScenes(limit: 1).nextCursor)
            #expect(throws: StoreError.invalidCursor(sceneCursor)) {
                try store.listRuns(sceneID: id, limit: 5, after: sceneCursor)
            }
        }
    }

    @Test("the runs of one scene version come back in insertion order with their documents", arguments: Backend.allCases)
    func runsOfVersionForReplay(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: nil, content: content("one")).scene.id
            try store.addVersion(sceneID: id, content: content("two"))
            var versionTwo: [RunRecord] = []
            for index in 0..<6 {
                let run = try store.insertRun(newRun(id, version: index % 2 + 1, tag: "\(index)"))
                if run.sceneVersion == 2 { versionTwo.append(run) }
            }
            #expect(try store.runs(sceneID: id, version: 2) == versionTwo)
            #expect(try store.runs(sceneID: id, version: 1).map(\.outcome) == ["delivered 0", "delivered 2", "delivered 4"])
            #expect(throws: StoreError.versionNotFound(sceneID: id, version: 3)) { try store.runs(sceneID: id, version: 3) }
        }
    }

    @Test("a version's runs are counted, and read a page at a time up to a given seq",
          arguments: Backend.allCases)
    func runsOfVersionInPages(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: nil, content: content("one")).scene.id
            try store.addVersion(sceneID: id, content: content("two"))
            #expect(try store.runExtent(sceneID: id, version: 1) == VersionRunExtent(count: 0, lastSeq: 0))
            var versionOne: [RunRecord] = []
            for index in 0..<9 {
                let run = try store.insertRun(newRun(id, version: index % 3 == 2 ? 2 : 1, tag: "\(index)"))
                if run.sceneVersion == 1 { versionOne.append(run) }
            }
            let extent = try store.runExtent(sceneID: id, version: 1)
            #expect(extent == VersionRunExtent(count: 6, lastSeq: versionOne.last!.summary.seq))
            // A run stored after the extent was taken is not in its pages.
            try store.insertRun(newRun(id, version: 1, tag: "late"))
            var pages: [[RunRecord]] = []
            var cursor: Int64 = 0
            while true {
                let page = try store.runs(sceneID: id, version: 1, after: cursor, through: extent.lastSeq, limit: 4)
                guard let last = page.last else { break }
                pages.append(page)
                cursor = last.summary.seq
            }
            #expect(pages.map(\.count) == [4, 2])
            #expect(pages.flatMap { $0 } == versionOne)
            #expect(throws: StoreError.versionNotFound(sceneID: id, version: 3)) { try store.runExtent(sceneID: id, version: 3) }
            #expect(throws: StoreError.versionNotFound(sceneID: id, version: 3)) {
                try store.runs(sceneID: id, version: 3, after: 0, through: .max, limit: 4)
            }
        }
    }

    @Test("8 concurrent writers inserting runs for a few hundred ms lose nothing and see no error",
          arguments: Backend.allCases)
    func concurrentWriters(_ backend: Backend) throws {
        try withStore(backend, clock: .system) { store, _ in
            let sceneID = try store.createScene(name: nil, content: content("one")).scene.id
            let inserted = Locked<[String]>([])
            let errors = Locked<[String]>([])
            runThreads(8) { writer in
                let deadline = ContinuousClock.now + .milliseconds(300)
                var mine: [String] = []
                var count = 0
                while ContinuousClock.now < deadline || count < 5 {
                    do {
                        mine.append(try store.insertRun(newRun(sceneID, tag: "w\(writer)-\(count)")).id)
                        // Readers run alongside the writers.
                        if count % 10 == 0 { _ = try store.listRuns(sceneID: sceneID, limit: 5) }
                    } catch {
                        errors.withLock { $0.append("\(error)") }
                    }
                    count += 1
                }
                inserted.withLock { $0 += mine }
            }
            #expect(errors.withLock { $0 } == [])
            let ids = inserted.withLock { $0 }
            #expect(ids.count >= 40)
            #expect(Set(ids).count == ids.count)
            #expect(try rowCount(store, "runs", sceneID: sceneID) == ids.count)

            var listed: [RunSummary] = []
            var cursor: String?
            repeat {
                let page = try store.listRuns(sceneID: sceneID, limit: 1000, after: cursor)
                listed += page.items
                cursor = page.nextCursor
            } while cursor != nil
            #expect(listed.count == ids.count)
            #expect(Set(listed.map(\.id)) == Set(ids))
            #expect(listed.map(\.seq) == listed.map(\.seq).sorted(by: >))
            #expect(Set(listed.map(\.seq)).count == listed.count)
        }
    }

    @Test("readers are not blocked while a write transaction is open (WAL)")
    func readersNotBlockedByWriter() throws {
        try withSQLiteStore(.file) { store, _ in
            let before = try store.createScene(name: "committed", content: content("one"))
            let writeOpen = DispatchSemaphore(value: 0)
            let readsDone = DispatchSemaphore(value: 0)
            let writerOutcome = Locked<String>("not finished")

            let group = DispatchGroup()
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    try store.writer.write { db in
                        try db.execute(
                            sql: """
                                INSERT INTO scenes (id, name, created_at, updated_at, latest_version)
                                VALUES ('scn_uncommitted0', 'pending', 'now', 'now', 1)
                                """)
                        writeOpen.signal()
                        // Hold the write transaction open until the reader is done. If reads
                        // were blocked by the writer, this wait would time out instead.
                        let result = readsDone.wait(timeout: .now() + 30)
                        writerOutcome.withLock { $0 = result == .success ? "reads finished during the write" : "timed out" }
                    }
                } catch {
                    writerOutcome.withLock { $0 = "\(error)" }
                }
            }.start()

            #expect(writeOpen.wait(timeout: .now() + 30) == .success)
            let page = try store.listScenes(limit: 10)
            let scene = try store.scene(id: before.scene.id)
            readsDone.signal()
            group.wait()

            #expect(writerOutcome.withLock { $0 } == "reads finished during the write")
            #expect(page.items.map(\.id) == [before.scene.id])  // the reader saw the last committed state
            #expect(scene == before)
            #expect(try store.listScenes(limit: 10).items.count == 2)
        }
    }
}
