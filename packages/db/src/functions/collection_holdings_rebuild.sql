-- Recounts every pair of collection_holdings (migration 2026-12-17T1000_collection_holdings; this
-- body from 2026-12-18T1000_collection_holdings_one_count): the migration's fill, and after a
-- TRUNCATE of a table the holdings are counted from (collection_holdings_on_truncate). Every pair
-- that could hold anything (a positive ownership, an active listing's seller) and every pair kept
-- now (so a pair that holds nothing any more loses its row) goes through
-- collection_holdings_recount: the holding is defined there alone.
CREATE OR REPLACE FUNCTION collection_holdings_rebuild() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
  holders text[];
BEGIN
  SELECT array_agg(p.collection_id), array_agg(p.holder) INTO ids, holders FROM (
    SELECT o.collection_id, o.owner_address FROM token_ownerships o WHERE o.amount > 0
    UNION
    SELECT l.collection_id, l.seller FROM listings l WHERE l.status = 'active'
    UNION
    SELECT k.collection_id, k.holder FROM collection_holdings k) p(collection_id, holder);
  PERFORM collection_holdings_recount(ids, holders);
END $$;
