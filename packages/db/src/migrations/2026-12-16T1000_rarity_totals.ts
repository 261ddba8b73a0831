import { type Kysely, sql } from 'kysely';
import { functionSql } from '../functions';
import { readVersionTriggers, statementTriggers } from '../statement-triggers';
import { createCollectionVersionTriggers } from './2026-12-01T1000_cache_collection_versions';

/*
 * The number of each collection's ranked tokens (its `token_rarity` rows), kept by the database in
 * the writing transaction: the total of a rarities-by-collection page. Counted per request, it read
 * every rarity row of the collection (31,788 for the 1M chain's largest), and under a moving chain
 * more: the worker rewrites a minting collection's every row at each recompute (each score moves
 * with the collection's size), so until a vacuum the count walked every dead version too (0.7 ms
 * for a 3,391-token collection freshly built, 14 ms after 50 recomputes).
 *
 * Statement-level triggers with transition tables, like the trait counts (2026-11-26T1000): every
 * writer keeps the totals (the worker, tests, repairs). A collection with no rows left keeps a zero
 * row (the readers sum). TRUNCATE empties them; the rarity rebuild, whose bulk-filled table the
 * triggers never see, recounts them (rarity_totals_rebuild). The table has the read-version
 * triggers of every data table and per-collection counters: a recompute of one collection that
 * ranks a token more or fewer retires that collection's pages only.
 */
const TABLE = 'collection_rarity_totals';
const COUNTING = statementTriggers(
  'token_rarity',
  'token_rarity_totals',
  'rarity_totals_on_change',
  'rarity_totals_on_truncate',
);

/** A function, not a list: the function files are read when the migration runs, not on import. */
const UP = (): string[] => [
  `CREATE TABLE IF NOT EXISTS ${TABLE} (
    collection_id text PRIMARY KEY,
    ranked integer NOT NULL
  )`,
  ...readVersionTriggers(TABLE).map((t) => t.create),
  functionSql('rarity_totals_rebuild'),
  functionSql('rarity_totals_on_change'),
  functionSql('rarity_totals_on_truncate'),
  ...COUNTING.map((t) => t.create),
];

const DOWN = [
  ...COUNTING.map((t) => t.drop),
  'DROP FUNCTION IF EXISTS rarity_totals_on_change()',
  'DROP FUNCTION IF EXISTS rarity_totals_on_truncate()',
  'DROP FUNCTION IF EXISTS rarity_totals_rebuild()',
  `DROP TABLE IF EXISTS ${TABLE}`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP()) await sql.raw(statement).execute(db);
  await createCollectionVersionTriggers(db, TABLE);
  await sql`SELECT rarity_totals_rebuild()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
