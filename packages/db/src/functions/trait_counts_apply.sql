-- Applies one statement's trait-count deltas (trait_count_delta: trait_type NULL is a token
-- entering (+1) or leaving (-1) the live tokens of collection_id, else one live attribute row), in
-- key order so concurrent writers lock rows in the same order, and marks every collection named as
-- changed (migration 2026-11-26T1000_traits_kept_counts).
CREATE OR REPLACE FUNCTION trait_counts_apply(deltas trait_count_delta[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(deltas) = 0 THEN RETURN; END IF;
  INSERT INTO trait_value_counts AS c (collection_id, trait_type, value, live_count)
  SELECT d.collection_id, d.trait_type, d.value, sum(d.delta)::int FROM unnest(deltas) d
   WHERE d.trait_type IS NOT NULL
   GROUP BY 1, 2, 3 HAVING sum(d.delta) <> 0
   ORDER BY 1, 2, 3
  ON CONFLICT (collection_id, trait_type, value) DO UPDATE SET live_count = c.live_count + excluded.live_count;
  -- Every collection named is marked changed, even when its deltas cancel out: two tokens that
  -- swap values leave the counts as they were but change both tokens' scores.
  INSERT INTO collection_trait_totals AS c (collection_id, live_tokens, changed_version)
  SELECT d.collection_id, COALESCE(sum(d.delta) FILTER (WHERE d.trait_type IS NULL), 0)::int,
         pg_current_xact_id()::text::bigint
    FROM unnest(deltas) d
   GROUP BY 1 ORDER BY 1
  ON CONFLICT (collection_id) DO UPDATE SET live_tokens = c.live_tokens + excluded.live_tokens,
    changed_version = excluded.changed_version
   WHERE excluded.live_tokens <> 0 OR c.changed_version <> excluded.changed_version;
END $$;
