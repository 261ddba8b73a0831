-- Trigger function on the tables a lootbox's pages read by that lootbox (migration
-- 2026-12-14T1000_lootbox_versions; tokens, by their lootbox_id, and token documents, by their
-- token's, since 2026-12-14T1100_collection_identity_versions): bumps, for every lootbox the
-- statement's rows name (old rows and new), the counters of its two scopes in
-- read_collection_versions: 'lootbox:<id>', which a page asked by `lootboxId` keys on, and 'lootbox:<creator>/<collection name>', which a page asked
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
  ELSIF TG_TABLE_NAME = 'metadata_documents' THEN
    -- A token's document counts for its token's lootbox (a document of a token not stored, or of
    -- no lootbox, for none: a page reaches documents through its lootbox's tokens).
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg(DISTINCT t.lootbox_id) INTO ids FROM new_rows r
        JOIN tokens t ON t.token_data_id = r.subject_id WHERE r.kind = 'token' AND t.lootbox_id IS NOT NULL;
    ELSIF TG_OP = 'DELETE' THEN
      SELECT array_agg(DISTINCT t.lootbox_id) INTO ids FROM old_rows r
        JOIN tokens t ON t.token_data_id = r.subject_id WHERE r.kind = 'token' AND t.lootbox_id IS NOT NULL;
    ELSE
      SELECT array_agg(DISTINCT t.lootbox_id) INTO ids
        FROM (SELECT kind, subject_id FROM old_rows UNION ALL SELECT kind, subject_id FROM new_rows) r
        JOIN tokens t ON t.token_data_id = r.subject_id WHERE r.kind = 'token' AND t.lootbox_id IS NOT NULL;
    END IF;
  ELSE
    -- The lootbox tables, and tokens (a token of no lootbox counts for none).
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg(DISTINCT lootbox_id) INTO ids FROM new_rows WHERE lootbox_id IS NOT NULL;
    ELSIF TG_OP = 'DELETE' THEN
      SELECT array_agg(DISTINCT lootbox_id) INTO ids FROM old_rows WHERE lootbox_id IS NOT NULL;
    ELSE
      SELECT array_agg(DISTINCT lootbox_id) INTO ids
        FROM (SELECT lootbox_id FROM old_rows UNION ALL SELECT lootbox_id FROM new_rows) r
       WHERE lootbox_id IS NOT NULL;
    END IF;
  END IF;
  IF TG_TABLE_NAME <> 'lootboxes' THEN
    IF ids IS NULL THEN RETURN NULL; END IF;
    SELECT array_agg(s) INTO scopes FROM unnest(ids) AS k(id)
      LEFT JOIN lootboxes l ON l.lootbox_id = k.id
      CROSS JOIN LATERAL (VALUES
        ('lootbox:' || k.id),
        (CASE WHEN l.lootbox_id IS NULL THEN '*' ELSE 'lootbox:' || l.creator_address || '/' || l.collection_name END)) v(s);
  END IF;
  PERFORM bump_collection_versions(TG_TABLE_NAME, scopes);
  RETURN NULL;
END $$;
