-- 0008_health_probe: a table that `/health` writes to (and empties again in the same
-- transaction) while the storage is known to be failing, to learn whether writes work again.
--
-- After a write failed for want of space or with an I/O error, the service reports itself as
-- failing until a write succeeds. Without a write of its own it would wait for a client's, and
-- an orchestrator that stops sending traffic to a failing instance would never send one. The
-- probe commits one row of 64 KiB (it needs new pages and log frames, as stored runs do, and
-- fails where the disk or `max_page_count` leaves no room), then deletes it in a second
-- transaction; its pages go to the free list, where the next writes find them.

CREATE TABLE health_probe (
    id     INTEGER PRIMARY KEY,
    filler BLOB NOT NULL
);
