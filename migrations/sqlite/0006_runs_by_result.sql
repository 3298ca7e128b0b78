-- 0006_runs_by_result: an index on `runs.result_id`, the child key of the foreign key from
-- `runs` to `run_results` (migration 0002).
--
-- Deleting a scene deletes its `run_results` rows (ON DELETE CASCADE), and for each one SQLite
-- checks that no run still refers to it: without an index on the child key that check scans
-- `runs` once per result, so deleting a scene cost the product of its results and all runs
-- (4,000 runs 9 s, 8,000 runs 47 s, holding the write lock all along). SQLite's foreign key
-- documentation asks for exactly this index.

CREATE INDEX runs_by_result ON runs(result_id);
