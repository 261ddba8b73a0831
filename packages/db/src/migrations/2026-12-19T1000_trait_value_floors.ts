import { type Kysely, sql } from 'kysely';
import { functionSql } from '../functions';
import { readVersionTriggers, statementTriggers } from '../statement-triggers';
import { createCollectionVersionTriggers } from './2026-12-01T1000_cache_collection_versions';

/*
 * Each trait value's floor per coin type, kept by the database in the writing transaction: what
 * collection-trait-floors shows as each value's live floor. Computed per request it joined the
 * collection's every active listing with its token's attribute rows and its token (10.5 ms a miss
 * under the live bench, the route's larger statement, with the last sales the rest); kept, the
 * floors are the collection's rows of this table, one index range.
 *
 * A floor is counted as the route counted it: the lowest price among the active listings of the
 * collection's unburned tokens with the value (the listing's, the attribute's and the token's
 * collection all the collection), per coin type (the native-coin rule stays in the query that
 * reads it, queries/market-rules.ts). Statement-level triggers with transition tables on the three
 * tables that decide it (listings, token_attributes, tokens) keep it: a listing put in lowers its
 * token's values' floors to its price, and the values a statement could have raised are recounted
 * (trait_value_floors_recount): a listing taken out at a floor (a minimum does not come back from a
 * closed listing), an attribute of a listed token, a listed token burned or moved. Two writers
 * write these tables (the indexer, and the crawler's attributes of listed tokens): a collection's
 * recounts and lowerings take turns under an advisory lock held to commit
 * (trait_value_floors_lock), so each counts what the ones before it committed. TRUNCATE of any of
 * them recounts every value. The table has the read-version triggers of every data table and
 * per-collection counters: a listing that moves no floor retires no trait-floors page, and one in
 * another collection none either.
 */
const TABLE = 'trait_value_floors';
const COUNTING = [
  ...statementTriggers(
    'listings',
    'listings_trait_floors',
    'trait_value_floors_of_listings',
    'trait_value_floors_on_truncate',
  ),
  ...statementTriggers(
    'token_attributes',
    'token_attributes_trait_floors',
    'trait_value_floors_of_attributes',
    'trait_value_floors_on_truncate',
  ),
  ...statementTriggers(
    'tokens',
    'tokens_trait_floors',
    'trait_value_floors_of_tokens',
    'trait_value_floors_on_truncate',
  ),
];
/** The functions as DROP FUNCTION names them (with their argument types). */
const FUNCTIONS = [
  'trait_value_floors_lock(text[])',
  'trait_value_floors_recount(text[], text[], text[])',
  'trait_value_floors_rebuild()',
  'trait_value_floors_of_listings()',
  'trait_value_floors_of_attributes()',
  'trait_value_floors_of_tokens()',
  'trait_value_floors_on_truncate()',
];

/** A function, not a list: the function files are read when the migration runs, not on import. */
const UP = (): string[] => [
  // A listing without a coin type (NULL, the native coin) is one key: NULLS NOT DISTINCT.
  `CREATE TABLE IF NOT EXISTS ${TABLE} (
    collection_id text NOT NULL,
    trait_type text NOT NULL,
    value text NOT NULL,
    coin_type text,
    floor numeric NOT NULL,
    CONSTRAINT trait_value_floors_key UNIQUE NULLS NOT DISTINCT (collection_id, trait_type, value, coin_type)
  )`,
  ...readVersionTriggers(TABLE).map((t) => t.create),
  functionSql('trait_value_floors_lock'),
  functionSql('trait_value_floors_recount'),
  functionSql('trait_value_floors_rebuild'),
  functionSql('trait_value_floors_of_listings'),
  functionSql('trait_value_floors_of_attributes'),
  functionSql('trait_value_floors_of_tokens'),
  functionSql('trait_value_floors_on_truncate'),
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
  await sql`SELECT trait_value_floors_rebuild()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
