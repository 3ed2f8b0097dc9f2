-- search_grams_recent holds the bigrams of the documents indexed since the
-- last merge, keyed like search_grams. A live commit indexes a handful of
-- documents, whose bigrams land all over search_grams: each of its rows
-- dirtied a page of its own, and the commit wrote them all to the WAL.
-- Inserted here, they share the few pages of a small table; when it passes
-- searchMergeAt rows, one statement moves them into search_grams in key
-- order, a page of it at most once (projections/search_index.go).
-- search_postings is both, as search reads them; verify and Dump compare
-- it, as a rebuild puts every bigram straight into search_grams.
CREATE TABLE search_grams_recent (
  kind TEXT NOT NULL, gram INTEGER NOT NULL, doc INTEGER NOT NULL,
  PRIMARY KEY (kind, gram, doc)
) WITHOUT ROWID;
CREATE VIEW search_postings AS
  SELECT kind, gram, doc FROM search_grams
  UNION ALL SELECT kind, gram, doc FROM search_grams_recent;
