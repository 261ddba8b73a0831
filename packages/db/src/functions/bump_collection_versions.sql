-- Bumps read_collection_versions for the given collections of a table, for this backend: every
-- per-collection (and per-wallet-bucket) counter moves through here, the triggers' and the bulk
-- rewrites' the triggers do not see (rarity rebuild), and TRUNCATE's ('*')
-- (migration 2026-12-01T1000_cache_collection_versions). Notifies mdq_read_versions as
-- bump_read_version does: every counter that moves is announced at the commit
-- (migration 2026-12-02T1000_read_version_notify), naming the table (or pseudo-table, as
-- 'collections:name') whose counters moved (migration 2026-12-09T1000_read_version_notify_tables),
-- and then each id whose counter moved as '<table>@<id>' (migration
-- 2026-12-10T1000_read_version_notify_scopes): an API that keyed a collection's or a wallet's answer
-- on that scope's counters keeps it across a commit that moved other scopes' counters only. More
-- than 64 ids (a backfill batch) are announced as '<table>@*', every scope of the table, as '*'
-- itself is: Postgres keeps a transaction's notifications until its commit, and a listener reads
-- each one.
CREATE OR REPLACE FUNCTION bump_collection_versions(table_name text, ids text[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  bumped text[];
  scope text;
BEGIN
  WITH moved AS (
    INSERT INTO read_collection_versions (collection_id, source, backend, version)
    SELECT DISTINCT id, table_name, pg_backend_pid(), 1 FROM unnest(ids) AS id WHERE id IS NOT NULL
    ON CONFLICT (collection_id, source, backend) DO UPDATE SET version = read_collection_versions.version + 1
    RETURNING collection_id)
  SELECT array_agg(collection_id) INTO bumped FROM moved;
  PERFORM pg_notify('mdq_read_versions', table_name);
  IF cardinality(bumped) > 64 THEN
    PERFORM pg_notify('mdq_read_versions', table_name || '@*');
  ELSIF bumped IS NOT NULL THEN
    FOREACH scope IN ARRAY bumped LOOP
      PERFORM pg_notify('mdq_read_versions', table_name || '@' || scope);
    END LOOP;
  END IF;
END $$;
