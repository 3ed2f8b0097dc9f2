-- An entry's rank across editions is read by entry: the entry page's
-- history and the rank charts (web/site chart_bump.go), which read the
-- top ten and the entry in view. edition_moves is keyed (ranking, number,
-- entry), so each of those reads scanned every edition's rows of the
-- ranking (10,000 an edition at size); this index reads one entry's rows.
-- IF NOT EXISTS, as 029: a file that ran it under another number runs it
-- again here.
CREATE INDEX IF NOT EXISTS edition_moves_by_entry ON edition_moves(ranking, entry, number);
