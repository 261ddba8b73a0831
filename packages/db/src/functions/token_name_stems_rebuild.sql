-- Recounts token_name_stems from the live tokens: the migration's fill, and after a TRUNCATE
-- (migration 2026-11-28T1300_search_name_stems).
CREATE OR REPLACE FUNCTION token_name_stems_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM token_name_stems;
  INSERT INTO token_name_stems (stem, live_count)
  SELECT token_name_stem(token_name), count(*)::int FROM tokens WHERE NOT is_burned GROUP BY 1;
END $$;
