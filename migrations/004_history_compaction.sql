-- snapshot marks a history row whose change column holds a whole document (design-json) instead of
-- a change: revision 1, and the row older history is folded into when it is compacted. Rebuilding a
-- revision starts at the newest snapshot at or before it.
ALTER TABLE revisions ADD COLUMN snapshot INTEGER NOT NULL DEFAULT 0;
UPDATE revisions SET snapshot = 1 WHERE kind = 'create';

-- history_from is the oldest revision a design's history still holds; history_bytes is the stored
-- size of its history rows. Both are kept with each write, so that compaction knows when to run
-- without reading the history.
ALTER TABLE designs ADD COLUMN history_from INTEGER NOT NULL DEFAULT 1;
ALTER TABLE designs ADD COLUMN history_bytes INTEGER NOT NULL DEFAULT 0;
UPDATE designs SET history_bytes =
    (SELECT COALESCE(SUM(length(CAST(change AS BLOB))), 0) FROM revisions WHERE revisions.design_id = designs.id);
