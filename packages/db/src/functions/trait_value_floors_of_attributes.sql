-- Trigger function on token_attributes (migration 2026-12-19T1000_trait_value_floors): recounts the
-- values of the attribute rows the statement added or removed, and both values of a row whose
-- value, trait type, collection or token changed, for tokens with an active listing: a value
-- given to or taken from a token nobody lists moves no floor (the metadata crawler writes most
-- attribute rows, mostly of unlisted tokens). Each branch names only the transition tables its
-- event hands over.
CREATE OR REPLACE FUNCTION trait_value_floors_of_attributes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
  types text[];
  vals text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(a.collection_id), array_agg(a.trait_type), array_agg(a.value) INTO ids, types, vals
      FROM new_rows a
     WHERE EXISTS (SELECT 1 FROM listings l WHERE l.token_data_id = a.token_data_id AND l.status = 'active');
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(a.collection_id), array_agg(a.trait_type), array_agg(a.value) INTO ids, types, vals
      FROM old_rows a
     WHERE EXISTS (SELECT 1 FROM listings l WHERE l.token_data_id = a.token_data_id AND l.status = 'active');
  ELSE
    SELECT array_agg(x.collection_id), array_agg(x.trait_type), array_agg(x.value) INTO ids, types, vals
      FROM (
        SELECT o.token_data_id AS old_token, o.collection_id AS old_collection, o.trait_type AS old_type,
               o.value AS old_value, n.token_data_id AS new_token, n.collection_id AS new_collection,
               n.trait_type AS new_type, n.value AS new_value
          FROM old_rows o FULL JOIN new_rows n ON n.token_data_id = o.token_data_id AND n.trait_type = o.trait_type
         WHERE o.token_data_id IS NULL OR n.token_data_id IS NULL
            OR o.value IS DISTINCT FROM n.value OR o.collection_id IS DISTINCT FROM n.collection_id) c
      CROSS JOIN LATERAL (VALUES (c.old_token, c.old_collection, c.old_type, c.old_value),
                                 (c.new_token, c.new_collection, c.new_type, c.new_value))
        AS x(token_data_id, collection_id, trait_type, value)
     WHERE EXISTS (SELECT 1 FROM listings l WHERE l.token_data_id = x.token_data_id AND l.status = 'active');
  END IF;
  IF ids IS NOT NULL THEN PERFORM trait_value_floors_recount(ids, types, vals); END IF;
  RETURN NULL;
END $$;
