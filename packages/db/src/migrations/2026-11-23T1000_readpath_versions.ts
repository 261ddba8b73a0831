import { type Kysely, sql } from 'kysely';
import { createFunctions } from '../functions';

/*
 * A write counter for the data the API reads, so that a response cached under it is never stale
 * (apps/api response cache). A statement-level trigger on every data table bumps a row inside the
 * writing transaction, so the bump commits with the data it announces; the API's version is the
 * sum of the rows, which grows at every commit that wrote anything.
 *
 * One row per (table, backend): a connection runs one transaction at a time, so two writers never
 * wait on the same row (the worker's long recomputes do not block the indexer or each other), and
 * rows are never deleted, so the sum never returns to an earlier value.
 *
 * A table created by a later migration that a cached route reads must get the same trigger.
 */
// Not data the cached routes answer from: keys, the chain tip the indexer polls (it would turn the
// version over at every poll), bookkeeping.
const UNVERSIONED = ['read_versions', 'api_keys', 'chain_tip', 'kysely_migration', 'kysely_migration_lock'];

/*
 * Token search by nearest name (market/search): a GiST trigram index answers "the k names most
 * similar to the text that also match it" by walking the index in similarity order (KNN), so a
 * one-letter text no longer scores every token; lower(name) serves the exact-name tier.
 */
const SEARCH_INDEXES = [
  'CREATE INDEX IF NOT EXISTS tokens_name_trgm_gist ON tokens USING gist (token_name gist_trgm_ops) WHERE NOT is_burned',
  'CREATE INDEX IF NOT EXISTS tokens_name_lower ON tokens (lower(token_name)) WHERE NOT is_burned',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of SEARCH_INDEXES) await sql.raw(statement).execute(db);
  await sql`CREATE TABLE IF NOT EXISTS read_versions (
    source text NOT NULL, backend int NOT NULL, version bigint NOT NULL, PRIMARY KEY (source, backend))`.execute(
    db,
  );
  await createFunctions(db, 'bump_read_version');
  const { rows } = await sql<{ name: string }>`
    SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`.execute(
    db,
  );
  for (const { name } of rows) {
    if (UNVERSIONED.includes(name)) continue;
    await sql
      .raw(
        `CREATE OR REPLACE TRIGGER ${name}_read_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${name}
         FOR EACH STATEMENT EXECUTE FUNCTION bump_read_version()`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS tokens_name_trgm_gist`.execute(db);
  await sql`DROP INDEX IF EXISTS tokens_name_lower`.execute(db);
  await sql`DROP FUNCTION IF EXISTS bump_read_version() CASCADE`.execute(db);
  await sql`DROP TABLE IF EXISTS read_versions`.execute(db);
}
