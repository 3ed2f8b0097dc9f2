-- Embargoed previews: a publisher's link to the next edition of chosen
-- cross-validated proposals, for people without accounts. Only the SHA-256
-- of the link's token is kept; the page looks a preview up by it.
CREATE TABLE previews (
  id TEXT PRIMARY KEY, ranking TEXT NOT NULL,
  proposals TEXT NOT NULL, -- JSON list of ids, sorted
  entries TEXT NOT NULL,   -- JSON list of the entries the proposals change, sorted
  vendors TEXT NOT NULL,   -- JSON list of the users it was sent to, sorted
  note TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE, -- hex SHA-256 of the link's token
  expires_at TEXT NOT NULL,
  created_by TEXT NOT NULL, created_at TEXT NOT NULL, created_seq INTEGER NOT NULL,
  revoked_at TEXT NOT NULL, -- '' while not revoked
  revoked_by TEXT NOT NULL,
  openings INTEGER NOT NULL, -- recorded openings, folded at most one a minute
  last_opened_at TEXT NOT NULL
) WITHOUT ROWID;
-- The publish page's list: a ranking's previews, newest first.
CREATE INDEX previews_ranking ON previews(ranking, created_seq);
-- Who a preview was sent to and which entries it touches, for the vendor's
-- inbox and each entry's contact timeline.
CREATE TABLE preview_targets (
  preview TEXT NOT NULL, kind TEXT NOT NULL, -- 'vendor' or 'entry'
  name TEXT NOT NULL, ranking TEXT NOT NULL,
  PRIMARY KEY (kind, ranking, name, preview)
) WITHOUT ROWID;
