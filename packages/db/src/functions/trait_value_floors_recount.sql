-- Recounts trait_value_floors for (collection, trait type, value) triples (migration
-- 2026-12-19T1000_trait_value_floors): per coin type, the lowest price among the active listings of
-- the collection's unburned tokens with that value, the way collection-trait-floors computed it per
-- request (the listing's, the attribute's and the token's collection all the collection). A triple
-- with no such listing has no row. Rows whose floor did not change are not written (the
-- collection's write counter stays), and the rows are written in key order (concurrent writers lock
-- them in the same order). Set-based: the rebuild hands it every triple at once. A recount rather
-- than a delta: a minimum does not come back from a listing that closes (a listing that opens only
-- lowers it: trait_value_floors_of_listings). Exact under concurrent writers (trait_value_floors_lock).
CREATE OR REPLACE FUNCTION trait_value_floors_recount(ids text[], types text[], vals text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  -- After the lock: the counting statement's snapshot sees every earlier recount's commit (a
  -- listing and an attribute recounting one value at once would each miss the other's rows).
  PERFORM trait_value_floors_lock(ids);
  WITH triples AS MATERIALIZED (
    SELECT DISTINCT p.collection_id, p.trait_type, p.value
      FROM unnest(ids, types, vals) AS p(collection_id, trait_type, value)
     WHERE p.collection_id IS NOT NULL AND p.trait_type IS NOT NULL AND p.value IS NOT NULL),
  -- Each value is counted from the smaller side: its tokens (their attribute rows, from the
  -- collection's trait index) each meeting its active listings, or the collection's active
  -- listings each meeting its token's attribute rows. From the values' side a common value of the
  -- 1M chain's largest collection joined thousands of tokens to their listings (200 ms to recount
  -- one listed token's values); from the listings' side a recount of it reads its 536 listings'
  -- tokens and attribute rows (9-12 ms), and a rare value, whose floor listing closing is what most
  -- often asks for a recount, costs its few tokens. The sizes are the kept live count of the value
  -- and the collection's active listings. The probes are lateral subqueries (OFFSET, LIMIT), which the planner keeps as probes:
  -- left to its estimates (it has none for the triples) it read the collection's every token.
  sized AS MATERIALIZED (
    SELECT p.collection_id, p.trait_type, p.value,
           coalesce((SELECT c.live_count FROM trait_value_counts c
                      WHERE c.collection_id = p.collection_id AND c.trait_type = p.trait_type
                        AND c.value = p.value), 0) > k.listed AS wide
      FROM triples p
      JOIN (SELECT c.collection_id, (SELECT count(*) FROM listings l
                                      WHERE l.collection_id = c.collection_id AND l.status = 'active') AS listed
              FROM (SELECT DISTINCT collection_id FROM triples) c) k ON k.collection_id = p.collection_id),
  listed AS MATERIALIZED (
    SELECT l.collection_id, l.token_data_id, l.coin_type, l.price
      FROM (SELECT DISTINCT collection_id FROM sized WHERE wide) c
      CROSS JOIN LATERAL (
        SELECT l.collection_id, l.token_data_id, l.coin_type, l.price FROM listings l
         WHERE l.collection_id = c.collection_id AND l.status = 'active' OFFSET 0) l
      CROSS JOIN LATERAL (
        SELECT t.is_burned, t.collection_id FROM tokens t WHERE t.token_data_id = l.token_data_id LIMIT 1) t
     WHERE NOT t.is_burned AND t.collection_id = l.collection_id),
  -- Each listed token's attribute rows, read once per listing before they meet the triples: joined
  -- to the triples first (the planner guessed 2 listings for the 1M chain's largest collection's
  -- 653), every listing's attributes were read once per triple of its collection (5,224 probes for
  -- a token's 8 values, 113 ms of a 126 ms recount).
  listed_values AS MATERIALIZED (
    SELECT l.collection_id, a.trait_type, a.value, l.coin_type, l.price
      FROM listed l
      CROSS JOIN LATERAL (
        SELECT a.trait_type, a.value, a.collection_id FROM token_attributes a
         WHERE a.token_data_id = l.token_data_id OFFSET 0) a
     WHERE a.collection_id = l.collection_id),
  priced AS (
    SELECT p.collection_id, p.trait_type, p.value, v.coin_type, v.price
      FROM listed_values v
      JOIN sized p ON p.collection_id = v.collection_id AND p.trait_type = v.trait_type AND p.value = v.value
     WHERE p.wide
    UNION ALL
    SELECT p.collection_id, p.trait_type, p.value, l.coin_type, l.price
      FROM sized p
      CROSS JOIN LATERAL (
        SELECT a.token_data_id FROM token_attributes a
         WHERE a.collection_id = p.collection_id AND a.trait_type = p.trait_type AND a.value = p.value
        OFFSET 0) a
      CROSS JOIN LATERAL (
        SELECT l.coin_type, l.price FROM listings l
         WHERE l.token_data_id = a.token_data_id AND l.status = 'active' AND l.collection_id = p.collection_id
        OFFSET 0) l
      CROSS JOIN LATERAL (
        SELECT t.is_burned, t.collection_id FROM tokens t WHERE t.token_data_id = a.token_data_id LIMIT 1) t
     WHERE NOT p.wide AND NOT t.is_burned AND t.collection_id = p.collection_id),
  counted AS MATERIALIZED (
    SELECT collection_id, trait_type, value, coin_type, min(price) AS floor FROM priced GROUP BY 1, 2, 3, 4),
  gone AS (
    DELETE FROM trait_value_floors k USING triples p
     WHERE k.collection_id = p.collection_id AND k.trait_type = p.trait_type AND k.value = p.value
       AND NOT EXISTS (SELECT 1 FROM counted c
                        WHERE c.collection_id = k.collection_id AND c.trait_type = k.trait_type
                          AND c.value = k.value AND c.coin_type IS NOT DISTINCT FROM k.coin_type))
  INSERT INTO trait_value_floors AS k (collection_id, trait_type, value, coin_type, floor)
  SELECT collection_id, trait_type, value, coin_type, floor FROM counted ORDER BY 1, 2, 3, 4
  ON CONFLICT (collection_id, trait_type, value, coin_type)
  DO UPDATE SET floor = excluded.floor WHERE k.floor <> excluded.floor;
END $$;
