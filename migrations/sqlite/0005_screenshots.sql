-- 0005_screenshots: a scene version may carry a screenshot of the screen it describes (a PNG or
-- JPEG image), which the viewer draws under the views' boxes.
--
--   * one screenshot per version at most: `(scene_id, version)` is the key, and storing another
--     replaces it (the version's document stays immutable; its picture may be taken again);
--   * `media_type`, `width` and `height` (pixels) are read from the image's header by the binary
--     when it stores the image; `byte_size` is the image's length and `content_hash` the
--     lowercase hex SHA-256 of its bytes (the entity tag comes from it), so that a version's
--     listing describes its screenshot without reading the image;
--   * the image is the last column: SQLite keeps a large BLOB in overflow pages, which a read
--     of the columns before it does not touch. A rowid table rather than WITHOUT ROWID, whose
--     rows are meant to be small (SQLite's rule of thumb is a twentieth of a page);
--   * a screenshot goes with its version, hence with its scene (ON DELETE CASCADE, as runs do),
--     in the same transaction.

CREATE TABLE screenshots (
    scene_id     TEXT    NOT NULL,
    version      INTEGER NOT NULL,
    media_type   TEXT    NOT NULL CHECK (media_type IN ('image/png', 'image/jpeg')),
    width        INTEGER NOT NULL CHECK (width >= 1),
    height       INTEGER NOT NULL CHECK (height >= 1),
    byte_size    INTEGER NOT NULL CHECK (byte_size >= 1),
    content_hash TEXT    NOT NULL,
    created_at   TEXT    NOT NULL,
    image        BLOB    NOT NULL,
    PRIMARY KEY (scene_id, version),
    FOREIGN KEY (scene_id, version)
        REFERENCES scene_versions(scene_id, version) ON DELETE CASCADE
);
