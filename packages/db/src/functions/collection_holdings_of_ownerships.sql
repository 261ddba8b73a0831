-- Trigger function on token_ownerships (migration 2026-12-17T1000_collection_holdings): recounts
-- the (collection, owner) pairs of the rows the statement added or removed with a positive amount,
-- or whose amount became or stopped being positive, or which moved to another collection. An
-- update that leaves each row's positive amount and collection as they were (a balance's version
-- moving) recounts nothing. Each branch names only the transition tables its event hands over.
CREATE OR REPLACE FUNCTION collection_holdings_of_ownerships() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
  holders text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(collection_id), array_agg(owner_address) INTO ids, holders
      FROM new_rows WHERE amount > 0;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(collection_id), array_agg(owner_address) INTO ids, holders
      FROM old_rows WHERE amount > 0;
  ELSE
    SELECT array_agg(x.collection_id), array_agg(x.owner_address) INTO ids, holders FROM (
      SELECT o.collection_id, o.owner_address, n.collection_id AS new_collection, n.owner_address AS new_owner
        FROM old_rows o FULL JOIN new_rows n
          ON n.token_data_id = o.token_data_id AND n.property_version = o.property_version
         AND n.owner_address = o.owner_address
       WHERE o.token_data_id IS NULL OR n.token_data_id IS NULL
          OR (o.amount > 0) IS DISTINCT FROM (n.amount > 0)
          OR o.collection_id IS DISTINCT FROM n.collection_id) c
      CROSS JOIN LATERAL (VALUES (c.collection_id, c.owner_address), (c.new_collection, c.new_owner))
        AS x(collection_id, owner_address);
  END IF;
  IF ids IS NOT NULL THEN PERFORM collection_holdings_recount(ids, holders); END IF;
  RETURN NULL;
END $$;
