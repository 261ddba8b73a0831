import { type Kysely, sql } from 'kysely';
import { functionSql } from '../functions';
import { readVersionTriggers, statementTriggers } from '../statement-triggers';
import { createCollectionVersionTriggers } from './2026-12-01T1000_cache_collection_versions';

/*
 * How many of each collection's tokens each holder holds, kept by the database in the writing
 * transaction: what collection-stats' top ten holders read (top10HoldersShare). Counted per request
 * it grouped the collection's every holding (31,788 ownership entries into 16,623 holders for the
 * 1M chain's largest, 33–150 ms a miss, machine by machine); kept, the ten largest are the first
 * ten entries of an index.
 *
 * A holding is counted as the stats counted it: a token held with a positive amount (any property
 * version, once) or listed by a seller who holds no positive amount of it (escrowed), burned tokens
 * left out. Statement-level triggers with transition tables on the three tables that decide it
 * (token_ownerships, listings, tokens) recount the (collection, holder) pairs a statement touched
 * (collection_holdings_recount): the distinct tokens, the escrow and the burns do not add up as
 * deltas. A recount reads the pair's committed rows, which is exact while one writer writes these
 * tables (the indexer; two transactions recounting one pair at once would each miss the other's
 * rows). TRUNCATE of any of them recounts every pair. The table has the read-version triggers of
 * every data table and per-collection counters: a transfer in one collection retires that
 * collection's stats only.
 */
const TABLE = 'collection_holdings';
const COUNTING = [
  ...statementTriggers(
    'token_ownerships',
    'token_ownerships_holdings',
    'collection_holdings_of_ownerships',
    'collection_holdings_on_truncate',
  ),
  ...statementTriggers(
    'listings',
    'listings_holdings',
    'collection_holdings_of_listings',
    'collection_holdings_on_truncate',
  ),
  ...statementTriggers(
    'tokens',
    'tokens_holdings',
    'collection_holdings_of_tokens',
    'collection_holdings_on_truncate',
  ),
];
/** The functions as DROP FUNCTION names them (with their argument types). */
const FUNCTIONS = [
  'collection_holdings_recount(text[], text[])',
  'collection_holdings_rebuild()',
  'collection_holdings_of_ownerships()',
  'collection_holdings_of_listings()',
  'collection_holdings_of_tokens()',
  'collection_holdings_on_truncate()',
];

/** A function, not a list: the function files are read when the migration runs, not on import. */
const UP = (): string[] => [
  `CREATE TABLE IF NOT EXISTS ${TABLE} (
    collection_id text NOT NULL,
    holder text NOT NULL,
    held integer NOT NULL,
    PRIMARY KEY (collection_id, holder)
  )`,
  `CREATE INDEX IF NOT EXISTS collection_holdings_largest ON ${TABLE} (collection_id, held DESC)`,
  ...readVersionTriggers(TABLE).map((t) => t.create),
  functionSql('collection_holdings_recount'),
  functionSql('collection_holdings_rebuild'),
  functionSql('collection_holdings_of_ownerships'),
  functionSql('collection_holdings_of_listings'),
  functionSql('collection_holdings_of_tokens'),
  functionSql('collection_holdings_on_truncate'),
  ...COUNTING.map((t) => t.create),
];

const DOWN = [
  ...COUNTING.map((t) => t.drop),
  ...FUNCTIONS.map((fn) => `DROP FUNCTION IF EXISTS ${fn}`),
  `DROP TABLE IF EXISTS ${TABLE}`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP()) await sql.raw(statement).execute(db);
  await createCollectionVersionTriggers(db, TABLE);
  await sql`SELECT collection_holdings_rebuild()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
