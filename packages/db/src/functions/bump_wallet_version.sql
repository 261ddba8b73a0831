-- Trigger function on the tables wallet pages read by a wallet column (migration
-- 2026-12-07T1000_wallet_versions; listings by seller and ownerships by owner since
-- 2026-12-15T1000_wallet_holdings_versions): bumps the wallet bucket of every wallet the
-- statement's rows name, old rows and new, in read_collection_versions under the id 'wallet:<bucket>' (no
-- collection id has that form). A bucket is `hashtext(address) & 65535`: the counters stay 65,536
-- rows per table however many wallets the chain has, and a wallet's answers retire when a write
-- names any wallet of its bucket (rarely another). TRUNCATE bumps '*', which every scoped key
-- includes. bump_collection_versions announces each bucket that moved (migration 2026-12-10T1000).
-- The statement's wallets are gathered per table (its wallet columns: a branch is only planned when
-- it runs) and per operation (the transition tables it has), then bumped in one statement
-- (bump_wallet_buckets: '*' for a statement of more than 64 buckets, since 2026-12-15T1000).
CREATE OR REPLACE FUNCTION bump_wallet_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  wallets text[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM bump_collection_versions(TG_TABLE_NAME, ARRAY['*']);
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'marketplace_activities' THEN
    -- A sale names both sides.
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg(w) INTO wallets FROM new_rows r CROSS JOIN LATERAL (VALUES (r.buyer), (r.seller)) v(w);
    ELSIF TG_OP = 'DELETE' THEN
      SELECT array_agg(w) INTO wallets FROM old_rows r CROSS JOIN LATERAL (VALUES (r.buyer), (r.seller)) v(w);
    ELSE
      SELECT array_agg(w) INTO wallets
        FROM (SELECT buyer, seller FROM old_rows UNION ALL SELECT buyer, seller FROM new_rows) r
        CROSS JOIN LATERAL (VALUES (r.buyer), (r.seller)) v(w);
    END IF;
  ELSIF TG_TABLE_NAME = 'listings' THEN
    -- A listing names its seller (migration 2026-12-15T1000_wallet_holdings_versions).
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg(seller) INTO wallets FROM new_rows;
    ELSIF TG_OP = 'DELETE' THEN
      SELECT array_agg(seller) INTO wallets FROM old_rows;
    ELSE
      SELECT array_agg(seller) INTO wallets FROM (SELECT seller FROM old_rows UNION ALL SELECT seller FROM new_rows) r;
    END IF;
  ELSIF TG_TABLE_NAME = 'token_ownerships' THEN
    -- An ownership names its owner (migration 2026-12-15T1000_wallet_holdings_versions).
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg(owner_address) INTO wallets FROM new_rows;
    ELSIF TG_OP = 'DELETE' THEN
      SELECT array_agg(owner_address) INTO wallets FROM old_rows;
    ELSE
      SELECT array_agg(owner_address) INTO wallets
        FROM (SELECT owner_address FROM old_rows UNION ALL SELECT owner_address FROM new_rows) r;
    END IF;
  ELSE
    -- token_offers, collection_offers: the bidder.
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg(buyer) INTO wallets FROM new_rows;
    ELSIF TG_OP = 'DELETE' THEN
      SELECT array_agg(buyer) INTO wallets FROM old_rows;
    ELSE
      SELECT array_agg(buyer) INTO wallets FROM (SELECT buyer FROM old_rows UNION ALL SELECT buyer FROM new_rows) r;
    END IF;
  END IF;
  PERFORM bump_wallet_buckets(TG_TABLE_NAME, wallets);
  RETURN NULL;
END $$;
