-- 0004_run_labels: a stored run may carry the label its harness gave it (the test's name), so
-- that history, compare and replay speak the harness's words, and history can be read for one
-- label (`GET /v1/scenes/{id}/runs?label=`).
--
-- The column is NULL for runs stored without one, and for every run stored before this
-- migration. Labelled history reads the newest runs of one scene and label through their own
-- index (ascending, as `runs_by_scene_newest`, for the same reason: a new run goes in at the
-- end of its entries); runs without a label are not in it.

ALTER TABLE runs ADD COLUMN label TEXT;
CREATE INDEX runs_by_scene_label ON runs(scene_id, label, seq) WHERE label IS NOT NULL;
