-- TRUNCATE of active_listings or collections (migration 2026-12-20T1000_active_listing_grams):
-- every gram counted again.
CREATE OR REPLACE FUNCTION active_listing_grams_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM active_listing_grams_rebuild();
  RETURN NULL;
END $$;
