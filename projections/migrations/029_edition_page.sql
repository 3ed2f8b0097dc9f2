-- The edition page reads one page of an edition at a time (web/site
-- editions.go): the first rows of the ranking after it, its largest
-- moves, its new entries, and its changes grouped by entry, filtered by
-- entry or by criterion. Each index serves one of those reads, so a
-- page of an edition of 80,000 changes reads its rows, not the edition.
-- edition_changes is WITHOUT ROWID: an index on it holds its key (ranking,
-- number, pos) too, so (…, entry) orders an entry's changes by pos.
-- No file is numbered 027: migrations apply by count (PRAGMA user_version
-- is how many ran), and this one was written as 027 beside 028, which
-- landed first. IF NOT EXISTS: a development file that ran it as 027
-- runs it again here.
CREATE INDEX IF NOT EXISTS edition_changes_by_entry ON edition_changes(ranking, number, entry);
CREATE INDEX IF NOT EXISTS edition_changes_by_target ON edition_changes(ranking, number, target, entry);
CREATE INDEX IF NOT EXISTS edition_moves_by_rank ON edition_moves(ranking, number, after_rank);
CREATE INDEX IF NOT EXISTS edition_moves_new ON edition_moves(ranking, number, after_rank) WHERE before_rank IS NULL;
CREATE INDEX IF NOT EXISTS edition_moves_by_size ON edition_moves(ranking, number, abs(before_rank - after_rank) DESC, after_rank)
  WHERE before_rank IS NOT NULL AND before_rank <> after_rank;
