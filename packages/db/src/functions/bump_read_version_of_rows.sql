-- Trigger function of every data table's `<table>_read_version_insert`, `_update`, `_delete` (with
-- their transition tables) and `_truncate` statement triggers (migration
-- 2026-12-13T1000_read_versions_of_rows): bumps the table's read version (read_version_bump) for a
-- statement that wrote at least one row, and for every TRUNCATE. A statement that wrote none changed
-- no answer, yet under bump_read_version, which it replaces on every table, it retired every cached
-- answer that read the table: the worker's ranking runs replaced empty rankings by empty ones about
-- three times a second, retiring the rankings and listing cards each time (docs/PERFORMANCE.md).
CREATE OR REPLACE FUNCTION bump_read_version_of_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM old_rows) THEN RETURN NULL; END IF;
  ELSIF TG_OP <> 'TRUNCATE' THEN
    IF NOT EXISTS (SELECT 1 FROM new_rows) THEN RETURN NULL; END IF;
  END IF;
  PERFORM read_version_bump(TG_TABLE_NAME);
  RETURN NULL;
END $$;
