-- Recounts every pair of collection_holdings (migration 2026-12-17T1000_collection_holdings): the
-- migration's fill, and after a TRUNCATE of a table the holdings are counted from
-- (collection_holdings_on_truncate). The count of collection_holdings_recount, grouped over every
-- holder at once. Rows whose count did not change are not written.
CREATE OR REPLACE FUNCTION collection_holdings_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH counted AS MATERIALIZED (
    SELECT h.collection_id, h.holder, count(*)::int AS held FROM (
      SELECT o.collection_id, o.owner_address AS holder, o.token_data_id FROM token_ownerships o
       WHERE o.amount > 0 AND o.collection_id IS NOT NULL
      UNION
      SELECT l.collection_id, l.seller, l.token_data_id FROM listings l
       WHERE l.status = 'active' AND l.seller IS NOT NULL AND l.collection_id IS NOT NULL) h
    WHERE NOT EXISTS (SELECT 1 FROM tokens t WHERE t.token_data_id = h.token_data_id AND t.is_burned
                        AND t.collection_id = h.collection_id)
    GROUP BY 1, 2),
  gone AS (
    DELETE FROM collection_holdings k
     WHERE NOT EXISTS (SELECT 1 FROM counted c WHERE c.collection_id = k.collection_id AND c.holder = k.holder))
  INSERT INTO collection_holdings AS k (collection_id, holder, held)
  SELECT collection_id, holder, held FROM counted ORDER BY 1, 2
  ON CONFLICT (collection_id, holder) DO UPDATE SET held = excluded.held WHERE k.held <> excluded.held;
END $$;
