-- Trigger function on the tables collection pages read by collection_id: bumps each distinct
-- collection the statement touched, old rows and new (migration
-- 2026-12-01T1000_cache_collection_versions), through bump_collection_versions, which announces
-- them (migration 2026-12-10T1000_read_version_notify_scopes). One function for every table:
-- plpgsql keeps a compiled copy per trigger relation, so each table's transition tables have their
-- own row type; a branch is only planned when it runs.
CREATE OR REPLACE FUNCTION bump_collection_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM bump_collection_versions(TG_TABLE_NAME, ARRAY['*']);
    IF TG_TABLE_NAME = 'collections' THEN PERFORM bump_collection_versions('collections:name', ARRAY['*']); END IF;
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM bump_collection_versions(TG_TABLE_NAME,
      ARRAY(SELECT DISTINCT collection_id FROM new_rows WHERE collection_id IS NOT NULL));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM bump_collection_versions(TG_TABLE_NAME,
      ARRAY(SELECT collection_id FROM old_rows WHERE collection_id IS NOT NULL
            UNION SELECT collection_id FROM new_rows WHERE collection_id IS NOT NULL));
  ELSE
    PERFORM bump_collection_versions(TG_TABLE_NAME,
      ARRAY(SELECT DISTINCT collection_id FROM old_rows WHERE collection_id IS NOT NULL));
  END IF;
  RETURN NULL;
END $$;
