-- Trigger function on the tables a lootbox's pages read by that lootbox (migration
-- 2026-12-14T1000_lootbox_versions): bumps, for every lootbox the statement's rows name (old rows
-- and new), the counters of its two scopes in read_collection_versions: 'lootbox:<id>', which a
-- page asked by `lootboxId` keys on, and 'lootbox:<creator>/<collection name>', which a page asked
-- by that pair keys on (whichever of the pair's lootboxes it shows: a new one taking the pair moves
-- it too). No collection id, pair or wallet bucket has either form. A tier, purchase or day row
-- names its lootbox by id; the pair is its lootbox row's, and a row whose lootbox is not stored
-- (yet) bumps '*', which every scoped key includes. TRUNCATE bumps '*'. bump_collection_versions
-- announces each scope that moved, as it does a collection's.
CREATE OR REPLACE FUNCTION bump_lootbox_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids bigint[];
  scopes text[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM bump_collection_versions(TG_TABLE_NAME, ARRAY['*']);
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'lootboxes' THEN
    -- Its rows carry their pair: an update that moves a lootbox to another pair retires both.
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg(s) INTO scopes FROM new_rows r
        CROSS JOIN LATERAL (VALUES ('lootbox:' || r.lootbox_id), ('lootbox:' || r.creator_address || '/' || r.collection_name)) v(s);
    ELSIF TG_OP = 'DELETE' THEN
      SELECT array_agg(s) INTO scopes FROM old_rows r
        CROSS JOIN LATERAL (VALUES ('lootbox:' || r.lootbox_id), ('lootbox:' || r.creator_address || '/' || r.collection_name)) v(s);
    ELSE
      SELECT array_agg(s) INTO scopes
        FROM (SELECT lootbox_id, creator_address, collection_name FROM old_rows
              UNION ALL SELECT lootbox_id, creator_address, collection_name FROM new_rows) r
        CROSS JOIN LATERAL (VALUES ('lootbox:' || r.lootbox_id), ('lootbox:' || r.creator_address || '/' || r.collection_name)) v(s);
    END IF;
  ELSE
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg(DISTINCT lootbox_id) INTO ids FROM new_rows;
    ELSIF TG_OP = 'DELETE' THEN
      SELECT array_agg(DISTINCT lootbox_id) INTO ids FROM old_rows;
    ELSE
      SELECT array_agg(DISTINCT lootbox_id) INTO ids
        FROM (SELECT lootbox_id FROM old_rows UNION ALL SELECT lootbox_id FROM new_rows) r;
    END IF;
    SELECT array_agg(s) INTO scopes FROM unnest(ids) AS k(id)
      LEFT JOIN lootboxes l ON l.lootbox_id = k.id
      CROSS JOIN LATERAL (VALUES
        ('lootbox:' || k.id),
        (CASE WHEN l.lootbox_id IS NULL THEN '*' ELSE 'lootbox:' || l.creator_address || '/' || l.collection_name END)) v(s);
  END IF;
  PERFORM bump_collection_versions(TG_TABLE_NAME, scopes);
  RETURN NULL;
END $$;
