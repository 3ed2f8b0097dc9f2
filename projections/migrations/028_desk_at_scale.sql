-- The desk at 10,000 entries: every page reads what it shows from an index.
--
-- "Awaiting your review" asks, for each proposal in review, whether the
-- reviewer has a current vote on its revision. With only votes_voter and
-- votes_proposal to choose from, SQLite looked the vote up by voter: a
-- reviewer with 8,000 votes scanned them all for each of 2,000 proposals
-- (9.3 s for one count). By proposal and voter it is one probe.
CREATE INDEX votes_proposal_voter ON votes(proposal, voter, current, revision);

-- An author's turn (open vetoes, unresolved comments) is listed from the
-- few proposals that have one, not tested on each of the author's.
CREATE INDEX votes_open_veto ON votes(proposal) WHERE current=1 AND verdict='reject' AND dismissed_by IS NULL;
CREATE INDEX comments_unresolved ON comments(proposal) WHERE resolved_by='';

-- The publish page reads a ranking's cross-validated proposals in the
-- order it lists them, without sorting them.
CREATE INDEX proposals_ranking_status_updated ON proposals(ranking, status, updated_at, id);

-- An inbox item is one action as a user sees it: the rows one actor's
-- burst of work made for them, of one kind on one ranking, each row less
-- than ten minutes after the one before — an import's proposals
-- cross-validated, a batch of votes, an edition's proposals published.
-- seq is its first row's (the item's place in the inbox, which does not
-- move as it grows), last_seq and last_at its newest row's, count how
-- many rows it holds; ranking, proposal and detail are its first row's.
-- A comment is an item of its own: its words are what the row tells.
--
-- The trigger keeps the items with every insert into inbox, wherever the
-- projection makes rows (a proposal's events, schedules, vendors,
-- previews), so a rebuild gathers them exactly as the live projection did.
CREATE TABLE inbox_items (
  user TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL,
  ranking TEXT NOT NULL, proposal TEXT NOT NULL, actor TEXT NOT NULL, at TEXT NOT NULL, detail TEXT NOT NULL,
  last_seq INTEGER NOT NULL, last_at TEXT NOT NULL, count INTEGER NOT NULL,
  PRIMARY KEY (user, seq, kind)
) WITHOUT ROWID;
CREATE INDEX inbox_items_last ON inbox_items(user, last_seq);
CREATE INDEX inbox_items_open ON inbox_items(user, kind, actor, ranking, last_seq);

CREATE TRIGGER inbox_gather AFTER INSERT ON inbox BEGIN
  UPDATE inbox_items SET count = count + 1, last_seq = NEW.seq, last_at = NEW.at
  WHERE NEW.kind <> 'comment' AND (user, seq, kind) = (
    SELECT i.user, i.seq, i.kind FROM inbox_items i
    WHERE i.user = NEW.user AND i.kind = NEW.kind AND i.actor = NEW.actor AND i.ranking = NEW.ranking
      AND (NEW.kind NOT IN ('published', 'vendor_edition') OR i.detail = NEW.detail)
      AND i.last_seq < NEW.seq AND julianday(NEW.at) - julianday(i.last_at) < 10.0 / 1440
    ORDER BY i.last_seq DESC LIMIT 1);
  INSERT INTO inbox_items(user, seq, kind, ranking, proposal, actor, at, detail, last_seq, last_at, count)
  SELECT NEW.user, NEW.seq, NEW.kind, NEW.ranking, NEW.proposal, NEW.actor, NEW.at, NEW.detail, NEW.seq, NEW.at, 1
  WHERE NOT EXISTS (SELECT 1 FROM inbox_items i WHERE i.user = NEW.user AND i.kind = NEW.kind AND i.last_seq = NEW.seq);
END;

-- The rows stored before this migration are gathered as the trigger
-- would have gathered them, in the order they were made.
CREATE TEMP TABLE inbox_before AS SELECT * FROM inbox;
DELETE FROM inbox;
INSERT INTO inbox SELECT * FROM inbox_before ORDER BY seq, user, kind;
DROP TABLE inbox_before;
