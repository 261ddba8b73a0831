-- Recounts collection_holdings for (collection, holder) pairs (migration 2026-12-17T1000_collection_holdings):
-- the tokens of the collection the holder holds, each once, the way collection-stats counted them
-- per request: a positive ownership of any property version, or an active listing of a token the
-- holder has no positive ownership of (escrowed by the marketplace, still the seller's), burned
-- tokens left out. A pair that holds nothing has no row. Rows whose count did not change are not
-- written (the collection's write counter stays), and the rows are written in key order
-- (concurrent writers lock them in the same order). A recount rather than a delta: the distinct
-- tokens, the escrow and the burns do not add up per row.
CREATE OR REPLACE FUNCTION collection_holdings_recount(ids text[], holders text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  WITH pairs AS (
    SELECT DISTINCT p.collection_id, p.holder
      FROM unnest(ids, holders) AS p(collection_id, holder)
     WHERE p.collection_id IS NOT NULL AND p.holder IS NOT NULL),
  counted AS (
    SELECT p.collection_id, p.holder, (
      SELECT count(*) FROM (
        SELECT o.token_data_id FROM token_ownerships o
         WHERE o.collection_id = p.collection_id AND o.owner_address = p.holder AND o.amount > 0
        UNION
        SELECT l.token_data_id FROM listings l
         WHERE l.seller = p.holder AND l.status = 'active' AND l.collection_id = p.collection_id) h
      WHERE NOT EXISTS (SELECT 1 FROM tokens t WHERE t.token_data_id = h.token_data_id AND t.is_burned
                          AND t.collection_id = p.collection_id))::int AS held
      FROM pairs p),
  emptied AS (
    DELETE FROM collection_holdings k USING counted c
     WHERE c.held = 0 AND k.collection_id = c.collection_id AND k.holder = c.holder)
  INSERT INTO collection_holdings AS k (collection_id, holder, held)
  SELECT collection_id, holder, held FROM counted WHERE held > 0 ORDER BY 1, 2
  ON CONFLICT (collection_id, holder) DO UPDATE SET held = excluded.held WHERE k.held <> excluded.held;
END $$;
