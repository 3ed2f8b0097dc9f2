-- What the scheduled re-checks of each captured source found last
-- (evidence_source_changed / evidence_source_dead events). drift_state is
-- 'none' until a re-check finds the source different, then 'changed'
-- (drift_sha256 names the new archived version; drift_quote_found says
-- whether the excerpt is still in it) or 'dead' (drift_reason says why,
-- drift_status the HTTP status that said so; drift_sha256 keeps the
-- version last seen). drift_at is when that re-check's fetch began,
-- drift_tick the schedule tick that ran it.
ALTER TABLE evidence ADD COLUMN drift_state TEXT NOT NULL DEFAULT 'none';
ALTER TABLE evidence ADD COLUMN drift_sha256 TEXT NOT NULL DEFAULT '';
ALTER TABLE evidence ADD COLUMN drift_status INTEGER NOT NULL DEFAULT 0;
ALTER TABLE evidence ADD COLUMN drift_quote_found INTEGER NOT NULL DEFAULT 0;
ALTER TABLE evidence ADD COLUMN drift_quote_checked INTEGER NOT NULL DEFAULT 0;
ALTER TABLE evidence ADD COLUMN drift_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE evidence ADD COLUMN drift_at TEXT NOT NULL DEFAULT '';
ALTER TABLE evidence ADD COLUMN drift_tick TEXT NOT NULL DEFAULT '';
