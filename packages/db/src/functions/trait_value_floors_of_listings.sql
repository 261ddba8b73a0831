-- Trigger function on listings (migration 2026-12-19T1000_trait_value_floors): recounts the
-- values of the tokens of the active listings the statement added or removed, and of the listings
-- that became or stopped being active or, active, changed price, coin, collection or token. A
-- sale's buyer filled in on a closed listing recounts nothing. Each branch names only the
-- transition tables its event hands over.
CREATE OR REPLACE FUNCTION trait_value_floors_of_listings() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(token_data_id) INTO touched FROM new_rows WHERE status = 'active';
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(token_data_id) INTO touched FROM old_rows WHERE status = 'active';
  ELSE
    SELECT array_agg(x.token_data_id) INTO touched FROM (
      SELECT o.token_data_id, n.token_data_id AS new_token
        FROM old_rows o FULL JOIN new_rows n ON n.marketplace = o.marketplace AND n.listing_id = o.listing_id
       WHERE o.listing_id IS NULL OR n.listing_id IS NULL
          OR (o.status = 'active') IS DISTINCT FROM (n.status = 'active')
          OR (n.status = 'active' AND (o.price IS DISTINCT FROM n.price
              OR o.coin_type IS DISTINCT FROM n.coin_type
              OR o.collection_id IS DISTINCT FROM n.collection_id
              OR o.token_data_id IS DISTINCT FROM n.token_data_id))) c
      CROSS JOIN LATERAL (VALUES (c.token_data_id), (c.new_token)) AS x(token_data_id);
  END IF;
  IF touched IS NOT NULL THEN PERFORM trait_value_floors_of_tokens_touched(touched); END IF;
  RETURN NULL;
END $$;
