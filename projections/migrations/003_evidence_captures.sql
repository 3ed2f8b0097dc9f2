-- What each evidence item's source said when it was cited: the capture
-- worker's result (evidence_captured / evidence_capture_failed events).
-- capture_state is 'none' until a result arrives, and for items without a
-- source URL; then 'captured' (sha256 names the archived WARC record) or
-- 'failed' (capture_reason says why). capture_at is when the fetch began.
-- Every existing row had no capture, which is what a rebuild writes too.
ALTER TABLE evidence ADD COLUMN capture_state TEXT NOT NULL DEFAULT 'none';
ALTER TABLE evidence ADD COLUMN capture_sha256 TEXT NOT NULL DEFAULT '';
ALTER TABLE evidence ADD COLUMN capture_final_url TEXT NOT NULL DEFAULT '';
ALTER TABLE evidence ADD COLUMN capture_status INTEGER NOT NULL DEFAULT 0;
ALTER TABLE evidence ADD COLUMN capture_content_type TEXT NOT NULL DEFAULT '';
ALTER TABLE evidence ADD COLUMN capture_size INTEGER NOT NULL DEFAULT 0;
ALTER TABLE evidence ADD COLUMN capture_at TEXT NOT NULL DEFAULT '';
ALTER TABLE evidence ADD COLUMN quote_found INTEGER NOT NULL DEFAULT 0;
ALTER TABLE evidence ADD COLUMN quote_checked INTEGER NOT NULL DEFAULT 0;
ALTER TABLE evidence ADD COLUMN capture_reason TEXT NOT NULL DEFAULT '';
