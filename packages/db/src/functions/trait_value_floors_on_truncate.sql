-- Trigger function: a TRUNCATE of listings, token_attributes or tokens recounts every value's
-- floors (migration 2026-12-19T1000_trait_value_floors).
CREATE OR REPLACE FUNCTION trait_value_floors_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM trait_value_floors_rebuild();
  RETURN NULL;
END $$;
