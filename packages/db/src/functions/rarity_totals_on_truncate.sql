-- Trigger function: a TRUNCATE of token_rarity leaves no collection ranked
-- (migration 2026-12-16T1000_rarity_totals).
CREATE OR REPLACE FUNCTION rarity_totals_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM collection_rarity_totals;
  RETURN NULL;
END $$;
