-- Trigger function: a TRUNCATE of tokens or token_attributes recounts everything
-- (migration 2026-11-26T1000_traits_kept_counts).
CREATE OR REPLACE FUNCTION trait_counts_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM trait_counts_rebuild();
  RETURN NULL;
END $$;
