import Foundation
import Testing

@testable import TapTraceStore

/// The store operations the HTTP service added: batch run insert, cheap latest-version lookup,
/// and renaming with a new version.
@Suite("Service support")
struct ServiceSupportTests {
    @Test("insertRuns stores all runs in order, in one transaction", arguments: Backend.allCases)
    func batchInsert(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: nil, content: content("one")).scene.id
            let runs = try store.insertRuns([newRun(id, tag: "a"), newRun(id, tag: "b"), newRun(id, tag: "c")])
            #expect(runs.count == 3)
            #expect(runs.map(\.seq) == runs.map(\.seq).sorted())
            #expect(Set(runs.map(\.id)).count == 3)
            #expect(try store.runs(sceneID: id, version: 1).map(\.id) == runs.map(\.id))
            #expect(try store.insertRuns([]).isEmpty)
        }
    }

    @Test("insertRuns writes nothing when one run names a missing version", arguments: Backend.allCases)
    func batchInsertIsAtomic(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: nil, content: content("one")).scene.id
            #expect(throws: StoreError.versionNotFound(sceneID: id, version: 7)) {
                try store.insertRuns([newRun(id), newRun(id, version: 7)])
            }
            #expect(try store.listRuns(sceneID: id, limit: 10).items.isEmpty)
            #expect(try rowCount(store, "runs") == 0)
        }
    }

    @Test("latestVersion follows addVersion and reports missing scenes", arguments: Backend.allCases)
    func latestVersion(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: "n", content: content("one")).scene.id
            #expect(try store.latestVersion(sceneID: id) == 1)
            try store.addVersion(sceneID: id, content: content("two"))
            #expect(try store.latestVersion(sceneID: id) == 2)
            #expect(throws: StoreError.sceneNotFound(sceneID: "scn_nope")) { try store.latestVersion(sceneID: "scn_nope") }
        }
    }

    @Test("addVersion(name:) renames the scene with the new version, honouring the expected version",
          arguments: Backend.allCases)
    func renameWithVersion(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: "old", content: content("one")).scene.id
            let renamed = try store.addVersion(sceneID: id, name: "new", content: content("two"), expectedCurrentVersion: 1)
            #expect(renamed.scene.name == "new")
            #expect(renamed.version.version == 2)
            #expect(throws: StoreError.conflict(sceneID: id, expectedVersion: 1, actualVersion: 2)) {
                try store.addVersion(sceneID: id, name: "newer", content: content("three"), expectedCurrentVersion: 1)
            }
            #expect(try store.scene(id: id).scene.name == "new")
            let cleared = try store.addVersion(sceneID: id, name: nil, content: content("three"), expectedCurrentVersion: nil)
            #expect(cleared.scene.name == nil)
        }
    }
}

@Suite("Insert run against the latest version")
struct RequireLatestTests {
    @Test("requireLatest refuses a run of a version that is no longer the latest, and writes nothing",
          arguments: Backend.allCases)
    func requireLatest(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: nil, content: content("one")).scene.id
            #expect(try store.insertRun(newRun(id), requireLatest: true).sceneVersion == 1)
            try store.addVersion(sceneID: id, content: content("two"))
            #expect(throws: StoreError.conflict(sceneID: id, expectedVersion: 1, actualVersion: 2)) {
                try store.insertRun(newRun(id), requireLatest: true)
            }
            #expect(try rowCount(store, "runs") == 1)
            // Without the requirement an older version is fine; a missing one is not.
            #expect(try store.insertRun(newRun(id), requireLatest: false).sceneVersion == 1)
            #expect(throws: StoreError.versionNotFound(sceneID: id, version: 3)) {
                try store.insertRun(newRun(id, version: 3), requireLatest: true)
            }
            #expect(throws: StoreError.versionNotFound(sceneID: id, version: 0)) { try store.insertRun(newRun(id, version: 0)) }
            #expect(throws: StoreError.sceneNotFound(sceneID: "scn_nope")) { try store.insertRun(newRun("scn_nope"), requireLatest: true) }
        }
    }
}
