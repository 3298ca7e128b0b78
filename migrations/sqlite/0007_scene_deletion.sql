-- 0007_scene_deletion: a scene is deleted in two steps, so that deleting one with many runs
-- never holds the write lock for long.
--
--   1. One short transaction sets `deleted_at`: from then on the scene, its versions, runs,
--      results and screenshots are invisible to every read and no write may add to them (every
--      query of the store that names a scene requires `deleted_at IS NULL`).
--   2. Its rows are removed in bounded chunks, each chunk a transaction of its own: runs first,
--      then results, then versions one at a time (with their screenshots), then the scene's row.
--      Other writers take their turn between two chunks.
--
-- A process that stops between the two steps (or during the second) leaves the scene marked:
-- the next one to open the database finds it through `scenes_being_deleted` and finishes the
-- deletion. Nothing is ever half-visible: the mark is one row's change, and nothing reads what
-- it hides.

ALTER TABLE scenes ADD COLUMN deleted_at TEXT;

CREATE INDEX scenes_being_deleted ON scenes(deleted_at) WHERE deleted_at IS NOT NULL;
