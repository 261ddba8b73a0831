-- Recounts collection_rarity_totals from token_rarity: the migration's fill, and after the rarity
-- rebuild swapped in a table its triggers never saw filled (migration 2026-12-16T1000_rarity_totals,
-- queries/worker/rarity-rebuild.ts; a TRUNCATE empties the totals by rarity_totals_on_truncate).
-- Rows whose count did not change are not written: their collections' write counters stay where
-- they were.
CREATE OR REPLACE FUNCTION rarity_totals_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM collection_rarity_totals t
   WHERE NOT EXISTS (SELECT 1 FROM token_rarity r WHERE r.collection_id = t.collection_id);
  INSERT INTO collection_rarity_totals AS t (collection_id, ranked)
  SELECT collection_id, count(*)::int FROM token_rarity GROUP BY 1 ORDER BY 1
  ON CONFLICT (collection_id) DO UPDATE SET ranked = excluded.ranked WHERE t.ranked <> excluded.ranked;
END $$;
