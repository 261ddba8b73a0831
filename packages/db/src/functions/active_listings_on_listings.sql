-- Trigger function on listings (migration 2026-12-12T1000_active_listings): keeps active_listings
-- exactly the listings whose status is 'active', and active_listing_counts their number per
-- (creator, collection name), in the writing statement. A listing that stays
-- active and unchanged (an upsert that repeats what is stored) is left alone; a changed one is
-- deleted and inserted again (no column list to keep in step with listings'). The rows are gathered
-- first and active_listings written only when there are some: every statement on active_listings
-- moves its read counter, and a write that touched only closed listings must not retire the
-- listing-card answers.
CREATE OR REPLACE FUNCTION active_listings_on_listings() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  gone listings[];
  added listings[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(n) INTO added FROM new_rows n WHERE n.status = 'active';
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(o) INTO gone FROM old_rows o WHERE o.status = 'active';
  ELSE
    SELECT array_agg(o) INTO gone FROM old_rows o
     WHERE o.status = 'active'
       AND NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.marketplace = o.marketplace
                          AND n.listing_id = o.listing_id AND n IS NOT DISTINCT FROM o);
    SELECT array_agg(n) INTO added FROM new_rows n
     WHERE n.status = 'active'
       AND NOT EXISTS (SELECT 1 FROM old_rows o WHERE o.marketplace = n.marketplace
                          AND o.listing_id = n.listing_id AND o IS NOT DISTINCT FROM n);
  END IF;
  IF gone IS NOT NULL THEN
    DELETE FROM active_listings a USING unnest(gone) g
     WHERE a.marketplace = g.marketplace AND a.listing_id = g.listing_id;
  END IF;
  IF added IS NOT NULL THEN
    INSERT INTO active_listings SELECT * FROM unnest(added) ORDER BY marketplace, listing_id;
  END IF;
  -- The counts per (creator, collection name) of the listing rows (active_listing_counts): what
  -- total-listing-cards reads when it filters by nothing else. Rows whose count reaches 0 go.
  IF gone IS NOT NULL OR added IS NOT NULL THEN
    INSERT INTO active_listing_counts AS k (creator_address, collection_name, listings)
    SELECT d.creator_address, d.collection_name, sum(d.delta)::int FROM (
      SELECT g.creator_address, g.collection_name, -1 AS delta FROM unnest(gone) g
      UNION ALL
      SELECT a.creator_address, a.collection_name, 1 FROM unnest(added) a) d
     GROUP BY 1, 2 HAVING sum(d.delta) <> 0
     ORDER BY 1, 2
    ON CONFLICT (creator_address, collection_name) DO UPDATE SET listings = k.listings + excluded.listings;
    IF gone IS NOT NULL THEN
      DELETE FROM active_listing_counts WHERE listings = 0;
    END IF;
  END IF;
  RETURN NULL;
END $$;
