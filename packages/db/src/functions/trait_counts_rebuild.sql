-- Recounts trait_value_counts and collection_trait_totals from scratch: the migration's fill, and
-- after a TRUNCATE (migration 2026-11-26T1000_traits_kept_counts).
CREATE OR REPLACE FUNCTION trait_counts_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM trait_value_counts;
  INSERT INTO trait_value_counts (collection_id, trait_type, value, live_count)
  SELECT a.collection_id, a.trait_type, a.value, count(*)::int
    FROM token_attributes a JOIN tokens t ON t.token_data_id = a.token_data_id
   WHERE NOT t.is_burned
   GROUP BY 1, 2, 3;
  UPDATE collection_trait_totals SET live_tokens = 0, changed_version = pg_current_xact_id()::text::bigint;
  INSERT INTO collection_trait_totals AS c (collection_id, live_tokens, changed_version)
  SELECT collection_id, count(*) FILTER (WHERE NOT is_burned)::int, pg_current_xact_id()::text::bigint
    FROM (SELECT collection_id, is_burned FROM tokens
          UNION ALL SELECT collection_id, true FROM token_attributes) x
   GROUP BY 1
  ON CONFLICT (collection_id) DO UPDATE SET live_tokens = excluded.live_tokens;
END $$;
