-- An entry's changes across a span of editions (the public "changes"
-- view, /r/{slug}/e/{entry}/changes): an index only, nothing to replay.
-- IF NOT EXISTS: user_version counts migrations by position, so this one
-- must be harmless to run twice if another lands before it later.
CREATE INDEX IF NOT EXISTS edition_changes_entry ON edition_changes(ranking, entry, number);
