-- Trigger function of the `collections_identity_version_*` statement triggers (migration
-- 2026-12-14T1100_collection_identity_versions): the write counter of the pseudo-table
-- 'collections:identity', globally (read_versions) and per collection (read_collection_versions),
-- which moves when a collection comes, goes, or changes anything but the four columns that move
-- with its tokens (current_supply, total_minted, owner_count, last_transaction_version). A moving
-- chain updates those in most blocks; a page that reads a collection's name, creator or URI alone
-- (a token's collection, shown beside it) keys on this counter and stands across such blocks.
-- test/read-tables.test.ts holds a route that names this counter instead of 'collections' to
-- statements that read none of the four. TRUNCATE bumps '*'.
CREATE OR REPLACE FUNCTION bump_collection_identity_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
  -- COLLECTION_COUNT_COLUMNS (packages/db queries/freshness.ts), which the API's test reads plans by.
  counting constant text[] := '{current_supply,total_minted,owner_count,last_transaction_version}';
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM read_version_bump('collections:identity');
    PERFORM bump_collection_versions('collections:identity', ARRAY['*']);
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT collection_id) INTO ids FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT collection_id) INTO ids FROM old_rows;
  ELSE
    -- Rows matched by id, old and new, compared without the counting columns; an id that changed
    -- has no match on one side and counts on both.
    SELECT array_agg(DISTINCT id) INTO ids FROM (
      SELECT coalesce(o.collection_id, n.collection_id) AS id
        FROM old_rows o FULL JOIN new_rows n ON n.collection_id = o.collection_id
       WHERE o.collection_id IS NULL OR n.collection_id IS NULL
          OR (to_jsonb(o) - counting) IS DISTINCT FROM (to_jsonb(n) - counting)) changed;
  END IF;
  IF ids IS NULL THEN RETURN NULL; END IF;
  PERFORM read_version_bump('collections:identity');
  PERFORM bump_collection_versions('collections:identity', ids);
  RETURN NULL;
END $$;
