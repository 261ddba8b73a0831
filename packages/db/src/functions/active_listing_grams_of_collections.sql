-- Trigger function on collections (migration 2026-12-20T1000_active_listing_grams): a collection
-- whose name a statement changed (inserted, renamed, deleted) has its active listings counted again
-- in active_listing_grams: their grams under the old name out, under the new one in.
CREATE OR REPLACE FUNCTION active_listing_grams_of_collections() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  renamed text[];
  names text[];
  collection_names text[];
  signs int[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(n.collection_id) INTO renamed FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(o.collection_id) INTO renamed FROM old_rows o;
  ELSE
    SELECT array_agg(coalesce(o.collection_id, n.collection_id)) INTO renamed
      FROM old_rows o FULL JOIN new_rows n ON n.collection_id = o.collection_id
     WHERE o.collection_name IS DISTINCT FROM n.collection_name;
  END IF;
  IF renamed IS NULL THEN RETURN NULL; END IF;
  PERFORM active_listing_grams_lock();
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(l.token_name), array_agg(x.collection_name), array_agg(x.sign)
      INTO names, collection_names, signs
      FROM new_rows n
      JOIN active_listings l ON l.collection_id = n.collection_id
     CROSS JOIN LATERAL (VALUES (NULL::text, -1), (n.collection_name, 1)) AS x(collection_name, sign);
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(l.token_name), array_agg(x.collection_name), array_agg(x.sign)
      INTO names, collection_names, signs
      FROM old_rows o
      JOIN active_listings l ON l.collection_id = o.collection_id
     CROSS JOIN LATERAL (VALUES (o.collection_name, -1), (NULL::text, 1)) AS x(collection_name, sign);
  ELSE
    SELECT array_agg(l.token_name), array_agg(x.collection_name), array_agg(x.sign)
      INTO names, collection_names, signs
      FROM old_rows o
      JOIN new_rows n ON n.collection_id = o.collection_id
      JOIN active_listings l ON l.collection_id = o.collection_id
     CROSS JOIN LATERAL (VALUES (o.collection_name, -1), (n.collection_name, 1)) AS x(collection_name, sign)
     WHERE o.collection_name IS DISTINCT FROM n.collection_name;
  END IF;
  PERFORM active_listing_grams_apply(names, collection_names, signs);
  RETURN NULL;
END $$;
