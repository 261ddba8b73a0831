-- Trigger function on collections: bumps the (creator, name) pairs a statement touched, old and
-- new, as collection id `creator/name` of source 'collections:name'
-- (migration 2026-12-01T1000_cache_collection_versions).
CREATE OR REPLACE FUNCTION bump_collection_name_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM bump_collection_versions('collections:name',
      ARRAY(SELECT creator_address || '/' || collection_name FROM new_rows));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM bump_collection_versions('collections:name',
      ARRAY(SELECT creator_address || '/' || collection_name FROM old_rows
            UNION SELECT creator_address || '/' || collection_name FROM new_rows));
  ELSE
    PERFORM bump_collection_versions('collections:name',
      ARRAY(SELECT creator_address || '/' || collection_name FROM old_rows));
  END IF;
  RETURN NULL;
END $$;
