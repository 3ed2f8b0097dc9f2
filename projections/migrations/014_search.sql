-- The search index: character bigrams of entry names (both languages and
-- the slug), proposal titles and evidence (claim, excerpt, source URL).
-- Chinese has no spaces, so words cannot be the unit; a bigram index finds
-- any substring of two characters or more (every bigram of the query must
-- be in the document, then instr() confirms the whole substring), and one
-- character by the range of bigrams that start with it. FTS5's trigram
-- tokenizer would need a build tag the plain `go run` lacks.
--
-- search_docs holds each document's normalised text (lower case, runs of
-- white space as one space, each field ended by a line feed) under its key
-- (kind, a, b): an entry (ranking, slug), a proposal (id, ''), evidence
-- (proposal, evidence id). Its id is a hash of the key, so a replay in
-- other batches writes the same rows.
-- search_grams holds (kind, bigram, document): a bigram is two code points
-- packed in an integer, first << 21 | second.
CREATE TABLE search_docs (
  id INTEGER PRIMARY KEY, kind TEXT NOT NULL, a TEXT NOT NULL, b TEXT NOT NULL,
  ranking TEXT NOT NULL, body TEXT NOT NULL,
  UNIQUE (kind, a, b)
);
CREATE TABLE search_grams (
  kind TEXT NOT NULL, gram INTEGER NOT NULL, doc INTEGER NOT NULL,
  PRIMARY KEY (kind, gram, doc)
) WITHOUT ROWID;

-- Triggers note which documents changed; the projection re-indexes them
-- before each commit (projections/search_index.go) and empties the table.
CREATE TABLE search_dirty (
  kind TEXT NOT NULL, a TEXT NOT NULL, b TEXT NOT NULL,
  PRIMARY KEY (kind, a, b)
) WITHOUT ROWID;

CREATE TRIGGER search_entry_insert AFTER INSERT ON entries BEGIN
  INSERT OR IGNORE INTO search_dirty VALUES ('entry', NEW.ranking, NEW.slug);
END;
CREATE TRIGGER search_entry_update AFTER UPDATE OF name_zh, name_en ON entries BEGIN
  INSERT OR IGNORE INTO search_dirty VALUES ('entry', NEW.ranking, NEW.slug);
END;
CREATE TRIGGER search_entry_delete AFTER DELETE ON entries BEGIN
  INSERT OR IGNORE INTO search_dirty VALUES ('entry', OLD.ranking, OLD.slug);
END;
CREATE TRIGGER search_proposal_insert AFTER INSERT ON proposals BEGIN
  INSERT OR IGNORE INTO search_dirty VALUES ('proposal', NEW.id, '');
END;
CREATE TRIGGER search_proposal_update AFTER UPDATE OF title ON proposals WHEN OLD.title IS NOT NEW.title BEGIN
  INSERT OR IGNORE INTO search_dirty VALUES ('proposal', NEW.id, '');
END;
CREATE TRIGGER search_proposal_delete AFTER DELETE ON proposals BEGIN
  INSERT OR IGNORE INTO search_dirty VALUES ('proposal', OLD.id, '');
END;
CREATE TRIGGER search_evidence_insert AFTER INSERT ON evidence BEGIN
  INSERT OR IGNORE INTO search_dirty VALUES ('evidence', NEW.proposal, NEW.evidence_id);
END;
CREATE TRIGGER search_evidence_update AFTER UPDATE OF claim, excerpt, source_url, removed_revision ON evidence BEGIN
  INSERT OR IGNORE INTO search_dirty VALUES ('evidence', NEW.proposal, NEW.evidence_id);
END;
CREATE TRIGGER search_evidence_delete AFTER DELETE ON evidence BEGIN
  INSERT OR IGNORE INTO search_dirty VALUES ('evidence', OLD.proposal, OLD.evidence_id);
END;

-- What is already projected is indexed at the next open.
INSERT INTO search_dirty SELECT 'entry', ranking, slug FROM entries;
INSERT INTO search_dirty SELECT 'proposal', id, '' FROM proposals;
INSERT INTO search_dirty SELECT 'evidence', proposal, evidence_id FROM evidence;
