-- Superseded on every table by bump_read_version_of_rows (migration 2026-12-13T1000), which moves
-- no counter for a statement that wrote no row; kept because the migrations before that one create
-- it and their triggers run it (and why read_version_bump repeats its two statements: a body
-- calling that function would fail before the migration that creates it).
-- Trigger function, statement-level on every data table until then: bumps the writing table's row of
-- read_versions for this backend, in the writing transaction, so the bump commits with the data it
-- announces (the API's response cache; migration 2026-11-23T1000_readpath_versions). It also
-- notifies channel mdq_read_versions, delivered at the commit and once per transaction however
-- many statements ask (Postgres folds identical notifications): an API listening learns of new
-- counters without reading them for every request (migration 2026-12-02T1000_read_version_notify).
-- The payload is the table's name (migration 2026-12-09T1000_read_version_notify_tables): Postgres
-- folds identical notifications of a transaction, so a commit announces each table it wrote once,
-- and an answer that reads none of them stays vouched for by the counters the API last read.
CREATE OR REPLACE FUNCTION bump_read_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO read_versions (source, backend, version) VALUES (TG_TABLE_NAME, pg_backend_pid(), 1)
    ON CONFLICT (source, backend) DO UPDATE SET version = read_versions.version + 1;
  PERFORM pg_notify('mdq_read_versions', TG_TABLE_NAME);
  RETURN NULL;
END $$;
