import Foundation
import TapTraceStore

extension PostgresTraceStore {
    public func putScreenshot(sceneID: String, version: Int, _ screenshot: NewScreenshot) throws -> StoredScreenshot {
        try screenshot.validate()
        return try transaction { connection in
            let now = Timestamp.rfc3339(clock.now())
            // The scene's row in share mode: a deletion cannot mark it between the check and the write.
            let scene = try connection.execute(
                "SELECT latest_version FROM scenes WHERE id = $1 AND deleted_at IS NULL FOR SHARE", [.text(sceneID)])
            guard scene.rowCount == 1, let latest = scene.int(0, "latest_version") else {
                throw StoreError.sceneNotFound(sceneID: sceneID)
            }
            guard (1...latest).contains(version) else { throw StoreError.versionNotFound(sceneID: sceneID, version: version) }
            // An upsert that says whether a row was there (xmax is set on a row an upsert updated).
            let written = try connection.execute(
                """
                INSERT INTO screenshots (scene_id, version, media_type, width, height, byte_size, content_hash,
                                         created_at, image)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
                ON CONFLICT (scene_id, version) DO UPDATE SET
                    media_type = excluded.media_type, width = excluded.width, height = excluded.height,
                    byte_size = excluded.byte_size, content_hash = excluded.content_hash,
                    created_at = excluded.created_at, image = excluded.image
                RETURNING (xmax <> 0) AS replaced
                """,
                [.text(sceneID), .int(version), .text(screenshot.mediaType), .int(screenshot.width),
                 .int(screenshot.height), .int(screenshot.image.count), .text(screenshot.contentHash), .text(now),
                 .bytes(screenshot.image)])
            let info = ScreenshotInfo(
                sceneID: sceneID, version: version, mediaType: screenshot.mediaType, width: screenshot.width,
                height: screenshot.height, byteSize: screenshot.image.count, contentHash: screenshot.contentHash,
                createdAt: now)
            return StoredScreenshot(info: info, replaced: written.bool(0, "replaced") ?? false)
        }
    }

    public func screenshot(sceneID: String, version: Int) throws -> Screenshot? {
        try operation { connection in
            try Self.requireVersion(connection, sceneID, version)
            let rows = try connection.execute(
                "SELECT \(Self.screenshotColumns), image FROM screenshots WHERE scene_id = $1 AND version = $2",
                [.text(sceneID), .int(version)])
            guard rows.rowCount == 1 else { return nil }
            return Screenshot(info: Self.screenshotInfo(rows, 0), image: rows.data(0, "image") ?? Data())
        }
    }

    public func screenshotInfo(sceneID: String, version: Int) throws -> ScreenshotInfo? {
        try operation { connection in
            let rows = try connection.execute(
                """
                SELECT \(Self.screenshotColumns) FROM screenshots
                WHERE scene_id = $1 AND version = $2 AND \(Self.ofVisibleScene)
                """,
                [.text(sceneID), .int(version)])
            return rows.rowCount == 1 ? Self.screenshotInfo(rows, 0) : nil
        }
    }

    public func screenshotInfos(sceneID: String) throws -> [ScreenshotInfo] {
        try operation { connection in
            let rows = try connection.execute(
                "SELECT \(Self.screenshotColumns) FROM screenshots WHERE scene_id = $1 AND \(Self.ofVisibleScene) ORDER BY version",
                [.text(sceneID)])
            return (0..<rows.rowCount).map { Self.screenshotInfo(rows, $0) }
        }
    }

    public func deleteScreenshot(sceneID: String, version: Int) throws -> Bool {
        try transaction { connection in
            try Self.requireVersion(connection, sceneID, version)
            return try connection.execute(
                "DELETE FROM screenshots WHERE scene_id = $1 AND version = $2", [.text(sceneID), .int(version)]
            ).affectedRows > 0
        }
    }

    private static let ofVisibleScene =
        "EXISTS (SELECT 1 FROM scenes WHERE scenes.id = screenshots.scene_id AND scenes.deleted_at IS NULL)"

    private static let screenshotColumns =
        "scene_id, version, media_type, width, height, byte_size, content_hash, created_at"

    private static func screenshotInfo(_ rows: PostgresResult, _ row: Int) -> ScreenshotInfo {
        ScreenshotInfo(
            sceneID: rows.string(row, "scene_id") ?? "", version: rows.int(row, "version") ?? 0,
            mediaType: rows.string(row, "media_type") ?? "", width: rows.int(row, "width") ?? 0,
            height: rows.int(row, "height") ?? 0, byteSize: rows.int(row, "byte_size") ?? 0,
            contentHash: rows.string(row, "content_hash") ?? "", createdAt: rows.string(row, "created_at") ?? "")
    }
}
