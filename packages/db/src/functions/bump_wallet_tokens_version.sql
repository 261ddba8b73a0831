-- Trigger function on `tokens` (migration 2026-12-15T1000_wallet_holdings_versions): a wallet's
-- pages (token-balances, user-listings) read the rows of the wallet's tokens, by the token ids of
-- its ownership rows and its listings. A write to a token bumps, under 'tokens', the bucket of every
-- wallet that has an ownership row of it (of any amount: a page may show a zero row) or a listing of
-- it (of any status), as bump_wallet_version counts a wallet's own rows. A wallet that gains or
-- loses such a row in the same transaction is bumped by that row's own write, whichever statement
-- runs first. TRUNCATE bumps '*', which every scoped key includes.
CREATE OR REPLACE FUNCTION bump_wallet_tokens_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM bump_collection_versions(TG_TABLE_NAME, ARRAY['*']);
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT token_data_id) INTO ids FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT token_data_id) INTO ids FROM old_rows;
  ELSE
    -- Each token once: an update names it in both transition tables.
    SELECT array_agg(DISTINCT token_data_id) INTO ids
      FROM (SELECT token_data_id FROM old_rows UNION ALL SELECT token_data_id FROM new_rows) r;
  END IF;
  IF ids IS NULL THEN RETURN NULL; END IF;
  -- A bulk write (a backfill batch of mints) moves '*' without looking its wallets up, as
  -- bump_wallet_buckets does past 64 buckets: a page of each of them would retire anyway.
  IF cardinality(ids) > 64 THEN
    PERFORM bump_collection_versions(TG_TABLE_NAME, ARRAY['*']);
    RETURN NULL;
  END IF;
  -- By the ownerships' primary key and listings_token, both led by the token id.
  PERFORM bump_wallet_buckets(TG_TABLE_NAME, ARRAY(
    SELECT o.owner_address FROM token_ownerships o WHERE o.token_data_id = ANY (ids)
    UNION ALL
    SELECT l.seller FROM listings l WHERE l.token_data_id = ANY (ids)));
  RETURN NULL;
END $$;
