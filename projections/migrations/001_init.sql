-- Crossrank read models. Every row derives from events; timestamps are event
-- times, never the clock, so a rebuild gives the same bytes.
CREATE TABLE checkpoint (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  seq INTEGER NOT NULL,
  audit_head TEXT NOT NULL
);
INSERT INTO checkpoint (id, seq, audit_head) VALUES (1, 0, '');

-- Aggregate states as the domain evolves them (JSON), so the projector can
-- resume from a checkpoint without replaying.
CREATE TABLE states (
  kind TEXT NOT NULL, id TEXT NOT NULL, seq INTEGER NOT NULL, state TEXT NOT NULL,
  PRIMARY KEY (kind, id)
) WITHOUT ROWID;

CREATE TABLE rankings (
  slug TEXT PRIMARY KEY, title_zh TEXT NOT NULL, title_en TEXT NOT NULL,
  desc_zh TEXT NOT NULL, desc_en TEXT NOT NULL,
  quorum_min INTEGER NOT NULL, quorum_evidence INTEGER NOT NULL,
  definition TEXT NOT NULL, -- the domain Ranking as JSON: attributes, filters
  edition INTEGER NOT NULL DEFAULT 0, updated_at TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE categories (
  ranking TEXT NOT NULL REFERENCES rankings(slug), slug TEXT NOT NULL, pos INTEGER NOT NULL,
  name_zh TEXT NOT NULL, name_en TEXT NOT NULL, desc_zh TEXT NOT NULL, desc_en TEXT NOT NULL,
  PRIMARY KEY (ranking, slug)
) WITHOUT ROWID;

CREATE TABLE criteria (
  ranking TEXT NOT NULL REFERENCES rankings(slug), slug TEXT NOT NULL, pos INTEGER NOT NULL,
  name_zh TEXT NOT NULL, name_en TEXT NOT NULL, desc_zh TEXT NOT NULL, desc_en TEXT NOT NULL,
  weight INTEGER NOT NULL,
  PRIMARY KEY (ranking, slug)
) WITHOUT ROWID;

CREATE TABLE scenarios (
  ranking TEXT NOT NULL REFERENCES rankings(slug), slug TEXT NOT NULL, pos INTEGER NOT NULL,
  name_zh TEXT NOT NULL, name_en TEXT NOT NULL, desc_zh TEXT NOT NULL, desc_en TEXT NOT NULL,
  weights TEXT NOT NULL,
  PRIMARY KEY (ranking, slug)
) WITHOUT ROWID;

CREATE TABLE entries (
  ranking TEXT NOT NULL REFERENCES rankings(slug), slug TEXT NOT NULL,
  name_zh TEXT NOT NULL, name_en TEXT NOT NULL, category TEXT NOT NULL,
  website TEXT NOT NULL, desc_zh TEXT NOT NULL, desc_en TEXT NOT NULL,
  created_by_proposal TEXT NOT NULL, created_at TEXT NOT NULL,
  published_edition INTEGER, -- NULL until an edition publishes it
  total INTEGER NOT NULL DEFAULT 0, rank INTEGER, category_rank INTEGER,
  PRIMARY KEY (ranking, slug)
) WITHOUT ROWID;

-- Current published scores, with the proposal and edition that set them.
CREATE TABLE scores (
  ranking TEXT NOT NULL, entry TEXT NOT NULL, criterion TEXT NOT NULL,
  score INTEGER NOT NULL, proposal TEXT NOT NULL, edition INTEGER NOT NULL,
  PRIMARY KEY (ranking, entry, criterion),
  FOREIGN KEY (ranking, entry) REFERENCES entries(ranking, slug)
) WITHOUT ROWID;

-- The evidence behind each current published score or attribute.
CREATE TABLE published_evidence (
  ranking TEXT NOT NULL, entry TEXT NOT NULL, target TEXT NOT NULL,
  proposal TEXT NOT NULL, evidence_id TEXT NOT NULL,
  PRIMARY KEY (ranking, entry, target, proposal, evidence_id)
) WITHOUT ROWID;

CREATE TABLE attributes (
  ranking TEXT NOT NULL, entry TEXT NOT NULL, key TEXT NOT NULL,
  tags TEXT NOT NULL, proposal TEXT NOT NULL, edition INTEGER NOT NULL,
  PRIMARY KEY (ranking, entry, key),
  FOREIGN KEY (ranking, entry) REFERENCES entries(ranking, slug)
) WITHOUT ROWID;

CREATE TABLE scenario_ranks (
  ranking TEXT NOT NULL, scenario TEXT NOT NULL, entry TEXT NOT NULL,
  total INTEGER NOT NULL, rank INTEGER NOT NULL,
  PRIMARY KEY (ranking, scenario, entry)
) WITHOUT ROWID;

CREATE TABLE proposals (
  id TEXT PRIMARY KEY, ranking TEXT NOT NULL, entry TEXT NOT NULL, new_entry INTEGER NOT NULL,
  title TEXT NOT NULL, summary TEXT NOT NULL, author TEXT NOT NULL, status TEXT NOT NULL,
  revision INTEGER NOT NULL, revisers TEXT NOT NULL, opened_at TEXT NOT NULL, updated_at TEXT NOT NULL,
  cross_validated_revision INTEGER NOT NULL, edition INTEGER NOT NULL, closed_reason TEXT NOT NULL,
  quorum TEXT NOT NULL, -- domain.QuorumState as JSON
  seq INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX proposals_status ON proposals(ranking, status);
CREATE INDEX proposals_author ON proposals(author, status);
CREATE INDEX proposals_entry ON proposals(ranking, entry);

CREATE TABLE revisions (
  proposal TEXT NOT NULL, revision INTEGER NOT NULL, actor TEXT NOT NULL, at TEXT NOT NULL, note TEXT NOT NULL,
  PRIMARY KEY (proposal, revision)
) WITHOUT ROWID;

CREATE TABLE evidence (
  proposal TEXT NOT NULL, evidence_id TEXT NOT NULL, revision INTEGER NOT NULL,
  claim TEXT NOT NULL, source_url TEXT NOT NULL, source_name TEXT NOT NULL, section TEXT NOT NULL,
  excerpt TEXT NOT NULL, observed_on TEXT NOT NULL, valid_for_days INTEGER NOT NULL,
  stale_after TEXT, -- date after which the evidence may be out of date; NULL: never
  added_by TEXT NOT NULL, added_at TEXT NOT NULL, removed_revision INTEGER,
  PRIMARY KEY (proposal, evidence_id)
) WITHOUT ROWID;
CREATE INDEX evidence_stale ON evidence(stale_after) WHERE stale_after IS NOT NULL;

CREATE TABLE changes (
  proposal TEXT NOT NULL, target TEXT NOT NULL, revision INTEGER NOT NULL,
  from_score INTEGER, to_score INTEGER, from_tags TEXT, to_tags TEXT,
  rationale TEXT NOT NULL, evidence TEXT NOT NULL,
  PRIMARY KEY (proposal, target)
) WITHOUT ROWID;

-- Every vote ever cast; current = the voter's latest.
CREATE TABLE votes (
  seq INTEGER PRIMARY KEY, proposal TEXT NOT NULL, voter TEXT NOT NULL, revision INTEGER NOT NULL,
  verdict TEXT NOT NULL, verified TEXT NOT NULL, comment TEXT NOT NULL, cast_at TEXT NOT NULL,
  current INTEGER NOT NULL, dismissed_by TEXT, dismiss_reason TEXT
);
CREATE INDEX votes_proposal ON votes(proposal, current);
CREATE INDEX votes_voter ON votes(voter, current);

CREATE TABLE editions (
  ranking TEXT NOT NULL, number INTEGER NOT NULL, published_at TEXT NOT NULL, publisher TEXT NOT NULL,
  proposals TEXT NOT NULL, snapshot TEXT NOT NULL, snapshot_hash TEXT NOT NULL,
  preview_hash TEXT NOT NULL, audit_head TEXT NOT NULL, audit_seq INTEGER NOT NULL,
  note TEXT NOT NULL, seq INTEGER NOT NULL,
  PRIMARY KEY (ranking, number)
) WITHOUT ROWID;

CREATE TABLE edition_changes (
  ranking TEXT NOT NULL, number INTEGER NOT NULL, pos INTEGER NOT NULL,
  proposal TEXT NOT NULL, entry TEXT NOT NULL, target TEXT NOT NULL,
  from_score INTEGER, to_score INTEGER, from_tags TEXT, to_tags TEXT, evidence TEXT NOT NULL,
  PRIMARY KEY (ranking, number, pos)
) WITHOUT ROWID;

-- Rank moves per edition: scope is "overall", "category" or "scenario:<slug>".
CREATE TABLE edition_moves (
  ranking TEXT NOT NULL, number INTEGER NOT NULL, entry TEXT NOT NULL, scope TEXT NOT NULL,
  before_rank INTEGER, after_rank INTEGER NOT NULL, before_total INTEGER, after_total INTEGER NOT NULL,
  PRIMARY KEY (ranking, number, entry, scope)
) WITHOUT ROWID;

CREATE TABLE audit (
  seq INTEGER PRIMARY KEY, at TEXT NOT NULL, actor TEXT NOT NULL,
  kind TEXT NOT NULL, aggregate TEXT NOT NULL, type TEXT NOT NULL, event_id TEXT NOT NULL,
  summary_en TEXT NOT NULL, summary_zh TEXT NOT NULL, before TEXT NOT NULL, after TEXT NOT NULL,
  ranking TEXT NOT NULL, entry TEXT NOT NULL, proposal TEXT NOT NULL,
  hash TEXT NOT NULL
);
CREATE INDEX audit_actor ON audit(actor, seq);
CREATE INDEX audit_proposal ON audit(proposal, seq);
CREATE INDEX audit_entry ON audit(ranking, entry, seq);
CREATE INDEX audit_type ON audit(type, seq);

CREATE TABLE users (
  username TEXT PRIMARY KEY, display_name TEXT NOT NULL, roles TEXT NOT NULL,
  registered_at TEXT NOT NULL, updated_at TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE tokens (
  token_id TEXT PRIMARY KEY, username TEXT NOT NULL, name TEXT NOT NULL,
  issued_at TEXT NOT NULL, expires_at TEXT NOT NULL, revoked INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE webhook_deliveries (
  seq INTEGER PRIMARY KEY, url TEXT NOT NULL, ranking TEXT NOT NULL, edition INTEGER NOT NULL,
  ok INTEGER NOT NULL, status INTEGER NOT NULL, attempt INTEGER NOT NULL, error TEXT NOT NULL, at TEXT NOT NULL
);
