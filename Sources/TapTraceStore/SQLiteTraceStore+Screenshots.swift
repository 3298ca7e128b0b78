import Foundation
import GRDB

// Screenshots of scene versions (migration 0005): at most one image per version, replaced by
// storing another, gone with its version's scene. The store keeps the bytes and what the caller
// read from them (media type, pixel size); it does not decode images.

/// The media types a screenshot may have.
public enum ScreenshotMediaType {
    public static let png = "image/png"
    public static let jpeg = "image/jpeg"
    public static let all: Set<String> = [png, jpeg]
}

/// A screenshot to store: the image and what the caller read from its header.
public struct NewScreenshot: Sendable, Equatable {
    /// One of ``ScreenshotMediaType/all``.
    public var mediaType: String
    /// Pixels, as the image's header gives them.
    public var width: Int
    public var height: Int
    /// The image file, stored byte for byte.
    public var image: Data
    /// Lowercase hex SHA-256 of ``image``.
    public var contentHash: String

    /// - Parameter contentHash: Pass `nil` (the default) to store ``ContentHash/sha256Hex(_:)``
    ///   of `image`.
    public init(mediaType: String, width: Int, height: Int, image: Data, contentHash: String? = nil) {
        self.mediaType = mediaType
        self.width = width
        self.height = height
        self.image = image
        self.contentHash = contentHash ?? ContentHash.sha256Hex(image)
    }
}

/// Everything about a stored screenshot except its image (cheap to read and list).
public struct ScreenshotInfo: Sendable, Equatable, Hashable {
    public var sceneID: String
    public var version: Int
    public var mediaType: String
    public var width: Int
    public var height: Int
    /// The image's length in bytes.
    public var byteSize: Int
    /// Lowercase hex SHA-256 of the image.
    public var contentHash: String
    /// When this image was stored (a replaced screenshot has the time of its replacement).
    public var createdAt: String

    /// For the store engines (memberwise).
    package init(sceneID: String, version: Int, mediaType: String, width: Int, height: Int, byteSize: Int, contentHash: String, createdAt: String) {
        self.sceneID = sceneID
        self.version = version
        self.mediaType = mediaType
        self.width = width
        self.height = height
        self.byteSize = byteSize
        self.contentHash = contentHash
        self.createdAt = createdAt
    }
}

/// A stored screenshot with its image. Properties of ``info`` are reachable directly
/// (`screenshot.mediaType`) through dynamic member lookup.
@dynamicMemberLookup
public struct Screenshot: Sendable, Equatable {
    public var info: ScreenshotInfo
    public var image: Data

    public subscript<Value>(dynamicMember keyPath: KeyPath<ScreenshotInfo, Value>) -> Value {
        info[keyPath: keyPath]
    }

    /// For the store engines (memberwise).
    package init(info: ScreenshotInfo, image: Data) {
        self.info = info
        self.image = image
    }
}

/// What ``SQLiteTraceStore/putScreenshot(sceneID:version:_:)`` stored.
public struct StoredScreenshot: Sendable, Equatable {
    public var info: ScreenshotInfo
    /// Whether the version had a screenshot before, which this one replaced.
    public var replaced: Bool

    /// For the store engines (memberwise).
    package init(info: ScreenshotInfo, replaced: Bool) {
        self.info = info
        self.replaced = replaced
    }
}

