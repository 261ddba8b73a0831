-- Trigger function on tokens (migration 2026-12-17T1000_collection_holdings): a token burned or
-- unburned, or a burned one added, removed or moved to another collection, recounts the pairs of
-- every wallet holding it (a positive ownership) or listing it (an active listing). The crawler's
-- and the indexer's other writes to tokens recount nothing. Each branch names only the transition
-- tables its event hands over.
CREATE OR REPLACE FUNCTION collection_holdings_of_tokens() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched text[];
  ids text[];
  holders text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(token_data_id) INTO touched FROM new_rows WHERE is_burned;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(token_data_id) INTO touched FROM old_rows WHERE is_burned;
  ELSE
    SELECT array_agg(coalesce(n.token_data_id, o.token_data_id)) INTO touched
      FROM old_rows o FULL JOIN new_rows n ON n.token_data_id = o.token_data_id
     WHERE o.token_data_id IS NULL OR n.token_data_id IS NULL
        OR o.is_burned IS DISTINCT FROM n.is_burned
        OR ((o.is_burned OR n.is_burned) AND o.collection_id IS DISTINCT FROM n.collection_id);
  END IF;
  IF touched IS NULL THEN RETURN NULL; END IF;
  SELECT array_agg(h.collection_id), array_agg(h.holder) INTO ids, holders FROM (
    SELECT o.collection_id, o.owner_address AS holder FROM token_ownerships o
     WHERE o.token_data_id = ANY(touched) AND o.amount > 0
    UNION
    SELECT l.collection_id, l.seller FROM listings l
     WHERE l.token_data_id = ANY(touched) AND l.status = 'active') h;
  IF ids IS NOT NULL THEN PERFORM collection_holdings_recount(ids, holders); END IF;
  RETURN NULL;
END $$;
