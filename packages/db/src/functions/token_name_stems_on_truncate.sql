-- Trigger function: a TRUNCATE of tokens recounts the stems
-- (migration 2026-11-28T1300_search_name_stems).
CREATE OR REPLACE FUNCTION token_name_stems_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM token_name_stems_rebuild();
  RETURN NULL;
END $$;
