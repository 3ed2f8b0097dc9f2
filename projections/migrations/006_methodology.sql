-- Methodology through review: a proposal is an entry proposal ('') or a
-- methodology proposal ('methodology'); new_ranking marks one that defines
-- its ranking. Existing proposals are entry proposals.
ALTER TABLE proposals ADD COLUMN kind TEXT NOT NULL DEFAULT '';
ALTER TABLE proposals ADD COLUMN new_ranking INTEGER NOT NULL DEFAULT 0;
CREATE INDEX proposals_kind ON proposals(kind, status) WHERE kind <> '';

-- What a methodology proposal's current revision proposes.
CREATE TABLE methodology_proposals (
  proposal TEXT PRIMARY KEY, revision INTEGER NOT NULL, base INTEGER NOT NULL,
  rationale TEXT NOT NULL,
  methodology TEXT NOT NULL, -- events.Methodology as JSON
  changes TEXT NOT NULL      -- []events.MethodologyChange against the methodology published when it was proposed
) WITHOUT ROWID;

-- The methodology's history: one row per change an edition published.
CREATE TABLE methodology_history (
  ranking TEXT NOT NULL, edition INTEGER NOT NULL, idx INTEGER NOT NULL,
  proposal TEXT NOT NULL, kind TEXT NOT NULL, target TEXT NOT NULL,
  from_value TEXT NOT NULL, to_value TEXT NOT NULL, at TEXT NOT NULL, actor TEXT NOT NULL,
  PRIMARY KEY (ranking, edition, idx)
) WITHOUT ROWID;
