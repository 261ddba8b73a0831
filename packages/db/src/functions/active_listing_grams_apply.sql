-- Adds each listing's short grams to active_listing_grams with its sign (+1 put in, -1 taken out),
-- a listing's grams being those of its token name and of its collection's name as `collections`
-- holds it now (text_short_grams; migration 2026-12-20T1000_active_listing_grams): the listings
-- whose name or collection's name contains each one- or two-character search text, as
-- total-listing-cards counts them. Grams whose count reaches 0 go. No listings (NULL): nothing.
CREATE OR REPLACE FUNCTION active_listing_grams_apply(token_names text[], collection_names text[], signs int[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF token_names IS NULL THEN RETURN; END IF;
  INSERT INTO active_listing_grams AS k (gram, listings)
  SELECT g.gram, sum(r.sign)::int
    FROM unnest(token_names, collection_names, signs) AS r(token_name, collection_name, sign)
   CROSS JOIN LATERAL (
     SELECT text_short_grams(r.token_name) UNION SELECT text_short_grams(r.collection_name)) AS g(gram)
   GROUP BY g.gram HAVING sum(r.sign) <> 0
   ORDER BY g.gram
  ON CONFLICT (gram) DO UPDATE SET listings = k.listings + excluded.listings;
  DELETE FROM active_listing_grams WHERE listings = 0;
END $$;
