-- Trigger function on token_attributes (migration 2026-11-26T1000_traits_kept_counts). Attribute
-- rows count while their token is live. Each lookup is a primary-key probe: a LATERAL subquery that
-- LIMIT / OFFSET 0 keeps from being flattened into a join the planner could hash (a sequential scan
-- of the other table per statement). Deltas are summed per value before they are applied, so a bulk
-- insert hands over one delta per value, not one per row.
CREATE OR REPLACE FUNCTION trait_counts_on_attributes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM trait_counts_apply(ARRAY(
      SELECT ROW(collection_id, trait_type, value, sum(delta)::int)::trait_count_delta FROM (
      SELECT a.collection_id, a.trait_type, a.value, 1 FROM new_rows a
        JOIN LATERAL (SELECT 1 FROM tokens t WHERE t.token_data_id = a.token_data_id AND NOT t.is_burned LIMIT 1) t ON true) d(collection_id, trait_type, value, delta)
       GROUP BY collection_id, trait_type, value));
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    PERFORM trait_counts_apply(ARRAY(
      SELECT ROW(collection_id, trait_type, value, sum(delta)::int)::trait_count_delta FROM (
      SELECT a.collection_id, a.trait_type, a.value, -1 FROM old_rows a
        JOIN LATERAL (SELECT 1 FROM tokens t WHERE t.token_data_id = a.token_data_id AND NOT t.is_burned LIMIT 1) t ON true) d(collection_id, trait_type, value, delta)
       GROUP BY collection_id, trait_type, value));
  END IF;
  RETURN NULL;
END $$;
