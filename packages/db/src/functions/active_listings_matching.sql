-- The active listings whose name contains or resembles a search text, or whose collection's name
-- does: listing-cards' and total-listing-cards' search but for a text of one or two letters or
-- digits, which only needs containing (queries/api/listings.ts; migration
-- 2026-12-12T1000_active_listings). `pattern` is the text as an ILIKE
-- pattern, its wildcards escaped.
--
-- A function for its one setting. active_listings is small and read all the time, so its pages are
-- in memory; at the default random_page_cost the planner prices the bitmap of the trigram and
-- collection indexes as random reads from disk and scans the table instead, testing trigram
-- similarity on every active listing (31 ms on the 1M devnet chain against 2.6 ms through the
-- indexes). Priced as the cached pages they are, the indexes win wherever they should. A SQL
-- function with a SET clause is never inlined, so the setting holds for its statement alone.
CREATE OR REPLACE FUNCTION active_listings_matching(search text, pattern text) RETURNS SETOF active_listings
LANGUAGE sql STABLE SET random_page_cost = 1.1 AS $$
  SELECT * FROM active_listings l
      -- The collections as an array (an InitPlan), not `IN (subquery)`: `collection_id = ANY(...)`
      -- is an index condition, so the three terms are one BitmapOr of the name (trigram) and
      -- collection indexes. Every row the bitmap finds is tested again in the order written, and the
      -- collection's membership first spares the trigram similarity of every listing of a matching
      -- collection (the statement alone, counting its rows on the 1M devnet chain: 8.4 -> 7.0 ms for
      -- a collection's name, 5.4 -> 3.8 for a word).
   WHERE l.collection_id = ANY(ARRAY(
           SELECT collection_id FROM collections WHERE collection_name ILIKE pattern OR collection_name % search))
      OR l.token_name ILIKE pattern OR l.token_name % search
$$;
