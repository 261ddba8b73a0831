-- Trigger function on the tables wallet pages read by a wallet column (migration
-- 2026-12-07T1000_wallet_versions): bumps the wallet bucket of every wallet the statement's rows
-- name, old rows and new, in read_collection_versions under the id 'wallet:<bucket>' (no
-- collection id has that form). A bucket is `hashtext(address) & 65535`: the counters stay 65,536
-- rows per table however many wallets the chain has, and a wallet's answers retire when a write
-- names any wallet of its bucket (rarely another). TRUNCATE bumps '*', which every scoped key
-- includes. The statement's `<table>_read_version` trigger announces the change at the commit.
-- One branch per table (its wallet columns); a branch is only planned when it runs.
CREATE OR REPLACE FUNCTION bump_wallet_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM bump_collection_versions(TG_TABLE_NAME, ARRAY['*']);
  ELSIF TG_TABLE_NAME = 'marketplace_activities' THEN
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
      INSERT INTO read_collection_versions (collection_id, source, backend, version)
      SELECT DISTINCT 'wallet:' || (hashtext(w) & 65535), TG_TABLE_NAME, pg_backend_pid(), 1
        FROM new_rows r CROSS JOIN LATERAL (VALUES (r.buyer), (r.seller)) AS v(w) WHERE w IS NOT NULL
      ON CONFLICT (collection_id, source, backend) DO UPDATE SET version = read_collection_versions.version + 1;
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
      INSERT INTO read_collection_versions (collection_id, source, backend, version)
      SELECT DISTINCT 'wallet:' || (hashtext(w) & 65535), TG_TABLE_NAME, pg_backend_pid(), 1
        FROM old_rows r CROSS JOIN LATERAL (VALUES (r.buyer), (r.seller)) AS v(w) WHERE w IS NOT NULL
      ON CONFLICT (collection_id, source, backend) DO UPDATE SET version = read_collection_versions.version + 1;
    END IF;
  ELSE
    -- token_offers, collection_offers: the bidder.
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
      INSERT INTO read_collection_versions (collection_id, source, backend, version)
      SELECT DISTINCT 'wallet:' || (hashtext(r.buyer) & 65535), TG_TABLE_NAME, pg_backend_pid(), 1
        FROM new_rows r WHERE r.buyer IS NOT NULL
      ON CONFLICT (collection_id, source, backend) DO UPDATE SET version = read_collection_versions.version + 1;
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
      INSERT INTO read_collection_versions (collection_id, source, backend, version)
      SELECT DISTINCT 'wallet:' || (hashtext(r.buyer) & 65535), TG_TABLE_NAME, pg_backend_pid(), 1
        FROM old_rows r WHERE r.buyer IS NOT NULL
      ON CONFLICT (collection_id, source, backend) DO UPDATE SET version = read_collection_versions.version + 1;
    END IF;
  END IF;
  RETURN NULL;
END $$;
