-- Due dates of review requests: when a requested reviewer's review is due
-- (RFC 3339 UTC; '' after it was cleared) and whether they were nudged for
-- it and have not answered since (overdue), as domain.Proposal says after
-- each event. Only reviewers who were ever given a due date have a row.
CREATE TABLE review_due (
  proposal TEXT NOT NULL, reviewer TEXT NOT NULL, due TEXT NOT NULL, overdue INTEGER NOT NULL,
  PRIMARY KEY (proposal, reviewer)
) WITHOUT ROWID;
CREATE INDEX review_due_overdue ON review_due(proposal) WHERE overdue = 1;
