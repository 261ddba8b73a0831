-- Trigger function on active_listings (migration 2026-12-20T1000_active_listing_grams): the
-- listings a statement put in add their grams to active_listing_grams, those it took out subtract
-- theirs, with their collection's current name.
CREATE OR REPLACE FUNCTION active_listing_grams_of_listings() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  names text[];
  collection_names text[];
  signs int[];
BEGIN
  PERFORM active_listing_grams_lock();
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(n.token_name), array_agg(c.collection_name), array_agg(1)
      INTO names, collection_names, signs
      FROM new_rows n LEFT JOIN collections c ON c.collection_id = n.collection_id;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(o.token_name), array_agg(c.collection_name), array_agg(-1)
      INTO names, collection_names, signs
      FROM old_rows o LEFT JOIN collections c ON c.collection_id = o.collection_id;
  ELSE
    SELECT array_agg(r.token_name), array_agg(c.collection_name), array_agg(r.sign)
      INTO names, collection_names, signs
      FROM (SELECT o.token_name, o.collection_id, -1 AS sign FROM old_rows o
            UNION ALL SELECT n.token_name, n.collection_id, 1 FROM new_rows n) r
      LEFT JOIN collections c ON c.collection_id = r.collection_id;
  END IF;
  PERFORM active_listing_grams_apply(names, collection_names, signs);
  RETURN NULL;
END $$;
