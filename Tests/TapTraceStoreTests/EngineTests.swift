import Foundation
import TestSupport
import Testing

@testable import TapTraceStore

/// The store suite runs its engine-neutral cases on PostgreSQL as well as SQLite (issue 36)
/// when `TAPTRACE_TEST_POSTGRES` names a server. Under CI that is required: a CI run without a
/// server would otherwise pass having skipped PostgreSQL.
@Suite("The store suite's engines")
struct EngineTests {
    @Test("under CI the store suite runs on PostgreSQL too (TAPTRACE_TEST_POSTGRES is set)")
    func postgresUnderCI() {
        let ci = ProcessInfo.processInfo.environment["CI"] ?? ""
        guard !["", "0", "false"].contains(ci.lowercased()) else { return }
        #expect(PostgresTestServer.url != nil, """
            CI is set but TAPTRACE_TEST_POSTGRES is not: the store suite would skip PostgreSQL \
            (scripts/test starts a server with scripts/postgres)
            """)
    }

    @Test("a new store is healthy, with the schema it expects", arguments: Backend.allCases)
    func health(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let health = store.health()
            #expect(health.ok)
            #expect(health.error == nil)
            #expect(health.storage == nil)
            #expect(health.schemaVersion == health.supportedSchemaVersion)
        }
    }
}

/// Writes conditioned on the latest version (`If-Match`) are decided inside the write
/// transaction: of writers that raced on the same version exactly one wins, whichever thread
/// or store (process) it runs in, and every other one is told the version that beat it.
@Suite("Conflicting writers")
struct ConflictingWriterTests {
    /// `addVersion(expectedCurrentVersion: 1)` from `count` threads at once, each on the store
    /// `stores[index % stores.count]`: the outcomes, "won" or the error.
    static func race(_ stores: [any TraceStore], sceneID: String, count: Int) -> [String] {
        let outcomes = Locked<[String]>([])
        let ready = DispatchGroup()
        let go = DispatchSemaphore(value: 0)
        for _ in 0..<count { ready.enter() }
        let starter = Thread {
            ready.wait()
            for _ in 0..<count { go.signal() }
        }
        starter.start()
        runThreads(count) { index in
            let store = stores[index % stores.count]
            ready.leave()
            go.wait()
            let outcome: String
            do {
                let stored = try store.addVersion(sceneID: sceneID, content: content("writer \(index)"), expectedCurrentVersion: 1)
                outcome = stored.version.version == 2 ? "won" : "won version \(stored.version.version)"
            } catch {
                outcome = "\(error)"
            }
            outcomes.withLock { $0.append(outcome) }
        }
        return outcomes.withLock { $0 }
    }

    @Test("of 8 threads adding version 2 at once, exactly one wins; the others are conflicts", arguments: Backend.allCases)
    func oneStore(_ backend: Backend) throws {
        try withStore(backend, clock: .system) { store, _ in
            let id = try store.createScene(name: nil, content: content("one")).scene.id
            let outcomes = Self.race([store], sceneID: id, count: 8)
            let conflict = "\(StoreError.conflict(sceneID: id, expectedVersion: 1, actualVersion: 2))"
            #expect(outcomes.filter { $0 == "won" }.count == 1, "\(outcomes)")
            #expect(outcomes.filter { $0 == conflict }.count == 7, "\(outcomes)")
            #expect(try store.listVersions(sceneID: id).map(\.version) == [1, 2])
            #expect(try store.latestVersion(sceneID: id) == 2)
        }
    }

    @Test("runs that require the latest version are refused once another writer added one", arguments: Backend.allCases)
    func requireLatestAgainstANewVersion(_ backend: Backend) throws {
        try withStore(backend, clock: .system) { store, _ in
            let id = try store.createScene(name: nil, content: content("one")).scene.id
            // Each writer's outcomes in order: a run id, or the error.
            let outcomes = Locked<[[Result<RunRecord, StoreError>]]>(Array(repeating: [], count: 5))
            let added = Locked<Int?>(nil)
            runThreads(5) { index in
                if index == 0 {
                    usleep(20_000)
                    let version = try? store.addVersion(sceneID: id, content: content("two"), expectedCurrentVersion: 1)
                    added.withLock { $0 = version?.version.version }
                    return
                }
                for n in 0..<20 {
                    let result = Result { try store.insertRun(newRun(id, tag: "t\(index)-\(n)"), requireLatest: true) }
                        .mapError { $0 as? StoreError ?? .database("\($0)") }
                    outcomes.withLock { $0[index].append(result) }
                }
            }
            #expect(added.withLock { $0 } == 2)
            let conflict = StoreError.conflict(sceneID: id, expectedVersion: 1, actualVersion: 2)
            var stored: [RunRecord] = []
            for writer in outcomes.withLock({ $0 }).dropFirst() {
                #expect(writer.count == 20)
                // Once a writer was refused, the version it asked for is never the latest again.
                let firstRefusal = writer.firstIndex { if case .failure = $0 { true } else { false } } ?? writer.count
                for result in writer[firstRefusal...] { #expect(result == .failure(conflict)) }
                stored += writer[..<firstRefusal].compactMap { try? $0.get() }
            }
            #expect(try store.runExtent(sceneID: id, version: 1).count == stored.count)
            #expect(try store.runExtent(sceneID: id, version: 2).count == 0)
            for run in stored.suffix(10) { #expect(try store.run(id: run.id) == run) }
        }
    }
}

/// Two stores on one database, as two `taptrace serve` processes share it: each sees what the
/// other wrote, runs are listed in the order they were written, and conditional writes are
/// decided between them.
@Suite("Two stores on one database")
struct SharedDatabaseTests {
    @Test("each store sees the other's scenes, versions, runs, screenshots and deletions", arguments: Backend.sharedCases)
    func eachSeesTheOther(_ backend: Backend) throws {
        try withTwoStores(backend) { a, b in
            let created = try a.createScene(name: "shared", content: content("one"))
            let id = created.scene.id
            #expect(try b.scene(id: id) == created)
            let second = try b.addVersion(sceneID: id, content: content("two"), expectedCurrentVersion: 1)
            #expect(try a.scene(id: id) == second)
            #expect(throws: StoreError.conflict(sceneID: id, expectedVersion: 1, actualVersion: 2)) {
                try a.addVersion(sceneID: id, content: content("stale"), expectedCurrentVersion: 1)
            }
            #expect(throws: StoreError.conflict(sceneID: id, expectedVersion: 1, actualVersion: 2)) {
                try a.insertRun(newRun(id), requireLatest: true)
            }

            // Runs written by turns are listed in the order they were written, whichever store
            // wrote them; each store's ids grow. (Two stores' ids written in one millisecond
            // differ in random bits, so they need not grow across stores.)
            var written: [RunRecord] = []
            for n in 0..<6 {
                let store = n % 2 == 0 ? a : b
                written.append(try store.insertRun(newRun(id, version: 2, tag: "turn\(n)"), requireLatest: true))
            }
            written += try a.insertRuns([newRun(id, version: 1, tag: "batch a"), newRun(id, version: 2, tag: "batch b")])
            let ids = written.map(\.id)
            let fromA = [0, 2, 4, 6, 7].map { ids[$0] }
            let fromB = [1, 3, 5].map { ids[$0] }
            #expect(fromA == fromA.sorted())
            #expect(fromB == fromB.sorted())
            #expect(Set(ids).count == ids.count)
            #expect(written.map(\.seq) == written.map(\.seq).sorted())
            #expect(try a.listRuns(sceneID: id, limit: 100).items.map(\.id) == ids.reversed())
            #expect(try b.listRuns(sceneID: id, limit: 100).items.map(\.id) == ids.reversed())
            for run in written { #expect(try b.run(id: run.id) == run) }

            let shot = try a.putScreenshot(sceneID: id, version: 2,
                                           NewScreenshot(mediaType: "image/png", width: 2, height: 3, image: Data([9, 8, 7])))
            #expect(try b.screenshot(sceneID: id, version: 2)?.info == shot.info)
            #expect(try b.deleteScreenshot(sceneID: id, version: 2))
            #expect(try a.screenshotInfos(sceneID: id).isEmpty)

            let other = try b.createScene(name: "other", content: content("o")).scene.id
            #expect(try a.listScenes(limit: 10).items.map(\.id) == [other, id])
            #expect(try b.deleteScene(id: id) == DeletedScene(sceneID: id, versionCount: 2, runCount: written.count))
            #expect(throws: StoreError.sceneNotFound(sceneID: id)) { try a.scene(id: id) }
            #expect(throws: StoreError.runNotFound(runID: ids[0])) { try a.run(id: ids[0]) }
            #expect(throws: StoreError.sceneNotFound(sceneID: id)) { try a.insertRun(newRun(id, version: 2)) }
            #expect(try a.listScenes(limit: 10).items.map(\.id) == [other])
        }
    }

    @Test("of 8 threads on two stores adding version 2 at once, exactly one wins", arguments: Backend.sharedCases)
    func conflictsAcrossStores(_ backend: Backend) throws {
        try withTwoStores(backend, clock: .system) { a, b in
            let id = try a.createScene(name: nil, content: content("one")).scene.id
            let outcomes = ConflictingWriterTests.race([a, b], sceneID: id, count: 8)
            let conflict = "\(StoreError.conflict(sceneID: id, expectedVersion: 1, actualVersion: 2))"
            #expect(outcomes.filter { $0 == "won" }.count == 1, "\(outcomes)")
            #expect(outcomes.filter { $0 == conflict }.count == 7, "\(outcomes)")
            #expect(try b.listVersions(sceneID: id).map(\.version) == [1, 2])
        }
    }

    @Test("runs written from two stores at once are all kept, each with an id of its own", arguments: Backend.sharedCases)
    func concurrentRunsAcrossStores(_ backend: Backend) throws {
        try withTwoStores(backend, clock: .system) { a, b in
            let id = try a.createScene(name: nil, content: content("one")).scene.id
            let inserted = Locked<[String]>([])
            let errors = Locked<[String]>([])
            runThreads(6) { writer in
                let store = writer % 2 == 0 ? a : b
                for n in 0..<15 {
                    do {
                        let run = try store.insertRun(newRun(id, tag: "w\(writer)-\(n)"))
                        inserted.withLock { $0.append(run.id) }
                    } catch {
                        errors.withLock { $0.append("\(error)") }
                    }
                }
            }
            #expect(errors.withLock { $0 } == [])
            let ids = inserted.withLock { $0 }
            #expect(ids.count == 90)
            #expect(Set(ids).count == 90)
            let listed = try b.listRuns(sceneID: id, limit: 1000).items
            #expect(Set(listed.map(\.id)) == Set(ids))
            #expect(listed.map(\.seq) == listed.map(\.seq).sorted(by: >))
        }
    }
}
