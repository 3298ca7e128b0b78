import Foundation
import GRDB
import Testing

@testable import TapTraceStore

@Suite("Scenes and versions")
struct SceneTests {
    @Test("creating a scene stores version 1 with an id, timestamps and the document as given", arguments: Backend.allCases)
    func createScene(_ backend: Backend) throws {
        let instant = Date(timeIntervalSince1970: 1_795_327_262.345)
        try withStore(backend, clock: .fixed(instant)) { store, _ in
            let document = Data(#"{"windows":[{"id":"main"}]}"#.utf8)
            let created = try store.createScene(
                name: "login",
                content: SceneContent(document: document, viewCount: 7, windowCount: 1, recognizerCount: 2))
            #expect(StoreID.isWellFormed(created.scene.id, prefix: "scn_"))
            #expect(created.scene.name == "login")
            #expect(created.scene.latestVersion == 1)
            #expect(created.scene.createdAt == "2026-11-22T06:01:02.345Z")
            #expect(created.scene.updatedAt == created.scene.createdAt)
            #expect(created.version.version == 1)
            #expect(created.version.sceneID == created.scene.id)
            #expect(created.version.document == document)
            #expect(created.version.contentHash == ContentHash.sha256Hex(document))
            #expect(created.version.documentSize == document.count)
            #expect(created.version.viewCount == 7)
            #expect(created.version.windowCount == 1)
            #expect(created.version.recognizerCount == 2)
            #expect(try store.scene(id: created.scene.id) == created)

            let unnamed = try store.createScene(
                name: nil, content: SceneContent(document: Data(), contentHash: "caller-hash", viewCount: 0, windowCount: 0, recognizerCount: 0))
            #expect(unnamed.scene.name == nil)
            #expect(unnamed.version.contentHash == "caller-hash")
            #expect(unnamed.version.document == Data())
            #expect(unnamed.scene.id != created.scene.id)
        }
    }

    @Test("versions increment, earlier versions stay as they were, and rows cannot be updated", arguments: Backend.allCases)
    func versionsIncrementAndAreImmutable(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let created = try store.createScene(name: "s", content: content("one"))
            let id = created.scene.id
            let second = try store.addVersion(sceneID: id, content: content("two", views: 4))
            let third = try store.addVersion(sceneID: id, content: content("three", views: 5), expectedCurrentVersion: 2)
            #expect(second.version.version == 2)
            #expect(third.version.version == 3)
            #expect(third.scene.latestVersion == 3)
            #expect(third.scene.createdAt == created.scene.createdAt)
            #expect(third.scene.updatedAt > created.scene.updatedAt)

            #expect(try store.scene(id: id).version.document == Data("three".utf8))
            #expect(try store.scene(id: id, version: 1) == StoredScene(scene: third.scene, version: created.version))
            #expect(try store.scene(id: id, version: 2).version == second.version)

            let versions = try store.listVersions(sceneID: id)
            #expect(versions == [created.version.info, second.version.info, third.version.info])
            #expect(versions.map(\.viewCount) == [3, 4, 5])

            let refusal = #expect(throws: (any Error).self) {
                try executeSQL(store, "UPDATE scene_versions SET content_hash = 'changed' WHERE scene_id = $1", [.text(id)])
            }
            #expect(refusal.map { "\($0)" }?.contains("immutable") == true, "\(String(describing: refusal))")
            #expect(try store.scene(id: id, version: 1).version.document == Data("one".utf8))
            #expect(try store.scene(id: id, version: 1).version.contentHash == created.version.contentHash)
        }
    }

    @Test("a wrong expected version is a conflict and writes nothing", arguments: Backend.allCases)
    func conflictOnWrongExpectedVersion(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: nil, content: content("one")).scene.id
            let second = try store.addVersion(sceneID: id, content: content("two"), expectedCurrentVersion: 1)

            #expect(throws: StoreError.conflict(sceneID: id, expectedVersion: 1, actualVersion: 2)) {
                try store.addVersion(sceneID: id, content: content("stale"), expectedCurrentVersion: 1)
            }
            #expect(throws: StoreError.conflict(sceneID: id, expectedVersion: 5, actualVersion: 2)) {
                try store.addVersion(sceneID: id, content: content("future"), expectedCurrentVersion: 5)
            }
            #expect(try store.scene(id: id) == second)
            #expect(try store.listVersions(sceneID: id).count == 2)
        }
    }

    @Test("missing scenes and versions are distinct not-found errors", arguments: Backend.allCases)
    func notFound(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: nil, content: content("one")).scene.id
            #expect(throws: StoreError.sceneNotFound(sceneID: "scn_missing")) { try store.scene(id: "scn_missing") }
            #expect(throws: StoreError.versionNotFound(sceneID: id, version: 2)) { try store.scene(id: id, version: 2) }
            #expect(throws: StoreError.sceneNotFound(sceneID: "scn_missing")) {
                try store.addVersion(sceneID: "scn_missing", content: content("x"))
            }
            #expect(throws: StoreError.sceneNotFound(sceneID: "scn_missing")) { try store.listVersions(sceneID: "scn_missing") }
            #expect(throws: StoreError.sceneNotFound(sceneID: "scn_missing")) { try store.deleteScene(id: "scn_missing") }
            #expect(throws: StoreError.invalidArgument("view, window and recognizer counts must not be negative")) {
                try store.createScene(name: nil, content: content("x", views: -1))
            }
            #expect(try store.listScenes(limit: 10).items.map(\.id) == [id])
            #expect(try rowCount(store, "scenes") == 1)
        }
    }

    @Test("scenes are listed newest first; pages have no duplicates or gaps, even with inserts between pages",
          arguments: Backend.allCases)
    func listScenesPagination(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            var ids: [String] = []
            for index in 0..<7 {
                ids.append(try store.createScene(name: "scene \(index)", content: content("\(index)")).scene.id)
            }
            let first = try store.listScenes(limit: 3)
            #expect(first.items.map(\.id) == Array(ids.reversed()[0..<3]))
            let cursor = try #require(first.nextCursor)

            _ = try store.createScene(name: "late", content: content("late"))  // must not shift later pages

            let second = try store.listScenes(limit: 3, after: cursor)
            #expect(second.items.map(\.id) == Array(ids.reversed()[3..<6]))
            #expect(second.nextCursor != nil)
            let third = try store.listScenes(limit: 3, after: second.nextCursor)
            #expect(third.items.map(\.id) == [ids[0]])
            #expect(third.nextCursor == nil)

            let exact = try store.listScenes(limit: 8)
            #expect(exact.items.count == 8)
            #expect(exact.items.first?.name == "late")
            #expect(exact.nextCursor == nil)

            #expect(throws: StoreError.invalidArgument("limit must be between 1 and 1000, got 0")) {
                try store.listScenes(limit: 0)
            }
            #expect(throws: StoreError.invalidCursor("garbage!")) { try store.listScenes(limit: 3, after: "garbage!") }
        }
    }

    @Test("deleting a scene removes its versions and runs, and only those", arguments: Backend.allCases)
    func deleteScene(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let doomed = try store.createScene(name: "doomed", content: content("a1")).scene.id
            try store.addVersion(sceneID: doomed, content: content("a2"))
            let kept = try store.createScene(name: "kept", content: content("b1")).scene.id
            var doomedRuns: [String] = []
            for version in [1, 2] { doomedRuns.append(try store.insertRun(newRun(doomed, version: version)).id) }
            doomedRuns.append(try store.insertRun(newRun(doomed, version: 2)).id)
            let keptRun = try store.insertRun(newRun(kept))

            let deleted = try store.deleteScene(id: doomed)
            #expect(deleted == DeletedScene(sceneID: doomed, versionCount: 2, runCount: 3))

            #expect(throws: StoreError.sceneNotFound(sceneID: doomed)) { try store.scene(id: doomed) }
            #expect(throws: StoreError.sceneNotFound(sceneID: doomed)) { try store.listVersions(sceneID: doomed) }
            for run in doomedRuns { #expect(throws: StoreError.runNotFound(runID: run)) { try store.run(id: run) } }
            #expect(try rowCount(store, "scene_versions", sceneID: doomed) == 0)
            #expect(try rowCount(store, "runs", sceneID: doomed) == 0)
            #expect(try rowCount(store, "scene_versions", sceneID: kept) == 1)
            #expect(try store.scene(id: kept).scene.name == "kept")
            #expect(try store.listVersions(sceneID: kept).count == 1)
            #expect(try store.run(id: keptRun.id) == keptRun)
            #expect(try store.listScenes(limit: 10).items.map(\.id) == [kept])
        }
    }
}
