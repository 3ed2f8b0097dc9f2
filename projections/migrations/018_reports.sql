-- Readers' reports on public entries, and the desk's triage of them. The
-- reporter's contact address is never here (nor in any event): it lives in
-- a key-value bucket with an expiry, erasable on request.
CREATE TABLE reports (
  id TEXT PRIMARY KEY, ranking TEXT NOT NULL, entry TEXT NOT NULL, criterion TEXT NOT NULL,
  evidence TEXT NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL,
  status TEXT NOT NULL, -- open, accepted, declined, duplicate
  reason TEXT NOT NULL, proposal TEXT NOT NULL, duplicate_of TEXT NOT NULL,
  folded INTEGER NOT NULL, -- times the same report was sent again within the folding window
  opened_at TEXT NOT NULL, opened_seq INTEGER NOT NULL,
  decided_at TEXT NOT NULL, decided_seq INTEGER NOT NULL, -- 0 while open
  decided_by TEXT NOT NULL
) WITHOUT ROWID;
-- The triage queue pages newest first, filtered by ranking, status, both or neither.
CREATE INDEX reports_ranking_status ON reports(ranking, status, opened_seq);
CREATE INDEX reports_status ON reports(status, opened_seq);
CREATE INDEX reports_opened ON reports(opened_seq);
CREATE INDEX reports_ranking ON reports(ranking, opened_seq);
-- The public corrections log: a ranking's decided reports, newest decision first.
CREATE INDEX reports_decided ON reports(ranking, decided_seq) WHERE decided_seq > 0;
