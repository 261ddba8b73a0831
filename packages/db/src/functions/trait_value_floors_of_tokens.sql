-- Trigger function on tokens (migration 2026-12-19T1000_trait_value_floors): a token burned or
-- unburned, moved to another collection, or added or removed, recounts its values when it has an
-- active listing (an unlisted token is in no floor). The crawler's and the indexer's other writes
-- to tokens recount nothing. Each branch names only the transition tables its event hands over.
CREATE OR REPLACE FUNCTION trait_value_floors_of_tokens() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched text[];
  ids text[];
  types text[];
  vals text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(token_data_id) INTO touched FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(token_data_id) INTO touched FROM old_rows;
  ELSE
    SELECT array_agg(coalesce(n.token_data_id, o.token_data_id)) INTO touched
      FROM old_rows o FULL JOIN new_rows n ON n.token_data_id = o.token_data_id
     WHERE o.token_data_id IS NULL OR n.token_data_id IS NULL
        OR o.is_burned IS DISTINCT FROM n.is_burned OR o.collection_id IS DISTINCT FROM n.collection_id;
  END IF;
  -- Each attribute row of a listed touched token names one (collection, trait type, value).
  SELECT array_agg(a.collection_id), array_agg(a.trait_type), array_agg(a.value) INTO ids, types, vals
    FROM token_attributes a
   WHERE a.token_data_id IN (
           SELECT t FROM unnest(touched) AS t
            WHERE EXISTS (SELECT 1 FROM listings l WHERE l.token_data_id = t AND l.status = 'active'));
  IF ids IS NOT NULL THEN PERFORM trait_value_floors_recount(ids, types, vals); END IF;
  RETURN NULL;
END $$;
