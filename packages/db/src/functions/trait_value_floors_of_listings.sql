-- Trigger function on listings (migration 2026-12-19T1000_trait_value_floors). The listings a
-- statement took out of the floors (active before, and now closed, removed, or moved to another
-- price, coin, collection or token) and those it put in (active now, and new or moved) are told
-- apart: a floor only comes down to a listing put in (the lowest of its token's values, in its coin,
-- lowered to its price: no recount), and can go up only when a listing taken out was at it, so only
-- the values where a taken-out listing's price is not above the kept floor are recounted. A sale's
-- buyer filled in on a closed listing touches nothing. Each branch names only the transition tables
-- its event hands over. Under the collections' lock (trait_value_floors_lock), taken before either
-- reads the floors.
CREATE OR REPLACE FUNCTION trait_value_floors_of_listings() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  out_ids text[];
  out_tokens text[];
  out_coins text[];
  out_prices numeric[];
  in_ids text[];
  in_tokens text[];
  in_coins text[];
  in_prices numeric[];
  ids text[];
  types text[];
  vals text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(collection_id), array_agg(token_data_id), array_agg(coin_type), array_agg(price)
      INTO in_ids, in_tokens, in_coins, in_prices FROM new_rows WHERE status = 'active';
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(collection_id), array_agg(token_data_id), array_agg(coin_type), array_agg(price)
      INTO out_ids, out_tokens, out_coins, out_prices FROM old_rows WHERE status = 'active';
  ELSE
    -- Each listing the statement changed in a way a floor sees: it is taken out if it was active,
    -- put in if it is active now.
    SELECT array_agg(o.collection_id) FILTER (WHERE o.status = 'active'),
           array_agg(o.token_data_id) FILTER (WHERE o.status = 'active'),
           array_agg(o.coin_type) FILTER (WHERE o.status = 'active'),
           array_agg(o.price) FILTER (WHERE o.status = 'active'),
           array_agg(n.collection_id) FILTER (WHERE n.status = 'active'),
           array_agg(n.token_data_id) FILTER (WHERE n.status = 'active'),
           array_agg(n.coin_type) FILTER (WHERE n.status = 'active'),
           array_agg(n.price) FILTER (WHERE n.status = 'active')
      INTO out_ids, out_tokens, out_coins, out_prices, in_ids, in_tokens, in_coins, in_prices
      FROM old_rows o FULL JOIN new_rows n ON n.marketplace = o.marketplace AND n.listing_id = o.listing_id
     WHERE o.listing_id IS NULL OR n.listing_id IS NULL
        OR (o.status = 'active') IS DISTINCT FROM (n.status = 'active')
        OR o.price IS DISTINCT FROM n.price OR o.coin_type IS DISTINCT FROM n.coin_type
        OR o.collection_id IS DISTINCT FROM n.collection_id OR o.token_data_id IS DISTINCT FROM n.token_data_id;
  END IF;
  IF out_ids IS NULL AND in_ids IS NULL THEN RETURN NULL; END IF;
  PERFORM trait_value_floors_lock(coalesce(out_ids, '{}') || coalesce(in_ids, '{}'));
  -- The values a listing taken out may have been the floor of (a kept floor not below its price).
  SELECT array_agg(x.collection_id), array_agg(x.trait_type), array_agg(x.value) INTO ids, types, vals FROM (
    SELECT DISTINCT a.collection_id, a.trait_type, a.value
      FROM unnest(out_ids, out_tokens, out_coins, out_prices) AS l(collection_id, token_data_id, coin_type, price)
      JOIN token_attributes a ON a.token_data_id = l.token_data_id AND a.collection_id = l.collection_id
     WHERE EXISTS (SELECT 1 FROM trait_value_floors k
                    WHERE k.collection_id = a.collection_id AND k.trait_type = a.trait_type AND k.value = a.value
                      AND k.coin_type IS NOT DISTINCT FROM l.coin_type AND k.floor >= l.price)) x;
  IF ids IS NOT NULL THEN PERFORM trait_value_floors_recount(ids, types, vals); END IF;
  -- The values of a listing put in come down to its price (a value just recounted already has it).
  INSERT INTO trait_value_floors AS k (collection_id, trait_type, value, coin_type, floor)
  SELECT a.collection_id, a.trait_type, a.value, l.coin_type, min(l.price)
    FROM unnest(in_ids, in_tokens, in_coins, in_prices) AS l(collection_id, token_data_id, coin_type, price)
    JOIN tokens t ON t.token_data_id = l.token_data_id AND t.collection_id = l.collection_id AND NOT t.is_burned
    JOIN token_attributes a ON a.token_data_id = l.token_data_id AND a.collection_id = l.collection_id
   GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (collection_id, trait_type, value, coin_type)
  DO UPDATE SET floor = excluded.floor WHERE excluded.floor < k.floor;
  RETURN NULL;
END $$;
