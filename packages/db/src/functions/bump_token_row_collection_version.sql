-- Trigger function on the tables of a token's rows whose collection may be unknown (token_activities,
-- token_ownerships, listings, token_offers, marketplace_activities): bump_collection_version's
-- per-collection counters, for a row without a collection too (migrations 2026-12-08T1000 and
-- 2026-12-08T1200), announced by bump_collection_versions (migration 2026-12-10T1000). A v2
-- transfer or burn whose transaction wrote no Token resource is stored without its collection; such
-- a row counts for its token's stored collection, or for '*' (every collection) when the token is
-- not stored either (or the row names no token). A token's pages read its rows by the token, those
-- without a collection included, so skipping them, as bump_collection_version does, would miss a
-- write. The token is looked up only for those rows (COALESCE evaluates it lazily), not joined: a
-- backfill batch's transition table holds thousands of rows, and a join could read every token.
-- One static statement per event, as in bump_collection_version: a transition table exists only
-- for its own event, and a static statement is planned once per session.
CREATE OR REPLACE FUNCTION bump_token_row_collection_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM bump_collection_versions(TG_TABLE_NAME, ARRAY['*']);
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM bump_collection_versions(TG_TABLE_NAME, ARRAY(
      SELECT DISTINCT COALESCE(r.collection_id,
                               (SELECT t.collection_id FROM tokens t WHERE t.token_data_id = r.token_data_id), '*')
        FROM new_rows r));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM bump_collection_versions(TG_TABLE_NAME, ARRAY(
      SELECT DISTINCT COALESCE(r.collection_id,
                               (SELECT t.collection_id FROM tokens t WHERE t.token_data_id = r.token_data_id), '*')
        FROM (SELECT collection_id, token_data_id FROM old_rows
              UNION SELECT collection_id, token_data_id FROM new_rows) AS r));
  ELSE
    PERFORM bump_collection_versions(TG_TABLE_NAME, ARRAY(
      SELECT DISTINCT COALESCE(r.collection_id,
                               (SELECT t.collection_id FROM tokens t WHERE t.token_data_id = r.token_data_id), '*')
        FROM old_rows r));
  END IF;
  RETURN NULL;
END $$;
