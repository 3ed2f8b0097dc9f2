-- Due dates of review requests: when each requested reviewer's review is
-- due (RFC 3339 UTC, '' none) and whether they were nudged for it and have
-- not answered since (overdue), as domain.Proposal says after each event.
ALTER TABLE proposal_reviewers ADD COLUMN due TEXT NOT NULL DEFAULT '';
ALTER TABLE proposal_reviewers ADD COLUMN overdue INTEGER NOT NULL DEFAULT 0;
CREATE INDEX proposal_reviewers_overdue ON proposal_reviewers(overdue) WHERE overdue = 1;
