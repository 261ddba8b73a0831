-- Makes the writers of active_listing_grams take turns until commit (migration
-- 2026-12-20T1000_active_listing_grams): a listing counts its collection's name as `collections`
-- holds it, and a rename recounts the collection's active listings. Taken before either reads,
-- each statement after it sees what the other committed, so a listing put in while its collection
-- is renamed is counted under the new name once, not under the old one.
CREATE OR REPLACE FUNCTION active_listing_grams_lock() RETURNS void LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(hashtext('active_listing_grams'))
$$;
