-- Trigger function on tokens (migration 2026-12-10T1100_metadata_pending): keeps metadata_pending,
-- the live tokens whose document may not have been fetched for their stored version. A token
-- inserted, or updated to another version or URI (a mutation), or unburned, is pending at its
-- version; a burned or deleted one is not. The crawler deletes a token's row once a document
-- stored for that version or a later one exists (queries/worker/metadata-documents.ts); the row's
-- version is what that check reads, so a mutation that lands while the crawler is storing the older
-- one keeps the token pending. Most updates (an ownership's, a supply's) keep the version and the
-- URI: the join finds nothing to mark.
CREATE OR REPLACE FUNCTION metadata_pending_on_tokens() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM metadata_pending;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO metadata_pending (token_data_id, collection_id, version)
    SELECT token_data_id, collection_id, last_transaction_version FROM new_rows
     WHERE NOT is_burned
    ON CONFLICT (token_data_id) DO UPDATE
      SET collection_id = excluded.collection_id, version = excluded.version;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO metadata_pending (token_data_id, collection_id, version)
    SELECT n.token_data_id, n.collection_id, n.last_transaction_version
      FROM new_rows n JOIN old_rows o ON o.token_data_id = n.token_data_id
     WHERE NOT n.is_burned
       AND (n.last_transaction_version IS DISTINCT FROM o.last_transaction_version
            OR n.token_uri IS DISTINCT FROM o.token_uri OR o.is_burned)
    ON CONFLICT (token_data_id) DO UPDATE
      SET collection_id = excluded.collection_id, version = excluded.version;
    DELETE FROM metadata_pending p USING new_rows n WHERE p.token_data_id = n.token_data_id AND n.is_burned;
  ELSE
    DELETE FROM metadata_pending p USING old_rows o WHERE p.token_data_id = o.token_data_id;
  END IF;
  RETURN NULL;
END $$;
