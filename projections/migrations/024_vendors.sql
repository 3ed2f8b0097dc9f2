-- Vendors: the entries each vendor account is scoped to, its statements
-- (right of reply) and each entry's public contact timeline. Nothing here
-- enters an edition, a snapshot or its hash.
CREATE TABLE vendor_entries (
  username TEXT NOT NULL, ranking TEXT NOT NULL, entry TEXT NOT NULL,
  PRIMARY KEY (username, ranking, entry)
) WITHOUT ROWID;
CREATE INDEX vendor_entries_entry ON vendor_entries(ranking, entry);

-- One row per statement (a vendor's, per entry and criterion); written
-- again, its text is replaced. hidden_seq > 0: hidden by the editors, with
-- the public reason.
CREATE TABLE replies (
  id TEXT PRIMARY KEY, vendor TEXT NOT NULL, ranking TEXT NOT NULL, entry TEXT NOT NULL,
  criterion TEXT NOT NULL, text_en TEXT NOT NULL, text_zh TEXT NOT NULL,
  written_at TEXT NOT NULL, written_seq INTEGER NOT NULL,
  reason TEXT NOT NULL, hidden_at TEXT NOT NULL, hidden_seq INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX replies_entry ON replies(ranking, entry, written_seq);

-- The proposals a vendor opened, so their outcomes join the timeline.
CREATE TABLE vendor_proposals (
  proposal TEXT PRIMARY KEY, vendor TEXT NOT NULL, ranking TEXT NOT NULL, entry TEXT NOT NULL
) WITHOUT ROWID;

-- The public contact timeline of an entry, oldest first by stream
-- sequence. kind names the row (vendor_invited, reply_written,
-- reply_hidden, evidence_submitted, proposal_published, proposal_rejected,
-- proposal_withdrawn; other kinds may join: web/i18n words
-- "contact.kind.<kind>"); vendor is the vendor account concerned (its
-- display name is shown, nothing more personal); subject is a statement or
-- proposal id; detail a criterion or an edition number; text a public
-- reason.
CREATE TABLE contact_timeline (
  ranking TEXT NOT NULL, entry TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL,
  at TEXT NOT NULL, vendor TEXT NOT NULL, subject TEXT NOT NULL, detail TEXT NOT NULL, text TEXT NOT NULL,
  PRIMARY KEY (ranking, entry, seq, kind)
) WITHOUT ROWID;
