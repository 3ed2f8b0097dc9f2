-- Indexes for the desk's paged lists, so each page reads its rows in list
-- order from an index (LIMIT/OFFSET walks the index; no sort of the whole
-- list): the dashboard's queues by status or author, newest or oldest
-- change first; the stale-evidence queue from the evidence index to the
-- values it backs; the audit trail of one ranking, newest first.
CREATE INDEX proposals_status_updated ON proposals(status, updated_at);
CREATE INDEX proposals_author_updated ON proposals(author, updated_at);
CREATE INDEX published_evidence_item ON published_evidence(proposal, evidence_id);
CREATE INDEX audit_ranking ON audit(ranking, seq);
-- The users page reads the account log and the tokens of its users only.
CREATE INDEX audit_aggregate ON audit(aggregate, seq);
CREATE INDEX tokens_username ON tokens(username);
