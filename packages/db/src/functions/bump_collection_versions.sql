-- Bumps read_collection_versions for the given collections of a table, for this backend. For bulk
-- rewrites the triggers do not see (rarity rebuild), and for TRUNCATE ('*')
-- (migration 2026-12-01T1000_cache_collection_versions). Notifies mdq_read_versions as
-- bump_read_version does: every counter that moves is announced at the commit
-- (migration 2026-12-02T1000_read_version_notify), naming the table (or pseudo-table, as
-- 'collections:name') whose counters moved (migration 2026-12-09T1000_read_version_notify_tables).
CREATE OR REPLACE FUNCTION bump_collection_versions(table_name text, ids text[]) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO read_collection_versions (collection_id, source, backend, version)
  SELECT DISTINCT id, table_name, pg_backend_pid(), 1 FROM unnest(ids) AS id WHERE id IS NOT NULL
  ON CONFLICT (collection_id, source, backend) DO UPDATE SET version = read_collection_versions.version + 1;
  SELECT pg_notify('mdq_read_versions', table_name);
$$;
