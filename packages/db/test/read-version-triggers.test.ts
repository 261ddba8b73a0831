import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNVERSIONED_TABLES } from '../src/index';
import { createTestDatabase, type TestDatabase } from '../src/testing';

/*
 * The API's response cache is only never-stale if every table a cached answer reads moves the read
 * version in the transaction that writes it (read_versions, bumped by the `<table>_read_version_<event>`
 * statement triggers). A new table without the trigger would serve stale answers silently, so this
 * test names every table of the migrated schema that lacks it and is not deliberately unversioned.
 */
describe('read-version triggers', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(() => test.drop());

  it('every data table bumps the read version on insert, update, delete and truncate', async () => {
    // Four statement triggers a table (readVersionTriggers): one per event, each running
    // bump_read_version_of_rows (the row events with their transition tables, which it checks).
    const { rows } = await sql<{ table: string; triggers: string[] }>`
      SELECT c.relname AS table,
             ARRAY(SELECT t.tgname::text || ':' || t.tgtype::int || ':' || p.proname::text
                     || ':' || (t.tgoldtable IS NOT NULL) || ':' || (t.tgnewtable IS NOT NULL)
                     FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
                    WHERE t.tgrelid = c.oid AND t.tgname LIKE c.relname || '\_read\_version%'
                    ORDER BY 1) AS triggers
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      ORDER BY c.relname`.execute(test.db);
    // tgtype bits (pg_trigger.h): 1 row-level (absent: statement), 4 insert, 8 delete, 16 update, 32 truncate.
    const expected = (table: string) => [
      `${table}_read_version_delete:8:bump_read_version_of_rows:true:false`,
      `${table}_read_version_insert:4:bump_read_version_of_rows:false:true`,
      `${table}_read_version_truncate:32:bump_read_version_of_rows:false:false`,
      `${table}_read_version_update:16:bump_read_version_of_rows:true:true`,
    ];
    const wrong = rows
      .filter((r) => !UNVERSIONED_TABLES.includes(r.table))
      .filter((r) => JSON.stringify(r.triggers) !== JSON.stringify(expected(r.table)))
      .map((r) => ({ table: r.table, triggers: r.triggers }));
    expect(wrong).toEqual([]);
    // The exemptions name real tables: a renamed table must not keep an exemption it no longer needs.
    const names = new Set(rows.map((r) => r.table));
    expect(UNVERSIONED_TABLES.filter((t) => !names.has(t))).toEqual([]);
  });

  it('a statement that writes a row moves the read version in its transaction; one that writes none does not', async () => {
    const sumOf = async () =>
      Number(
        (
          await sql<{ v: string }>`SELECT coalesce(sum(version), 0)::text AS v FROM read_versions`.execute(
            test.db,
          )
        ).rows[0]?.v,
      );
    const start = await sumOf();
    // Nothing written, nothing announced: no cached answer retires.
    await sql`DELETE FROM metadata_documents WHERE false`.execute(test.db);
    await sql`UPDATE ranking_snapshots SET score = score WHERE false`.execute(test.db);
    await sql`INSERT INTO ranking_snapshots SELECT * FROM ranking_snapshots WHERE false`.execute(test.db);
    expect(await sumOf()).toBe(start);
    // A row written, by each event; and a TRUNCATE, rows or not.
    await sql`INSERT INTO ranking_runs (ranking, computed_at, entries) VALUES ('zz', now(), 0)`.execute(
      test.db,
    );
    expect(await sumOf()).toBe(start + 1);
    await sql`UPDATE ranking_runs SET entries = 1 WHERE ranking = 'zz'`.execute(test.db);
    expect(await sumOf()).toBe(start + 2);
    await sql`DELETE FROM ranking_runs WHERE ranking = 'zz'`.execute(test.db);
    expect(await sumOf()).toBe(start + 3);
    await sql`TRUNCATE ranking_runs`.execute(test.db);
    expect(await sumOf()).toBe(start + 4);
  });
});
