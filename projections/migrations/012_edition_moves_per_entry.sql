-- One row per entry per edition instead of one per entry per scope
-- ("overall", "category", "scenario:<slug>"): the ranks before and after
-- overall and in the entry's category, the totals, and the scenario ranks
-- as a JSON object {"<slug>":[before,after],…} in slug order, before null
-- for an entry new in the edition. The older rows are folded here into the
-- same values a replay writes, so a read model migrated here needs no
-- replay and `crossrank verify` passes on it.
ALTER TABLE edition_moves RENAME TO edition_moves_by_scope;
CREATE TABLE edition_moves (
  ranking TEXT NOT NULL, number INTEGER NOT NULL, entry TEXT NOT NULL,
  before_rank INTEGER, after_rank INTEGER NOT NULL,
  before_category_rank INTEGER, after_category_rank INTEGER NOT NULL,
  before_total INTEGER, after_total INTEGER NOT NULL,
  scenarios TEXT NOT NULL,
  PRIMARY KEY (ranking, number, entry)
) WITHOUT ROWID;
INSERT INTO edition_moves
SELECT ranking, number, entry,
  max(before_rank) FILTER (WHERE scope = 'overall'), max(after_rank) FILTER (WHERE scope = 'overall'),
  max(before_rank) FILTER (WHERE scope = 'category'), max(after_rank) FILTER (WHERE scope = 'category'),
  max(before_total) FILTER (WHERE scope = 'overall'), max(after_total) FILTER (WHERE scope = 'overall'),
  coalesce(json_group_object(substr(scope, 10), json_array(before_rank, after_rank) ORDER BY scope)
    FILTER (WHERE scope GLOB 'scenario:*'), '{}')
FROM edition_moves_by_scope
GROUP BY ranking, number, entry
ORDER BY ranking, number, entry;
DROP TABLE edition_moves_by_scope;
