-- The review queue lists proposals oldest opened first, a page at a time,
-- filtered by status or not: with these indexes a page is read in order
-- instead of sorting every proposal for each view.
CREATE INDEX IF NOT EXISTS proposals_opened ON proposals(opened_at, id);
CREATE INDEX IF NOT EXISTS proposals_status_opened ON proposals(status, opened_at, id);
