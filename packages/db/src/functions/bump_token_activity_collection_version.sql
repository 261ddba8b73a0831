-- Trigger function on token_activities: bump_collection_version's per-collection counters, for an
-- activity without a collection too (migration 2026-12-08T1000_analytics_collection_versions). A v2
-- transfer or burn whose transaction wrote no Token resource is stored without its collection; it
-- counts for its token's stored collection, or for '*' (every collection) when the token is not
-- stored either. Collection pages read such rows by their token (a burned token's listing leaves a
-- window's opening floor), so skipping them, as the other tables' counters do, would miss a write.
-- The token is looked up only for those rows (COALESCE evaluates it lazily), not joined: a backfill
-- batch's transition table holds thousands of rows, and a join could read every token.
CREATE OR REPLACE FUNCTION bump_token_activity_collection_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM bump_collection_versions(TG_TABLE_NAME, ARRAY['*']);
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO read_collection_versions (collection_id, source, backend, version)
    SELECT DISTINCT COALESCE(a.collection_id,
                             (SELECT t.collection_id FROM tokens t WHERE t.token_data_id = a.token_data_id), '*'),
           TG_TABLE_NAME, pg_backend_pid(), 1
      FROM new_rows a
    ON CONFLICT (collection_id, source, backend) DO UPDATE SET version = read_collection_versions.version + 1;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO read_collection_versions (collection_id, source, backend, version)
    SELECT DISTINCT COALESCE(a.collection_id,
                             (SELECT t.collection_id FROM tokens t WHERE t.token_data_id = a.token_data_id), '*'),
           TG_TABLE_NAME, pg_backend_pid(), 1
      FROM (SELECT collection_id, token_data_id FROM old_rows
            UNION SELECT collection_id, token_data_id FROM new_rows) AS a
    ON CONFLICT (collection_id, source, backend) DO UPDATE SET version = read_collection_versions.version + 1;
  ELSE
    INSERT INTO read_collection_versions (collection_id, source, backend, version)
    SELECT DISTINCT COALESCE(a.collection_id,
                             (SELECT t.collection_id FROM tokens t WHERE t.token_data_id = a.token_data_id), '*'),
           TG_TABLE_NAME, pg_backend_pid(), 1
      FROM old_rows a
    ON CONFLICT (collection_id, source, backend) DO UPDATE SET version = read_collection_versions.version + 1;
  END IF;
  RETURN NULL;
END $$;
