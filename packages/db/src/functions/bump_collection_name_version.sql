-- Trigger function on collections: bumps the (creator, name) pairs a statement touched, old and
-- new, as collection id `creator/name` of source 'collections:name'
-- (migration 2026-12-01T1000_cache_collection_versions; an update only where a row's pair changed
-- since 2026-12-14T1100_collection_identity_versions).
CREATE OR REPLACE FUNCTION bump_collection_name_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM bump_collection_versions('collections:name',
      ARRAY(SELECT creator_address || '/' || collection_name FROM new_rows));
  ELSIF TG_OP = 'UPDATE' THEN
    -- Only rows whose pair (or id) changed move a pair's collections: an update of a collection's
    -- counts, in most blocks, leaves every pair resolved as it was.
    PERFORM bump_collection_versions('collections:name',
      ARRAY(SELECT p FROM old_rows o FULL JOIN new_rows n ON n.collection_id = o.collection_id
              CROSS JOIN LATERAL (VALUES (o.creator_address || '/' || o.collection_name),
                                         (n.creator_address || '/' || n.collection_name)) v(p)
             WHERE p IS NOT NULL
               AND (o.collection_id IS NULL OR n.collection_id IS NULL
                    OR (o.creator_address, o.collection_name) IS DISTINCT FROM (n.creator_address, n.collection_name))));
  ELSE
    PERFORM bump_collection_versions('collections:name',
      ARRAY(SELECT creator_address || '/' || collection_name FROM old_rows));
  END IF;
  RETURN NULL;
END $$;
