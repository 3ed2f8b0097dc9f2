-- How far the capture of a ranking's sources has come, kept as counts so
-- that the desk reads one row per ranking instead of counting 30,000
-- evidence rows on each request (issue 42 item 8). A source is an
-- evidence item citing a URL that its proposal still holds; captured and
-- failed count those with that capture_state.
--
-- Triggers keep the counts. The projector writes a proposal's row at the
-- end of a batch, after the evidence the batch added, so an evidence row
-- is counted when its proposal's row arrives if it came first, and by the
-- evidence triggers after that; an evidence trigger whose proposal has no
-- row yet changes nothing.
CREATE TABLE capture_progress (
  ranking TEXT PRIMARY KEY,
  sources INTEGER NOT NULL, captured INTEGER NOT NULL, failed INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TRIGGER capture_progress_proposal AFTER INSERT ON proposals BEGIN
  INSERT INTO capture_progress(ranking, sources, captured, failed)
  SELECT NEW.ranking, count(*), coalesce(sum(e.capture_state = 'captured'), 0), coalesce(sum(e.capture_state = 'failed'), 0)
  FROM evidence e WHERE e.proposal = NEW.id AND e.source_url <> '' AND e.removed_revision IS NULL
  ON CONFLICT(ranking) DO UPDATE SET sources = sources + excluded.sources,
    captured = captured + excluded.captured, failed = failed + excluded.failed;
END;

CREATE TRIGGER capture_progress_insert AFTER INSERT ON evidence
WHEN NEW.source_url <> '' AND NEW.removed_revision IS NULL BEGIN
  UPDATE capture_progress SET sources = sources + 1,
    captured = captured + (NEW.capture_state = 'captured'), failed = failed + (NEW.capture_state = 'failed')
  WHERE ranking = (SELECT ranking FROM proposals WHERE id = NEW.proposal);
END;

CREATE TRIGGER capture_progress_update AFTER UPDATE OF capture_state, removed_revision, source_url ON evidence BEGIN
  UPDATE capture_progress SET
    sources = sources - (OLD.source_url <> '' AND OLD.removed_revision IS NULL) + (NEW.source_url <> '' AND NEW.removed_revision IS NULL),
    captured = captured - (OLD.source_url <> '' AND OLD.removed_revision IS NULL AND OLD.capture_state = 'captured')
      + (NEW.source_url <> '' AND NEW.removed_revision IS NULL AND NEW.capture_state = 'captured'),
    failed = failed - (OLD.source_url <> '' AND OLD.removed_revision IS NULL AND OLD.capture_state = 'failed')
      + (NEW.source_url <> '' AND NEW.removed_revision IS NULL AND NEW.capture_state = 'failed')
  WHERE ranking = (SELECT ranking FROM proposals WHERE id = NEW.proposal);
END;

CREATE TRIGGER capture_progress_delete AFTER DELETE ON evidence
WHEN OLD.source_url <> '' AND OLD.removed_revision IS NULL BEGIN
  UPDATE capture_progress SET sources = sources - 1,
    captured = captured - (OLD.capture_state = 'captured'), failed = failed - (OLD.capture_state = 'failed')
  WHERE ranking = (SELECT ranking FROM proposals WHERE id = OLD.proposal);
END;

-- The rows stored before this migration.
INSERT INTO capture_progress(ranking, sources, captured, failed)
SELECT p.ranking, count(*), sum(e.capture_state = 'captured'), sum(e.capture_state = 'failed')
FROM evidence e JOIN proposals p ON p.id = e.proposal
WHERE e.source_url <> '' AND e.removed_revision IS NULL GROUP BY p.ranking;
