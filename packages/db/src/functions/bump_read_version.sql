-- Trigger function, statement-level on every data table: bumps the writing table's row of
-- read_versions for this backend, in the writing transaction, so the bump commits with the data it
-- announces (the API's response cache; migration 2026-11-23T1000_readpath_versions).
CREATE OR REPLACE FUNCTION bump_read_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO read_versions (source, backend, version) VALUES (TG_TABLE_NAME, pg_backend_pid(), 1)
    ON CONFLICT (source, backend) DO UPDATE SET version = read_versions.version + 1;
  RETURN NULL;
END $$;
