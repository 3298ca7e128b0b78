-- 0002_run_results: a run's result document moves to its own table, stored once per scene.
--
-- The engine is deterministic: the same version and touches give the same result, byte for
-- byte, and a harness that re-runs its suite stores the same results again and again (a
-- 20 KB trace each). Results are now kept in `run_results`, one row per distinct result of
-- a scene, and each run points at one. The store finds an equal result by `digest` (a 64-bit
-- hash of the uncompressed bytes, computed by the binary) and compares the bytes themselves
-- before sharing a row, so two runs share a result only when their documents are identical.
--
--   * `encoding` says how `bytes` holds the document: 'identity' (as is) or 'zstd' (a
--     Zstandard frame that records its size; the binary compresses results that shrink);
--   * `digest` is NULL for results carried over from 0001 (never shared, still readable);
--   * results belong to a scene and go with it (ON DELETE CASCADE), in the same transaction
--     as its versions and runs.

CREATE TABLE run_results (
    id       INTEGER PRIMARY KEY,
    scene_id TEXT    NOT NULL REFERENCES scenes(id) ON DELETE CASCADE,
    digest   INTEGER,
    encoding TEXT    NOT NULL DEFAULT 'identity' CHECK (encoding IN ('identity', 'zstd')),
    bytes    BLOB    NOT NULL
);

CREATE INDEX run_results_by_digest ON run_results(scene_id, digest);

-- Every existing result becomes a row of its own, numbered like its run.
INSERT INTO run_results (id, scene_id, digest, encoding, bytes)
    SELECT seq, scene_id, NULL, 'identity', result FROM runs;

-- `runs` without its `result` column (SQLite rebuilds a table to drop a column that others
-- depend on); nothing references `runs`, so it can be swapped in one transaction.
CREATE TABLE runs_0002 (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    id              TEXT    NOT NULL UNIQUE CHECK (id LIKE 'run\_%' ESCAPE '\'),
    scene_id        TEXT    NOT NULL,
    scene_version   INTEGER NOT NULL,
    created_at      TEXT    NOT NULL,
    request         BLOB    NOT NULL,
    result_id       INTEGER NOT NULL REFERENCES run_results(id),
    first_responder TEXT,
    actions         TEXT    NOT NULL,
    outcome         TEXT    NOT NULL,
    action_count    INTEGER NOT NULL CHECK (action_count >= 0),
    FOREIGN KEY (scene_id, scene_version)
        REFERENCES scene_versions(scene_id, version) ON DELETE CASCADE
);

INSERT INTO runs_0002 (seq, id, scene_id, scene_version, created_at, request, result_id,
                       first_responder, actions, outcome, action_count)
    SELECT seq, id, scene_id, scene_version, created_at, request, seq,
           first_responder, actions, outcome, action_count
    FROM runs;

-- `seq` is never reused, not even the numbers of runs deleted before this migration.
INSERT INTO sqlite_sequence (name, seq)
    SELECT 'runs_0002', seq FROM sqlite_sequence WHERE name = 'runs'
    AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'runs_0002');
UPDATE sqlite_sequence SET seq = max(seq, (SELECT seq FROM sqlite_sequence WHERE name = 'runs'))
    WHERE name = 'runs_0002';

DROP TABLE runs;
ALTER TABLE runs_0002 RENAME TO runs;

CREATE INDEX runs_by_scene_newest ON runs(scene_id, seq DESC);
CREATE INDEX runs_by_scene_version ON runs(scene_id, scene_version, seq);
