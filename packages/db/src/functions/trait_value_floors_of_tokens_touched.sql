-- Recounts the values of the tokens `touched` (migration 2026-12-19T1000_trait_value_floors): each
-- attribute row of theirs names one (collection, trait type, value). What the listings' and the
-- tokens' triggers recount once they know which tokens a statement touched.
CREATE OR REPLACE FUNCTION trait_value_floors_of_tokens_touched(touched text[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
  types text[];
  vals text[];
BEGIN
  SELECT array_agg(a.collection_id), array_agg(a.trait_type), array_agg(a.value) INTO ids, types, vals
    FROM token_attributes a WHERE a.token_data_id = ANY(touched);
  IF ids IS NOT NULL THEN PERFORM trait_value_floors_recount(ids, types, vals); END IF;
END $$;
