-- Claims and rationales are bilingual (issue 43): an evidence item's claim,
-- a change's rationale and a methodology proposal's rationale are held per
-- language, like names and descriptions. Events written before were one
-- string, which the upcaster reads as the language it is written in
-- (events.TextFrom), splitting "中文 / English" into its two halves.
--
-- SQL cannot split, so the rows projected before this migration move
-- whole here: a string with a Han character (U+4E00–U+9FFF) into _zh, any
-- other into _en. Then, in the same transaction, a Go step (splitBilingual
-- in migrate_bilingual.go) splits the side-by-side ones in _zh as the
-- upcaster does, so the migrated models equal a replay from scratch.
ALTER TABLE evidence ADD COLUMN claim_zh TEXT NOT NULL DEFAULT '';
ALTER TABLE evidence ADD COLUMN claim_en TEXT NOT NULL DEFAULT '';
UPDATE evidence SET claim_zh = claim WHERE claim GLOB '*[一-鿿]*';
UPDATE evidence SET claim_en = claim WHERE claim_zh = '';
DROP TRIGGER search_evidence_update;
CREATE TRIGGER search_evidence_update AFTER UPDATE OF claim_zh, claim_en, excerpt, source_url, removed_revision ON evidence BEGIN
  INSERT OR IGNORE INTO search_dirty VALUES ('evidence', NEW.proposal, NEW.evidence_id);
END;
ALTER TABLE evidence DROP COLUMN claim;

ALTER TABLE changes ADD COLUMN rationale_zh TEXT NOT NULL DEFAULT '';
ALTER TABLE changes ADD COLUMN rationale_en TEXT NOT NULL DEFAULT '';
UPDATE changes SET rationale_zh = rationale WHERE rationale GLOB '*[一-鿿]*';
UPDATE changes SET rationale_en = rationale WHERE rationale_zh = '';
ALTER TABLE changes DROP COLUMN rationale;

ALTER TABLE methodology_proposals ADD COLUMN rationale_zh TEXT NOT NULL DEFAULT '';
ALTER TABLE methodology_proposals ADD COLUMN rationale_en TEXT NOT NULL DEFAULT '';
UPDATE methodology_proposals SET rationale_zh = rationale WHERE rationale GLOB '*[一-鿿]*';
UPDATE methodology_proposals SET rationale_en = rationale WHERE rationale_zh = '';
ALTER TABLE methodology_proposals DROP COLUMN rationale;

-- The search index holds both languages of every claim.
INSERT OR IGNORE INTO search_dirty SELECT 'evidence', proposal, evidence_id FROM evidence;
