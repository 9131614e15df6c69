-- The history holds the changes, and every so many revisions a snapshot of the whole document:
-- doc holds it, as of the row's revision, as compact design-json compressed with DEFLATE (RFC
-- 1951). A design at any revision is the newest row at or before it with a doc (or, for rows
-- stored before this migration, with snapshot = 1 and the document in change) with the changes
-- after it replayed. A row with a doc keeps its change; a whole-design change stored beside a
-- snapshot keeps only its note, its design being the snapshot.
ALTER TABLE revisions ADD COLUMN doc BLOB;

-- snapshot_revision is the revision of a design's newest snapshot; doc_bytes the length of its
-- current document (uncompressed), exact at each snapshot and kept up to date by each change.
-- After this migration the program snapshots each design's current document from designs.doc,
-- and migration 006 removes that column: the history becomes the only copy of a design.
ALTER TABLE designs ADD COLUMN snapshot_revision INTEGER NOT NULL DEFAULT 1;
ALTER TABLE designs ADD COLUMN doc_bytes INTEGER NOT NULL DEFAULT 0;
UPDATE designs SET doc_bytes = length(CAST(doc AS BLOB));
