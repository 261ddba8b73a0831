-- Trigger function on indexer_checkpoints, for each row written (migration
-- 2026-12-21T1000_checkpoint_notify): notifies mdq_read_versions with '~checkpoint <version> <block
-- time, epoch ms>' at the commit, before the table's own notification ('indexer_checkpoints', from
-- the statement's read-version trigger, which runs after the row triggers). An API listening takes
-- the freshness headers of a block from it instead of reading the checkpoint (packages/db
-- read-versions.ts). The '~' sets it apart from a table's name.
CREATE OR REPLACE FUNCTION notify_indexed_checkpoint() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('mdq_read_versions',
    '~checkpoint ' || NEW.last_version || ' '
      || coalesce(floor(extract(epoch FROM NEW.last_timestamp) * 1000)::bigint::text, ''));
  RETURN NULL;
END $$;
