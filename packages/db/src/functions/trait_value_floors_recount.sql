-- Recounts trait_value_floors for (collection, trait type, value) triples (migration
-- 2026-12-19T1000_trait_value_floors): per coin type, the lowest price among the active listings of
-- the collection's unburned tokens with that value, the way collection-trait-floors computed it per
-- request (the listing's, the attribute's and the token's collection all the collection). A triple
-- with no such listing has no row. Rows whose floor did not change are not written (the
-- collection's write counter stays), and the rows are written in key order (concurrent writers lock
-- them in the same order). Set-based: the rebuild hands it every triple at once. A recount rather
-- than a delta: a minimum does not come back from a listing that closes. Exact under concurrent
-- writers: see the lock below.
CREATE OR REPLACE FUNCTION trait_value_floors_recount(ids text[], types text[], vals text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  -- The recounts of one collection take turns, each until its transaction commits: two writers
  -- (the indexer's listings, the crawler's attributes) recounting one value at once would each miss
  -- the other's uncommitted rows, and the later upsert would keep a floor that misses one of them.
  -- The counting statement below takes its snapshot after the lock, so it sees every recount's
  -- commit before it. Locked in collection order within a statement; a transaction that recounts
  -- two collections in two statements takes them in statement order, so two writers doing that in
  -- opposite orders can deadlock: Postgres aborts one, and both writers retry their batch.
  PERFORM pg_advisory_xact_lock(hashtext('mdq:trait_value_floors:' || c.id))
     FROM (SELECT DISTINCT id FROM unnest(ids) AS id WHERE id IS NOT NULL ORDER BY 1) c;
  WITH triples AS MATERIALIZED (
    SELECT DISTINCT p.collection_id, p.trait_type, p.value
      FROM unnest(ids, types, vals) AS p(collection_id, trait_type, value)
     WHERE p.collection_id IS NOT NULL AND p.trait_type IS NOT NULL AND p.value IS NOT NULL),
  -- Driven by the collections' active listings (a few hundred each, from their partial index), each
  -- meeting its token and its token's attribute row of each triple's trait type by their keys. From
  -- the values' side, a common value of the 1M chain's largest collection joined thousands of tokens
  -- to their listings: 200 ms to recount one listed token's values, 18-21 ms this way (536 active
  -- listings, 191k attribute rows). The probes are lateral subqueries with LIMIT, which the planner
  -- keeps as probes: left to its estimates (it has none for the triples) it read the collection's
  -- every token (30 ms).
  listed AS MATERIALIZED (
    SELECT l.collection_id, l.token_data_id, l.coin_type, l.price
      FROM (SELECT DISTINCT collection_id FROM triples) c
      CROSS JOIN LATERAL (
        SELECT l.collection_id, l.token_data_id, l.coin_type, l.price FROM listings l
         WHERE l.collection_id = c.collection_id AND l.status = 'active' OFFSET 0) l
      CROSS JOIN LATERAL (
        SELECT t.is_burned, t.collection_id FROM tokens t WHERE t.token_data_id = l.token_data_id LIMIT 1) t
     WHERE NOT t.is_burned AND t.collection_id = l.collection_id),
  counted AS MATERIALIZED (
    SELECT p.collection_id, p.trait_type, p.value, l.coin_type, min(l.price) AS floor
      FROM triples p
      JOIN listed l ON l.collection_id = p.collection_id
      CROSS JOIN LATERAL (
        SELECT 1 FROM token_attributes a
         WHERE a.token_data_id = l.token_data_id AND a.trait_type = p.trait_type AND a.value = p.value
           AND a.collection_id = p.collection_id LIMIT 1) a
     GROUP BY 1, 2, 3, 4),
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
