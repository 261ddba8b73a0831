-- Bumps, under `table_name`, the wallet bucket of each of `wallets` in read_collection_versions
-- (id 'wallet:<hashtext(address) & 65535>'): what bump_wallet_version and bump_wallet_tokens_version
-- count a statement's wallets with (migration 2026-12-15T1000_wallet_holdings_versions). A statement
-- naming more than 64 buckets (a backfill batch) bumps '*' instead, which every wallet's key includes:
-- one row rather than a row per bucket (thousands a batch, 8% of the indexer's backfill rate), and
-- bump_collection_versions announces more than 64 as every scope anyway.
CREATE OR REPLACE FUNCTION bump_wallet_buckets(table_name text, wallets text[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  buckets text[];
BEGIN
  buckets := ARRAY(SELECT DISTINCT 'wallet:' || (hashtext(w) & 65535) FROM unnest(wallets) AS w WHERE w IS NOT NULL);
  PERFORM bump_collection_versions(table_name, CASE WHEN cardinality(buckets) > 64 THEN ARRAY['*'] ELSE buckets END);
END $$;
