import Foundation
import GRDB
import TestSupport
import Testing

@testable import TapTraceStore

@Suite("Screenshots of scene versions")
struct ScreenshotStoreTests {
    /// Opaque bytes: the store does not read images (the service does).
    static func png(_ tag: String, width: Int = 390, height: Int = 844) -> NewScreenshot {
        NewScreenshot(mediaType: ScreenshotMediaType.png, width: width, height: height, image: Data("png \(tag)".utf8))
    }

    @Test("a screenshot is stored with its version, read back byte for byte, and described without its image",
          arguments: Backend.allCases)
    func putAndGet(_ backend: Backend) throws {
        let instant = Date(timeIntervalSince1970: 1_795_327_262.345)
        try withStore(backend, clock: .fixed(instant)) { store, _ in
            let id = try store.createScene(name: "s", content: content("v1")).scene.id
            try store.addVersion(sceneID: id, content: content("v2"))
            let image = Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            let stored = try store.putScreenshot(
                sceneID: id, version: 2,
                NewScreenshot(mediaType: ScreenshotMediaType.jpeg, width: 1179, height: 2556, image: image))
            #expect(stored.replaced == false)
            let expected = ScreenshotInfo(
                sceneID: id, version: 2, mediaType: "image/jpeg", width: 1179, height: 2556, byteSize: 3000,
                contentHash: ContentHash.sha256Hex(image), createdAt: "2026-11-22T06:01:02.345Z")
            #expect(stored.info == expected)
            #expect(try store.screenshot(sceneID: id, version: 2) == Screenshot(info: expected, image: image))
            #expect(try store.screenshotInfo(sceneID: id, version: 2) == expected)
            #expect(try store.screenshotInfos(sceneID: id) == [expected])
            // Version 1 has none of its own.
            #expect(try store.screenshot(sceneID: id, version: 1) == nil)
            #expect(try store.screenshotInfo(sceneID: id, version: 1) == nil)
        }
    }

