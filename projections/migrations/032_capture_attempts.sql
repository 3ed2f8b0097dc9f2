-- How many fetches the capture worker made before it gave up on an
-- evidence item's source (evidence_capture_failed's attempts), so the desk
-- can say "gave up after 12 attempts". 0 where no failure was recorded,
-- and for failures recorded before the worker counted them: unknown.
ALTER TABLE evidence ADD COLUMN capture_attempts INTEGER NOT NULL DEFAULT 0;
