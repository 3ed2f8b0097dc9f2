-- The editorial workflow: reviewers requested, comments, declared
-- conflicts of interest, scheduled editions and each user's inbox.
CREATE TABLE proposal_reviewers (
  proposal TEXT NOT NULL, reviewer TEXT NOT NULL, requested_by TEXT NOT NULL, requested_at TEXT NOT NULL,
  seq INTEGER NOT NULL,
  PRIMARY KEY (proposal, reviewer)
) WITHOUT ROWID;
CREATE INDEX proposal_reviewers_reviewer ON proposal_reviewers(reviewer);

CREATE TABLE comments (
  proposal TEXT NOT NULL, comment_id TEXT NOT NULL, revision INTEGER NOT NULL,
  on_target TEXT NOT NULL, reply_to TEXT NOT NULL, body TEXT NOT NULL, author TEXT NOT NULL, at TEXT NOT NULL,
  resolved_by TEXT NOT NULL DEFAULT '', resolved_at TEXT NOT NULL DEFAULT '', seq INTEGER NOT NULL,
  PRIMARY KEY (proposal, comment_id)
) WITHOUT ROWID;

CREATE TABLE conflicts (
  ranking TEXT NOT NULL, user TEXT NOT NULL, entry TEXT NOT NULL, reason TEXT NOT NULL, at TEXT NOT NULL,
  seq INTEGER NOT NULL,
  PRIMARY KEY (ranking, user, entry)
) WITHOUT ROWID;

CREATE TABLE schedules (
  ranking TEXT NOT NULL, id TEXT NOT NULL, at TEXT NOT NULL, by_user TEXT NOT NULL,
  proposals TEXT NOT NULL, -- []events.ScheduledPick as JSON
  preview_hash TEXT NOT NULL, snapshot_hash TEXT NOT NULL, note TEXT NOT NULL,
  state TEXT NOT NULL, -- pending, canceled, failed, published
  code TEXT NOT NULL DEFAULT '', detail TEXT NOT NULL DEFAULT '', edition INTEGER NOT NULL DEFAULT 0,
  scheduled_at TEXT NOT NULL, updated_at TEXT NOT NULL, seq INTEGER NOT NULL,
  PRIMARY KEY (ranking, id)
) WITHOUT ROWID;
CREATE INDEX schedules_pending ON schedules(state, at);

-- What concerns each user, newest last: one row per user an event
-- concerns (kind: review_requested, veto, comment, cross_validated,
-- published, returned, schedule_failed, source_changed, source_dead).
CREATE TABLE inbox (
  user TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL,
  ranking TEXT NOT NULL, proposal TEXT NOT NULL, actor TEXT NOT NULL, at TEXT NOT NULL, detail TEXT NOT NULL,
  PRIMARY KEY (user, seq, kind)
) WITHOUT ROWID;

ALTER TABLE users ADD COLUMN inbox_read_upto INTEGER NOT NULL DEFAULT 0;
