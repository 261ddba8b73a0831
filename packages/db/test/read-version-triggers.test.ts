import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNVERSIONED_TABLES } from '../src/index';
import { createTestDatabase, type TestDatabase } from '../src/testing';

/*
 * The API's response cache is only never-stale if every table a cached answer reads moves the read
 * version in the transaction that writes it (read_versions, bumped by the `<table>_read_version`
 * statement trigger). A new table without the trigger would serve stale answers silently, so this
 * test names every table of the migrated schema that lacks it and is not deliberately unversioned.
 */
describe('read-version triggers', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(() => test.drop());

  it('every data table bumps the read version on insert, update, delete and truncate', async () => {
    const { rows } = await sql<{ table: string; events: number; fn: string | null }>`
      SELECT c.relname AS table,
             (SELECT t.tgtype::int FROM pg_trigger t WHERE t.tgrelid = c.oid AND t.tgname = c.relname || '_read_version') AS events,
             (SELECT p.proname::text FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
               WHERE t.tgrelid = c.oid AND t.tgname = c.relname || '_read_version') AS fn
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      ORDER BY c.relname`.execute(test.db);
    const missing = rows
      .filter((r) => !UNVERSIONED_TABLES.includes(r.table) && r.fn !== 'bump_read_version')
      .map((r) => r.table);
    expect(missing).toEqual([]);
    // tgtype bits (pg_trigger.h): 1 row-level, 4 insert, 8 delete, 16 update, 32 truncate.
    const incomplete = rows
      .filter((r) => r.events !== null && (r.events & (4 | 8 | 16 | 32)) !== (4 | 8 | 16 | 32))
      .map((r) => r.table);
    expect(incomplete).toEqual([]);
    // The exemptions name real tables: a renamed table must not keep an exemption it no longer needs.
    const names = new Set(rows.map((r) => r.table));
    expect(UNVERSIONED_TABLES.filter((t) => !names.has(t))).toEqual([]);
  });

  it('a write to a versioned table moves the read version in the same transaction', async () => {
    const sumOf = async () =>
      Number(
        (
          await sql<{ v: string }>`SELECT coalesce(sum(version), 0)::text AS v FROM read_versions`.execute(
            test.db,
          )
        ).rows[0]?.v,
      );
    const before = await sumOf();
    // A statement trigger fires once per statement, rows or not: an empty DELETE is a write.
    await sql`DELETE FROM metadata_documents WHERE false`.execute(test.db);
    expect(await sumOf()).toBeGreaterThan(before);
  });
});
