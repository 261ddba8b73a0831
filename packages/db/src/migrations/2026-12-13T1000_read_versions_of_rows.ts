import { type Kysely, sql } from 'kysely';
import { createFunctions } from '../functions';
import { readVersionTriggers } from '../statement-triggers';

/*
 * A write counter moves only for a statement that wrote a row (issue #35; docs/PERFORMANCE.md, "A
 * statement that wrote nothing retires nothing"). Every data table's `<table>_read_version`
 * trigger (bump_read_version, migration 2026-11-23T1000) fired once per statement, rows or not, so a
 * statement that matched nothing retired every cached answer that read its table. On the live bench
 * the worker's ranking runs wrote ranking_snapshots in 300 transactions of 80 s, 45 of which
 * changed a row: the rest replaced empty rankings by empty ones, and each retired the five rankings
 * and the listing cards. Each such trigger is replaced by four (readVersionTriggers): insert, update
 * and delete with their transition tables, whose rows bump_read_version_of_rows checks, and
 * truncate, which always counts. A table that holds no `<table>_read_version` trigger (the
 * deliberately unversioned ones) is left alone. bump_read_version stays for the migrations before
 * this one, which create it.
 */

async function versionedTables(db: Kysely<unknown>, triggerName: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT c.relname::text AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
     WHERE c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema()) AND t.tgname = c.relname || ${triggerName}
     ORDER BY 1`.execute(db);
  return rows.map((r) => r.name);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await createFunctions(db, 'read_version_bump', 'bump_read_version_of_rows');
  for (const table of await versionedTables(db, '_read_version')) {
    await sql.raw(`DROP TRIGGER IF EXISTS ${table}_read_version ON ${table}`).execute(db);
    for (const trigger of readVersionTriggers(table)) await sql.raw(trigger.create).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of await versionedTables(db, '_read_version_truncate')) {
    for (const trigger of readVersionTriggers(table)) await sql.raw(trigger.drop).execute(db);
    await sql
      .raw(
        `CREATE OR REPLACE TRIGGER ${table}_read_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table}
         FOR EACH STATEMENT EXECUTE FUNCTION bump_read_version()`,
      )
      .execute(db);
  }
  await sql`DROP FUNCTION IF EXISTS bump_read_version_of_rows()`.execute(db);
  await sql`DROP FUNCTION IF EXISTS read_version_bump(text)`.execute(db);
}
