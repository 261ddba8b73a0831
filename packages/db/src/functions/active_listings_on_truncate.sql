-- Trigger function: a TRUNCATE of listings empties active_listings and their counts
-- (migration 2026-12-12T1000_active_listings).
CREATE OR REPLACE FUNCTION active_listings_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM active_listings;
  DELETE FROM active_listing_counts;
  RETURN NULL;
END $$;
