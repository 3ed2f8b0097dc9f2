-- Stability is no longer recorded per edition: it is a function of the
-- edition's snapshot alone, computed when a page or an API answer needs it
-- (Store.Stability). Dropping the rows loses nothing that another table or
-- the checkpoint depends on, so a read model migrated here needs no replay.
DROP TABLE IF EXISTS edition_stability;
