-- Trigger function on tokens (migration 2026-11-26T1000_traits_kept_counts). A token counts in its
-- collection while live; entering or leaving, its attribute rows do too.
CREATE OR REPLACE FUNCTION trait_counts_on_tokens() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM trait_counts_apply(ARRAY(
      SELECT ROW(collection_id, trait_type, value, sum(delta)::int)::trait_count_delta FROM (
      SELECT n.collection_id, NULL, NULL, 1 FROM new_rows n WHERE NOT n.is_burned
      UNION ALL
      SELECT a.collection_id, a.trait_type, a.value, 1 FROM new_rows n
        JOIN LATERAL (SELECT * FROM token_attributes a WHERE a.token_data_id = n.token_data_id OFFSET 0) a ON true
       WHERE NOT n.is_burned) d(collection_id, trait_type, value, delta)
       GROUP BY collection_id, trait_type, value));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM trait_counts_apply(ARRAY(
      SELECT ROW(collection_id, trait_type, value, sum(delta)::int)::trait_count_delta FROM (
      SELECT o.collection_id, NULL, NULL, -1 FROM old_rows o WHERE NOT o.is_burned
      UNION ALL
      SELECT a.collection_id, a.trait_type, a.value, -1 FROM old_rows o
        JOIN LATERAL (SELECT * FROM token_attributes a WHERE a.token_data_id = o.token_data_id OFFSET 0) a ON true
       WHERE NOT o.is_burned) d(collection_id, trait_type, value, delta)
       GROUP BY collection_id, trait_type, value));
  ELSE
    -- Most token updates change neither the burn flag nor the collection: the join finds nothing.
    PERFORM trait_counts_apply(ARRAY(
      SELECT ROW(collection_id, trait_type, value, sum(delta)::int)::trait_count_delta FROM (
      WITH moved AS (
        SELECT o.token_data_id, o.collection_id AS was_in, n.collection_id AS now_in,
               (NOT o.is_burned)::int AS was_live, (NOT n.is_burned)::int AS now_live
          FROM old_rows o JOIN new_rows n ON n.token_data_id = o.token_data_id
         WHERE o.collection_id <> n.collection_id OR o.is_burned <> n.is_burned
      )
      SELECT was_in, NULL, NULL, -was_live FROM moved
      UNION ALL
      SELECT now_in, NULL, NULL, now_live FROM moved
      UNION ALL
      SELECT a.collection_id, a.trait_type, a.value, m.now_live - m.was_live FROM moved m
        JOIN LATERAL (SELECT * FROM token_attributes a WHERE a.token_data_id = m.token_data_id OFFSET 0) a ON true
       WHERE m.now_live <> m.was_live) d(collection_id, trait_type, value, delta)
       GROUP BY collection_id, trait_type, value));
  END IF;
  RETURN NULL;
END $$;
