-- Trigger function on token_rarity (migration 2026-12-16T1000_rarity_totals): each collection's
-- rows the statement added or removed, applied in key order (concurrent writers lock the rows in
-- the same order). An update changes a count only when it moves a row to another collection, which
-- the worker's rewrites never do: their statements write no total. The transition tables a
-- statement's event does not hand over are not visible to the function, so each branch names only
-- the ones its event has.
CREATE OR REPLACE FUNCTION rarity_totals_on_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO collection_rarity_totals AS t (collection_id, ranked)
    SELECT collection_id, count(*)::int FROM new_rows GROUP BY 1 ORDER BY 1
    ON CONFLICT (collection_id) DO UPDATE SET ranked = t.ranked + excluded.ranked;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO collection_rarity_totals AS t (collection_id, ranked)
    SELECT collection_id, -count(*)::int FROM old_rows GROUP BY 1 ORDER BY 1
    ON CONFLICT (collection_id) DO UPDATE SET ranked = t.ranked + excluded.ranked;
  ELSE
    INSERT INTO collection_rarity_totals AS t (collection_id, ranked)
    SELECT collection_id, sum(d)::int FROM (
      SELECT collection_id, 1 AS d FROM new_rows UNION ALL SELECT collection_id, -1 FROM old_rows) x
     GROUP BY 1 HAVING sum(d) <> 0 ORDER BY 1
    ON CONFLICT (collection_id) DO UPDATE SET ranked = t.ranked + excluded.ranked;
  END IF;
  RETURN NULL;
END $$;
