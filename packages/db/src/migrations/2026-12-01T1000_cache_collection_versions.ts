import { type Kysely, sql } from 'kysely';
import { createFunctions } from '../functions';
import { statementTriggers } from '../statement-triggers';

/*
 * Finer write counters for the API's response cache (apps/api plugins/response-cache.ts), so an
 * answer retires only when data it read changed.
 *
 * 1. Every data table gets the statement-level `bump_read_version` trigger of migration
 *    2026-11-23T1000 (the tables created after it had none: they were covered only because the same
 *    transactions also wrote a versioned table, which a key naming the table alone cannot rely on).
 *
 * 2. `read_collection_versions`: a write counter per (table, collection), for the tables a
 *    collection page reads by `collection_id`. Statement-level AFTER triggers with transition
 *    tables bump one row per distinct collection the statement touched (old and new rows: an update
 *    that moves a row bumps both collections), in the writing transaction, so the bump commits with
 *    the data. One INSERT .. SELECT DISTINCT .. ON CONFLICT per statement. Rows are per backend, like
 *    `read_versions`: writers never wait on each other's counter rows (and cannot deadlock on them);
 *    foldReadVersions folds exited backends into backend 0.
 *    - TRUNCATE (no transition table) bumps the pseudo-collection '*', which every collection key
 *      includes: it retires every collection's answers. So may a bulk rewrite that bypasses the
 *      triggers (`bump_collection_versions(table, ARRAY['*'])`), or it names the collections it
 *      rewrote (the rarity rebuild does).
 *    - `collections` also bumps its (creator, name) pair ('collections:name', collection id
 *      `creator/name`; no collection id has a '/'): the collection pages are asked for by that pair,
 *      and a collection that takes or leaves the pair changes which collections the page reads.
 */

/** Bookkeeping, keys, outboxes: no cached answer reads them (and some are written at every poll). */
const UNVERSIONED = [
  'read_versions',
  'read_collection_versions',
  'api_keys',
  'chain_tip',
  'kysely_migration',
  'kysely_migration_lock',
  'collection_change_outbox',
  'export_usage',
  'webhook_deliveries',
  'webhook_endpoints',
];

/** The tables with a `collection_id` that collection pages read by it (per-collection counters). */
const COLLECTION_VERSIONED = [
  'collections',
  'tokens',
  'token_rarity',
  'listings',
  'token_offers',
  'collection_offers',
] as const;

/**
 * Statement-level triggers `<table>_<name>_<event>` running `fn` after each insert, update, delete
 * (with their transition tables `old_rows` / `new_rows`) and truncate of `table`. Transition
 * tables allow one event per trigger, hence four.
 */
export async function createStatementTriggers(
  db: Kysely<unknown>,
  table: string,
  name: string,
  fn: string,
): Promise<void> {
  for (const trigger of statementTriggers(table, `${table}_${name}`, fn, fn)) {
    await sql.raw(trigger.create).execute(db);
  }
}

/** Drops the triggers createStatementTriggers made (a migration's `down`). */
export async function dropStatementTriggers(
  db: Kysely<unknown>,
  table: string,
  name: string,
  fn: string,
): Promise<void> {
  for (const trigger of statementTriggers(table, `${table}_${name}`, fn, fn)) {
    await sql.raw(trigger.drop).execute(db);
  }
}

/**
 * The per-collection write counter triggers of `table` (a table with a `collection_id`); also used
 * by the migrations that make more tables collection-versioned.
 */
export async function createCollectionVersionTriggers(db: Kysely<unknown>, table: string): Promise<void> {
  await createStatementTriggers(db, table, 'collection_version', 'bump_collection_version');
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    SELECT t.tablename AS name FROM pg_tables t
    WHERE t.schemaname = current_schema()
      AND NOT EXISTS (SELECT 1 FROM pg_trigger g
                      WHERE g.tgrelid = (quote_ident(t.tablename))::regclass AND g.tgname = t.tablename || '_read_version')
    ORDER BY t.tablename`.execute(db);
  for (const { name } of rows) {
    if (UNVERSIONED.includes(name)) continue;
    await sql
      .raw(
        `CREATE OR REPLACE TRIGGER ${name}_read_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${name}
         FOR EACH STATEMENT EXECUTE FUNCTION bump_read_version()`,
      )
      .execute(db);
  }

  await sql`CREATE TABLE IF NOT EXISTS read_collection_versions (
    collection_id text NOT NULL, source text NOT NULL, backend int NOT NULL, version bigint NOT NULL,
    PRIMARY KEY (collection_id, source, backend))`.execute(db);

  await createFunctions(
    db,
    'bump_collection_versions',
    'bump_collection_version',
    'bump_collection_name_version',
  );

  for (const name of COLLECTION_VERSIONED) await createCollectionVersionTriggers(db, name);
  await sql`CREATE OR REPLACE TRIGGER collections_name_version_insert AFTER INSERT ON collections
              REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_collection_name_version()`.execute(
    db,
  );
  await sql`CREATE OR REPLACE TRIGGER collections_name_version_update AFTER UPDATE ON collections
              REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_collection_name_version()`.execute(
    db,
  );
  await sql`CREATE OR REPLACE TRIGGER collections_name_version_delete AFTER DELETE ON collections
              REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_collection_name_version()`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION IF EXISTS bump_collection_name_version() CASCADE`.execute(db);
  await sql`DROP FUNCTION IF EXISTS bump_collection_version() CASCADE`.execute(db);
  await sql`DROP FUNCTION IF EXISTS bump_collection_versions(text, text[])`.execute(db);
  await sql`DROP TABLE IF EXISTS read_collection_versions`.execute(db);
}
