-- Trigger function of the `collections_ranking_identity_*` statement triggers (insert, update,
-- delete with their transition tables; truncate), migration 2026-12-13T1100_ranking_collection_identity:
-- rewrites the ranked rows' copy of their collection's name, creator, URI and lootbox
-- (ranking_identity_of_row) where it differs from the collection now, in the writing transaction. A
-- write to collections that changed none of the four (an owner count, every block on a moving chain)
-- updates no ranked row, so ranking_snapshots' write counter stays and the cached rankings with it.
CREATE OR REPLACE FUNCTION ranking_identity_on_collections() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE ranking_snapshots rs
       SET collection_name = c.collection_name, creator_address = c.creator_address, uri = c.uri,
           collection_lootbox_id = c.lootbox_id
      FROM new_rows c
     WHERE rs.collection_id = c.collection_id
       AND (rs.collection_name, rs.creator_address, rs.uri, rs.collection_lootbox_id)
           IS DISTINCT FROM (c.collection_name, c.creator_address, c.uri, c.lootbox_id);
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    -- A collection gone (or whose id changed): its ranked rows show none, as a missing row did.
    UPDATE ranking_snapshots rs
       SET collection_name = NULL, creator_address = NULL, uri = NULL, collection_lootbox_id = NULL
      FROM old_rows o
     WHERE rs.collection_id = o.collection_id
       AND NOT EXISTS (SELECT 1 FROM collections c WHERE c.collection_id = o.collection_id)
       AND (rs.collection_name, rs.creator_address, rs.uri, rs.collection_lootbox_id)
           IS DISTINCT FROM (NULL, NULL, NULL, NULL);
  END IF;
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE ranking_snapshots
       SET collection_name = NULL, creator_address = NULL, uri = NULL, collection_lootbox_id = NULL
     WHERE (collection_name, creator_address, uri, collection_lootbox_id)
           IS DISTINCT FROM (NULL, NULL, NULL, NULL);
  END IF;
  RETURN NULL;
END $$;
