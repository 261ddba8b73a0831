-- Trigger function: a TRUNCATE of token_ownerships, listings or tokens recounts every holding
-- (migration 2026-12-17T1000_collection_holdings).
CREATE OR REPLACE FUNCTION collection_holdings_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM collection_holdings_rebuild();
  RETURN NULL;
END $$;
