-- Takes the trait floors' lock of each collection of `ids`, in collection order, until the
-- transaction ends (migration 2026-12-19T1000_trait_value_floors): a collection's recounts and
-- lowered floors take turns, so each counts what the ones before it committed (the indexer's
-- listings and the crawler's attributes both move floors). Whatever reads the rows it then writes
-- from must read them in a statement after this one (its snapshot is taken after the lock). A
-- transaction that locks two collections in two statements takes them in statement order, so two
-- writers doing that in opposite orders can deadlock: Postgres aborts one, and both writers retry
-- their batch.
CREATE OR REPLACE FUNCTION trait_value_floors_lock(ids text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('mdq:trait_value_floors:' || c.id))
     FROM (SELECT DISTINCT id FROM unnest(ids) AS id WHERE id IS NOT NULL ORDER BY 1) c;
END $$;
