-- Counts active_listing_grams from scratch: every active listing's grams with its collection's
-- name (migration 2026-12-20T1000_active_listing_grams, and TRUNCATE of active_listings or
-- collections, active_listing_grams_on_truncate).
CREATE OR REPLACE FUNCTION active_listing_grams_rebuild() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  names text[];
  collection_names text[];
  signs int[];
BEGIN
  PERFORM active_listing_grams_lock();
  DELETE FROM active_listing_grams;
  SELECT array_agg(l.token_name), array_agg(c.collection_name), array_agg(1)
    INTO names, collection_names, signs
    FROM active_listings l LEFT JOIN collections c ON c.collection_id = l.collection_id;
  PERFORM active_listing_grams_apply(names, collection_names, signs);
END $$;
