-- The stream sequence of the newest evidence_captured, evidence_capture_failed,
-- evidence_source_changed or evidence_source_dead event about an evidence item
-- the ranking published at the time (0: none yet). It is part of the ranking's
-- edition mark, so a capture or a drift recorded after an edition reaches the
-- cached public pages. 0 is what a replay writes for a database whose stream
-- holds no such event after a publish; one that does needs `crossrank rebuild`
-- for `crossrank verify` to agree (the read model cannot tell which events
-- came after which edition).
ALTER TABLE rankings ADD COLUMN evidence_seq INTEGER NOT NULL DEFAULT 0;
