-- Trigger function on the tables collection pages read by collection_id: bumps each distinct
-- collection the statement touched, old rows and new (migration
-- 2026-12-01T1000_cache_collection_versions). One function for every table: plpgsql keeps a
-- compiled copy per trigger relation, so each table's transition tables have their own row type; a
-- branch is only planned when it runs.
CREATE OR REPLACE FUNCTION bump_collection_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM bump_collection_versions(TG_TABLE_NAME, ARRAY['*']);
    IF TG_TABLE_NAME = 'collections' THEN PERFORM bump_collection_versions('collections:name', ARRAY['*']); END IF;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO read_collection_versions (collection_id, source, backend, version)
    SELECT DISTINCT collection_id, TG_TABLE_NAME, pg_backend_pid(), 1 FROM new_rows WHERE collection_id IS NOT NULL
    ON CONFLICT (collection_id, source, backend) DO UPDATE SET version = read_collection_versions.version + 1;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO read_collection_versions (collection_id, source, backend, version)
    SELECT collection_id, TG_TABLE_NAME, pg_backend_pid(), 1
      FROM (SELECT collection_id FROM old_rows UNION SELECT collection_id FROM new_rows) AS touched
     WHERE collection_id IS NOT NULL
    ON CONFLICT (collection_id, source, backend) DO UPDATE SET version = read_collection_versions.version + 1;
  ELSE
    INSERT INTO read_collection_versions (collection_id, source, backend, version)
    SELECT DISTINCT collection_id, TG_TABLE_NAME, pg_backend_pid(), 1 FROM old_rows WHERE collection_id IS NOT NULL
    ON CONFLICT (collection_id, source, backend) DO UPDATE SET version = read_collection_versions.version + 1;
  END IF;
  RETURN NULL;
END $$;
