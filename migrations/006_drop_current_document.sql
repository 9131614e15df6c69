-- The current document is the newest snapshot with the changes after it (migration 005), so the
-- copy designs.doc kept, rewritten on every change, goes.
ALTER TABLE designs DROP COLUMN doc;
