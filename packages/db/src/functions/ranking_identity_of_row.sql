-- Trigger function, BEFORE INSERT OR UPDATE OF collection_id on ranking_snapshots, row-level
-- (migration 2026-12-13T1100_ranking_collection_identity): a ranked row carries what a ranking page
-- shows of its collection (name, creator, URI, lootbox), copied from `collections` as the row is
-- written, so the rankings read and key on ranking_snapshots alone. ranking_identity_on_collections
-- keeps the copies when a collection changes.
CREATE OR REPLACE FUNCTION ranking_identity_of_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT c.collection_name, c.creator_address, c.uri, c.lootbox_id
    INTO NEW.collection_name, NEW.creator_address, NEW.uri, NEW.collection_lootbox_id
    FROM collections c WHERE c.collection_id = NEW.collection_id;
  IF NOT FOUND THEN
    NEW.collection_name := NULL; NEW.creator_address := NULL; NEW.uri := NULL;
    NEW.collection_lootbox_id := NULL;
  END IF;
  RETURN NEW;
END $$;
