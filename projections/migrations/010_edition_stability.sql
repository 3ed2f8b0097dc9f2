-- How solid each rank of an edition is (domain.Stability of its snapshot):
-- the entries it could swap with if one published score were removed or
-- one weight moved by 5 points, each with its first condition
-- ([]domain.Swap as JSON; [] : stable). A read model migrated here holds
-- no rows for the editions it projected before: pages and the API then show
-- no stability, and `crossrank verify` reports the missing rows until
-- `crossrank rebuild` replays them (a replay computes every edition's).
CREATE TABLE edition_stability (
  ranking TEXT NOT NULL, edition INTEGER NOT NULL, entry TEXT NOT NULL,
  swaps TEXT NOT NULL,
  PRIMARY KEY (ranking, edition, entry)
) WITHOUT ROWID;