    @Test("storing another screenshot for a version replaces it; each version keeps its own", arguments: Backend.allCases)
    func replace(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: "s", content: content("v1")).scene.id
            try store.addVersion(sceneID: id, content: content("v2"))
            let first = try store.putScreenshot(sceneID: id, version: 1, Self.png("first"))
            let second = try store.putScreenshot(sceneID: id, version: 2, Self.png("second", width: 10, height: 20))
            let replacement = try store.putScreenshot(
                sceneID: id, version: 1,
                NewScreenshot(mediaType: ScreenshotMediaType.jpeg, width: 3, height: 4, image: Data("jpeg".utf8)))
            #expect(first.replaced == false && second.replaced == false)
            #expect(replacement.replaced == true)
            #expect(replacement.info.createdAt > first.info.createdAt)
            #expect(try rowCount(store, "screenshots", sceneID: id) == 2)
            let now = try #require(try store.screenshot(sceneID: id, version: 1))
            #expect(now.image == Data("jpeg".utf8))
            #expect(now.info == replacement.info)
            #expect(now.mediaType == "image/jpeg" && now.width == 3 && now.height == 4 && now.byteSize == 4)
            #expect(try store.screenshotInfos(sceneID: id) == [replacement.info, second.info])
            // The version itself is untouched (its rows are immutable; only the picture changed).
            #expect(try store.scene(id: id, version: 1).version.document == Data("v1".utf8))
        }
    }

    @Test("deleting a screenshot says whether there was one; the version stays", arguments: Backend.allCases)
    func delete(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: "s", content: content("v1")).scene.id
            _ = try store.putScreenshot(sceneID: id, version: 1, Self.png("a"))
            #expect(try store.deleteScreenshot(sceneID: id, version: 1) == true)
            #expect(try store.deleteScreenshot(sceneID: id, version: 1) == false)
            #expect(try store.screenshot(sceneID: id, version: 1) == nil)
            #expect(try store.screenshotInfos(sceneID: id).isEmpty)
            #expect(try store.scene(id: id).version.version == 1)
        }
    }

    @Test("a missing scene or version is an error and nothing is written", arguments: Backend.allCases)
    func missingTargets(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: "s", content: content("v1")).scene.id
            #expect(throws: StoreError.versionNotFound(sceneID: id, version: 2)) {
                try store.putScreenshot(sceneID: id, version: 2, Self.png("a"))
            }
            #expect(throws: StoreError.sceneNotFound(sceneID: "scn_missing")) {
                try store.putScreenshot(sceneID: "scn_missing", version: 1, Self.png("a"))
            }
            #expect(throws: StoreError.versionNotFound(sceneID: id, version: 2)) { try store.screenshot(sceneID: id, version: 2) }
            #expect(throws: StoreError.sceneNotFound(sceneID: "scn_missing")) {
                try store.screenshot(sceneID: "scn_missing", version: 1)
            }
            #expect(throws: StoreError.versionNotFound(sceneID: id, version: 2)) {
                try store.deleteScreenshot(sceneID: id, version: 2)
            }
            #expect(try store.screenshotInfos(sceneID: id).isEmpty)
            #expect(try rowCount(store, "screenshots") == 0)
        }
    }

    @Test("what is not a PNG or JPEG description is refused before anything is written", arguments: Backend.allCases)
    func invalidArguments(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: "s", content: content("v1")).scene.id
            #expect(throws: StoreError.invalidArgument("a screenshot is image/png or image/jpeg, not image/gif")) {
                try store.putScreenshot(sceneID: id, version: 1,
                                        NewScreenshot(mediaType: "image/gif", width: 1, height: 1, image: Data([1])))
            }
            #expect(throws: StoreError.invalidArgument("a screenshot's width and height must be at least 1 pixel, not 0×5")) {
                try store.putScreenshot(sceneID: id, version: 1, Self.png("a", width: 0, height: 5))
            }
            #expect(throws: StoreError.invalidArgument("a screenshot's image must not be empty")) {
                try store.putScreenshot(sceneID: id, version: 1,
                                        NewScreenshot(mediaType: ScreenshotMediaType.png, width: 1, height: 1, image: Data()))
            }
            #expect(try store.screenshotInfos(sceneID: id).isEmpty)
            #expect(try rowCount(store, "screenshots") == 0)
        }
    }

    @Test("deleting a scene deletes its versions' screenshots, and only those", arguments: Backend.allCases)
    func cascadeOnSceneDelete(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let doomed = try store.createScene(name: "doomed", content: content("a1")).scene.id
            try store.addVersion(sceneID: doomed, content: content("a2"))
            let kept = try store.createScene(name: "kept", content: content("b1")).scene.id
            _ = try store.putScreenshot(sceneID: doomed, version: 1, Self.png("a1"))
            _ = try store.putScreenshot(sceneID: doomed, version: 2, Self.png("a2"))
            let keptShot = try store.putScreenshot(sceneID: kept, version: 1, Self.png("b1"))
            try store.insertRun(newRun(doomed, version: 2))
            #expect(try store.screenshotInfos(sceneID: doomed).count == 2)
            #expect(try rowCount(store, "screenshots") == 3)

            let deleted = try store.deleteScene(id: doomed)
            #expect(deleted == DeletedScene(sceneID: doomed, versionCount: 2, runCount: 1))
            #expect(try store.screenshotInfos(sceneID: doomed).isEmpty)
            #expect(throws: StoreError.sceneNotFound(sceneID: doomed)) { try store.screenshot(sceneID: doomed, version: 1) }
            #expect(try store.screenshotInfos(sceneID: kept) == [keptShot.info])
            #expect(try store.screenshot(sceneID: kept, version: 1)?.image == Data("png b1".utf8))
            #expect(try rowCount(store, "screenshots", sceneID: doomed) == 0)
            if let store = store as? SQLiteTraceStore {
                let orphans = try store.writer.read { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") }
                #expect(orphans.isEmpty)
            }
        }
    }

    @Test("the table refuses rows that describe no version, whatever the caller skips", arguments: Backend.allCases)
    func foreignKeyHoldsInSQL(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let refusal = #expect(throws: (any Error).self) {
                try executeSQL(store, """
                    INSERT INTO screenshots (scene_id, version, media_type, width, height, byte_size,
                                             content_hash, created_at, image)
                    VALUES ($1, 1, 'image/png', 1, 1, 1, 'x', 'now', $2)
                    """, [.text("scn_aaaaaaaaaaaa"), .bytes(Data([0]))])
            }
            #expect(refusal.map { "\($0)".lowercased() }?.contains("foreign key") == true, "\(String(describing: refusal))")
            let rows = try rowCount(store, "screenshots")
            #expect(rows == 0)
        }
    }

    @Test("a database of schema 4 with scenes gains the table, and its versions take screenshots")
    func upgradeFromSchema4() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let before = Array(Migration.embedded.prefix { $0.version <= 4 })
        #expect(before.count == 4)
        let id: String
        do {
            let old = try SQLiteTraceStore(location: .file(directory.databasePath), clock: SteppingClock().clock, migrations: before)
            id = try insertSceneOfAnOlderSchema(old, name: "old", document: "v1")
            try insertRunOfAnOlderSchema(old, sceneID: id)
            try old.close()
        }
        let store = try SQLiteTraceStore(location: .file(directory.databasePath), clock: SteppingClock().clock,
                                   migrations: Migration.embedded)
        defer { try? store.close() }
        #expect(store.health().schemaVersion == SQLiteTraceStore.supportedSchemaVersion)
        #expect(try store.screenshotInfos(sceneID: id).isEmpty)
        let stored = try store.putScreenshot(sceneID: id, version: 1, Self.png("after upgrade"))
        #expect(try store.screenshot(sceneID: id, version: 1)?.info == stored.info)
        #expect(try store.listRuns(sceneID: id, limit: 5).items.count == 1)
    }
}
