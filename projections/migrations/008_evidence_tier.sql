-- Numbered 008, after 006_methodology.sql and 007_workflow.sql: the
-- runner applies migrations in name order and counts them by position.
-- Where each evidence item's claim comes from (evidence_added's tier):
-- 'vendor', 'third_party' or 'own'; '' where the editor did not say, which
-- is what every event stored before tiers existed carries, so a rebuild
-- writes the same '' this default gives the existing rows.
ALTER TABLE evidence ADD COLUMN tier TEXT NOT NULL DEFAULT '';