extension SQLiteTraceStore {
    /// Stores `screenshot` as the screenshot of a scene version, replacing the one it had.
    ///
    /// - Throws: ``StoreError/sceneNotFound(sceneID:)``, ``StoreError/versionNotFound(sceneID:version:)``
    ///   (nothing is written), ``StoreError/invalidArgument(_:)`` for a media type other than
    ///   PNG or JPEG, a size below one pixel or an empty image.
    @discardableResult
    public func putScreenshot(sceneID: String, version: Int, _ screenshot: NewScreenshot) throws -> StoredScreenshot {
        try screenshot.validate()
        return try write { db, now in
            try Self.requireVersion(db, sceneID, version)
            let replaced = try Bool.fetchOne(
                db, sql: "SELECT 1 FROM screenshots WHERE scene_id = ? AND version = ?",
                arguments: [sceneID, version]) != nil
            // An UPDATE or an INSERT after a read in the same transaction, rather than an upsert:
            // both SQLite and PostgreSQL run it as written, and the read says which answer it is.
            let arguments: StatementArguments = [
                screenshot.mediaType, screenshot.width, screenshot.height, screenshot.image.count,
                screenshot.contentHash, now, screenshot.image, sceneID, version,
            ]
            if replaced {
                try db.execute(
                    sql: """
                        UPDATE screenshots SET media_type = ?, width = ?, height = ?, byte_size = ?,
                                               content_hash = ?, created_at = ?, image = ?
                        WHERE scene_id = ? AND version = ?
                        """,
                    arguments: arguments)
            } else {
                try db.execute(
                    sql: """
                        INSERT INTO screenshots (media_type, width, height, byte_size, content_hash, created_at, image,
                                                 scene_id, version)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: arguments)
            }
            let info = ScreenshotInfo(
                sceneID: sceneID, version: version, mediaType: screenshot.mediaType, width: screenshot.width,
                height: screenshot.height, byteSize: screenshot.image.count, contentHash: screenshot.contentHash,
                createdAt: now)
            return StoredScreenshot(info: info, replaced: replaced)
        }
    }

    /// The screenshot of a scene version with its image; nil when the version has none.
    ///
    /// - Throws: ``StoreError/sceneNotFound(sceneID:)``, ``StoreError/versionNotFound(sceneID:version:)``.
    public func screenshot(sceneID: String, version: Int) throws -> Screenshot? {
        try read { db in
            // First: a scene being deleted has no versions (migration 0007).
            try Self.requireVersion(db, sceneID, version)
            return try Row.fetchOne(
                db, sql: "SELECT \(Self.screenshotInfoColumns), image FROM screenshots WHERE scene_id = ? AND version = ?",
                arguments: [sceneID, version]
            ).map { Screenshot(info: Self.screenshotInfo($0), image: $0["image"]) }
        }
    }

    /// What a scene version's screenshot is, without its image; nil when the version has none
    /// (or does not exist: callers that describe a version they have just read ask this).
    public func screenshotInfo(sceneID: String, version: Int) throws -> ScreenshotInfo? {
        try read { db in
            try Row.fetchOne(
                db, sql: "SELECT \(Self.screenshotInfoColumns) FROM screenshots WHERE scene_id = ? AND version = ? AND \(Self.ofVisibleScene)",
                arguments: [sceneID, version]
            ).map(Self.screenshotInfo)
        }
    }

    /// The screenshots of a scene's versions, without their images, by version (oldest first);
    /// versions without one are not listed, and a scene that does not exist has none.
    public func screenshotInfos(sceneID: String) throws -> [ScreenshotInfo] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(Self.screenshotInfoColumns) FROM screenshots WHERE scene_id = ? AND \(Self.ofVisibleScene) ORDER BY version",
                arguments: [sceneID]
            ).map(Self.screenshotInfo)
        }
    }

    /// Deletes a scene version's screenshot.
    ///
    /// - Returns: Whether there was one.
    /// - Throws: ``StoreError/sceneNotFound(sceneID:)``, ``StoreError/versionNotFound(sceneID:version:)``.
    @discardableResult
    public func deleteScreenshot(sceneID: String, version: Int) throws -> Bool {
        try write { db, _ in
            try Self.requireVersion(db, sceneID, version)
            try db.execute(sql: "DELETE FROM screenshots WHERE scene_id = ? AND version = ?", arguments: [sceneID, version])
            return db.changesCount > 0
        }
    }

    /// Screenshots of scenes being deleted are not seen (migration 0007).
    private static let ofVisibleScene =
        "EXISTS (SELECT 1 FROM scenes WHERE scenes.id = screenshots.scene_id AND scenes.deleted_at IS NULL)"

    /// Every column but the image: a read of these does not touch the image's overflow pages.
    private static let screenshotInfoColumns =
        "scene_id, version, media_type, width, height, byte_size, content_hash, created_at"

    private static func screenshotInfo(_ row: Row) -> ScreenshotInfo {
        ScreenshotInfo(
            sceneID: row["scene_id"], version: row["version"], mediaType: row["media_type"], width: row["width"],
            height: row["height"], byteSize: row["byte_size"], contentHash: row["content_hash"],
            createdAt: row["created_at"])
    }
}

extension NewScreenshot {
    /// Refuses a media type other than PNG or JPEG, a size below one pixel or an empty image
    /// (both engines, before anything is written).
    package func validate() throws {
        guard ScreenshotMediaType.all.contains(mediaType) else {
            throw StoreError.invalidArgument(
                "a screenshot is image/png or image/jpeg, not \(mediaType)")
        }
        guard width >= 1, height >= 1 else {
            throw StoreError.invalidArgument(
                "a screenshot's width and height must be at least 1 pixel, not \(width)×\(height)")
        }
        guard !image.isEmpty else {
            throw StoreError.invalidArgument("a screenshot's image must not be empty")
        }
    }
}
