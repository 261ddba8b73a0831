-- Recounts every value's floors (migration 2026-12-19T1000_trait_value_floors): the migration's
-- fill, and after a TRUNCATE of a table the floors are counted from (trait_value_floors_on_truncate).
-- Every value of a token with an active listing, and every value kept now (so a value nobody lists
-- any more loses its rows), goes through trait_value_floors_recount: the floor is defined there
-- alone.
CREATE OR REPLACE FUNCTION trait_value_floors_rebuild() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
  types text[];
  vals text[];
BEGIN
  SELECT array_agg(p.collection_id), array_agg(p.trait_type), array_agg(p.value) INTO ids, types, vals FROM (
    SELECT a.collection_id, a.trait_type, a.value FROM token_attributes a
     WHERE EXISTS (SELECT 1 FROM listings l WHERE l.token_data_id = a.token_data_id AND l.status = 'active')
    UNION
    SELECT k.collection_id, k.trait_type, k.value FROM trait_value_floors k) p;
  IF ids IS NOT NULL THEN PERFORM trait_value_floors_recount(ids, types, vals); END IF;
END $$;
