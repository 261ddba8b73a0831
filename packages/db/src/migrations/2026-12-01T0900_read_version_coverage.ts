import { type Kysely, sql } from 'kysely';

/*
 * Tables created after the read-version counter (2026-11-23T1000_readpath_versions) that cached
 * answers read, and that missed its trigger: trait counts and totals (trait routes, analytics),
 * the lootbox revenue days (lootbox-revenue), rendered media (thumbnails) and the search stems
 * (market/search). Their writes shared a transaction with a versioned table so far; a cache keyed
 * per table needs each to move on its own. packages/db/test/read-version-triggers.test.ts now
 * fails for any table that has neither the trigger nor a place in UNVERSIONED_TABLES.
 */
const TABLES = [
  'collection_trait_totals',
  'lootbox_revenue_days',
  'media_renders',
  'token_name_stems',
  'trait_value_counts',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const name of TABLES) {
    await sql
      .raw(
        `CREATE OR REPLACE TRIGGER ${name}_read_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${name}
         FOR EACH STATEMENT EXECUTE FUNCTION bump_read_version()`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of TABLES)
    await sql.raw(`DROP TRIGGER IF EXISTS ${name}_read_version ON ${name}`).execute(db);
}
