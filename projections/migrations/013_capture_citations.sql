-- Which archived copies a published edition cites: the public site serves
-- a capture (/captures/{sha256}) only then, so that a draft's sources stay
-- on the desk. Indexes only: nothing to replay.
CREATE INDEX evidence_capture ON evidence(capture_sha256);
CREATE INDEX edition_changes_proposal ON edition_changes(proposal);
