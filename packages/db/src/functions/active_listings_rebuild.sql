-- Refills active_listings and active_listing_counts from listings: the migration's fill, and after a TRUNCATE of listings
-- (migration 2026-12-12T1000_active_listings). Newest first, so that the newest pages (listing-cards'
-- default order) lie together.
CREATE OR REPLACE FUNCTION active_listings_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM active_listings;
  INSERT INTO active_listings
  SELECT * FROM listings WHERE status = 'active' ORDER BY listed_version DESC NULLS LAST, marketplace, listing_id;
  DELETE FROM active_listing_counts;
  INSERT INTO active_listing_counts (creator_address, collection_name, listings)
  SELECT creator_address, collection_name, count(*) FROM active_listings GROUP BY 1, 2;
END $$;
