-- Bumps the table `of_table`'s row of read_versions for this backend and announces it (channel
-- mdq_read_versions, the table its payload), in the calling transaction, so the bump commits with
-- the data it announces: what bump_read_version does for a statement, callable where a write reached
-- the table without firing its triggers (a table rebuilt and swapped in, rarity-rebuild.ts). Run by
-- bump_read_version_of_rows; first created by migration 2026-12-13T1000_read_versions_of_rows.
CREATE OR REPLACE FUNCTION read_version_bump(of_table text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO read_versions (source, backend, version) VALUES (of_table, pg_backend_pid(), 1)
    ON CONFLICT (source, backend) DO UPDATE SET version = read_versions.version + 1;
  PERFORM pg_notify('mdq_read_versions', of_table);
END $$;
