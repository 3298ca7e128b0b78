-- 0003_runs_by_scene_ascending: the "newest runs of a scene" index in ascending order.
--
-- `runs_by_scene_newest` was (scene_id, seq DESC): every new run went in at the front of its
-- scene's entries, the first cell of a leaf that SQLite's rebalancing had just packed full,
-- so about one stored run in seven rebalanced three leaves and their parent (read off the
-- write-ahead log under load: a quarter of all commits; docs/performance.md, 2026-11-24
-- third session). In ascending order a new run goes in after its scene's last entry, which
-- for one busy scene is the end of the index. SQLite reads an index backwards as readily as
-- forwards: history (`ORDER BY seq DESC`) uses it the same way (tested by its query plan).

DROP INDEX runs_by_scene_newest;
CREATE INDEX runs_by_scene_newest ON runs(scene_id, seq);
