-- tab is the browser tab a page edit was made from (the id app.js keeps per tab), or '' for a
-- change made without one (the API, a restore, revisions stored before this column). The
-- conflict check tells editors apart by it, as display names are not unique.
ALTER TABLE revisions ADD COLUMN tab TEXT NOT NULL DEFAULT '';
