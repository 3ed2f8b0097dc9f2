-- Search on SQLite's full-text index (FTS4, compiled into mattn/go-sqlite3
-- by default) instead of a row per bigram per document (014, 025): a term's
-- documents are one posting list, not a row each.
--
-- search_docs keeps a document under its key (kind, a, b) with the id, a
-- hash of the key, so a replay in other batches writes the same rows. Its
-- body is the indexed text of the document's fields, segmented for FTS's
-- simple tokenizer (projections/search_text.go): Chinese, Japanese and
-- Korean runs as overlapping bigrams, each run ended by its last character
-- alone, so one character is found by prefix and a longer substring as a
-- phrase; other words as written. scope is the token of the document's
-- ranking, so a search within a ranking is a term of the query.
-- search_fts_entry, _proposal and _evidence index the documents of their
-- kind; their content is search_docs (content=), so the text is stored once
-- and snippet() reads it there. verify and Dump compare search_docs; the
-- index's own tables depend on the order of merges, not on the model.
DROP VIEW search_postings;
DROP TABLE search_grams_recent;
DROP TABLE search_grams;
DROP TABLE search_docs;
CREATE TABLE search_docs (
  id INTEGER PRIMARY KEY, kind TEXT NOT NULL, a TEXT NOT NULL, b TEXT NOT NULL,
  ranking TEXT NOT NULL, body TEXT NOT NULL,
  scope TEXT GENERATED ALWAYS AS ('r' || hex(ranking)) VIRTUAL,
  UNIQUE (kind, a, b)
);
CREATE VIRTUAL TABLE search_fts_entry USING fts4(content="search_docs", body, scope);
CREATE VIRTUAL TABLE search_fts_proposal USING fts4(content="search_docs", body, scope);
CREATE VIRTUAL TABLE search_fts_evidence USING fts4(content="search_docs", body, scope);

-- Every document is indexed again at the next open.
DELETE FROM search_dirty;
INSERT INTO search_dirty SELECT 'entry', ranking, slug FROM entries;
INSERT INTO search_dirty SELECT 'proposal', id, '' FROM proposals;
INSERT INTO search_dirty SELECT 'evidence', proposal, evidence_id FROM evidence;
