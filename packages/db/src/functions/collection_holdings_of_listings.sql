-- Trigger function on listings (migration 2026-12-17T1000_collection_holdings): recounts the
-- (collection, seller) pairs of the active listings the statement added or removed, and of the
-- listings that became or stopped being active or changed seller, collection or token. A sale's
-- buyer filled in on a closed listing recounts nothing. Each branch names only the transition
-- tables its event hands over.
CREATE OR REPLACE FUNCTION collection_holdings_of_listings() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
  holders text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(collection_id), array_agg(seller) INTO ids, holders
      FROM new_rows WHERE status = 'active';
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(collection_id), array_agg(seller) INTO ids, holders
      FROM old_rows WHERE status = 'active';
  ELSE
    SELECT array_agg(x.collection_id), array_agg(x.seller) INTO ids, holders FROM (
      SELECT o.collection_id, o.seller, n.collection_id AS new_collection, n.seller AS new_seller
        FROM old_rows o FULL JOIN new_rows n ON n.marketplace = o.marketplace AND n.listing_id = o.listing_id
       WHERE o.listing_id IS NULL OR n.listing_id IS NULL
          OR (o.status = 'active') IS DISTINCT FROM (n.status = 'active')
          OR (n.status = 'active' AND (o.seller IS DISTINCT FROM n.seller
              OR o.collection_id IS DISTINCT FROM n.collection_id
              OR o.token_data_id IS DISTINCT FROM n.token_data_id))) c
      CROSS JOIN LATERAL (VALUES (c.collection_id, c.seller), (c.new_collection, c.new_seller))
        AS x(collection_id, seller);
  END IF;
  IF ids IS NOT NULL THEN PERFORM collection_holdings_recount(ids, holders); END IF;
  RETURN NULL;
END $$;
