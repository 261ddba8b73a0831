import { type Kysely, sql } from 'kysely';
import { functionSql } from '../functions';
import { readVersionTriggers, statementTriggers } from '../statement-triggers';

/*
 * The number of active listings per one- or two-character search text: what total-listing-cards
 * (and a listing-cards page's total) counts for a search of one or two letters or digits and no
 * other filter. Such a text has no trigram to narrow it, so its count tested every active listing's
 * name and collection's name with ILIKE (15 ms on the 1M devnet chain for one letter, 37 ms under
 * the live bench: the costliest count of the listing searches). Kept, it is one row.
 *
 * A listing counts for a text when its token name or its collection's name (as `collections` holds
 * it) contains the text, case-insensitively: its grams (text_short_grams, the lower-cased one- and
 * two-character substrings of letters and digits) are those of the two names together. Statement-
 * level triggers keep the counts: on active_listings (a listing put in adds its grams, one taken
 * out subtracts them) and on collections (a collection inserted, renamed or deleted has its active
 * listings' grams counted again under its new name). The two take turns under an advisory lock held
 * to commit (active_listing_grams_lock). TRUNCATE of either table counts every gram again. The
 * table has the read-version triggers of every data table.
 */
const TABLE = 'active_listing_grams';
const COUNTING = [
  ...statementTriggers(
    'active_listings',
    'active_listings_grams',
    'active_listing_grams_of_listings',
    'active_listing_grams_on_truncate',
  ),
  ...statementTriggers(
    'collections',
    'collections_listing_grams',
    'active_listing_grams_of_collections',
    'active_listing_grams_on_truncate',
  ),
];
/** The functions as DROP FUNCTION names them (with their argument types). */
const FUNCTIONS = [
  'active_listing_grams_on_truncate()',
  'active_listing_grams_rebuild()',
  'active_listing_grams_of_collections()',
  'active_listing_grams_of_listings()',
  'active_listing_grams_apply(text[], text[], int[])',
  'active_listing_grams_lock()',
  'text_short_grams(text)',
];

/** A function, not a list: the function files are read when the migration runs, not on import. */
const UP = (): string[] => [
  `CREATE TABLE IF NOT EXISTS ${TABLE} (
    gram text PRIMARY KEY,
    listings integer NOT NULL
  )`,
  ...readVersionTriggers(TABLE).map((t) => t.create),
  functionSql('text_short_grams'),
  functionSql('active_listing_grams_lock'),
  functionSql('active_listing_grams_apply'),
  functionSql('active_listing_grams_of_listings'),
  functionSql('active_listing_grams_of_collections'),
  functionSql('active_listing_grams_rebuild'),
  functionSql('active_listing_grams_on_truncate'),
  ...COUNTING.map((t) => t.create),
];

const DOWN = [
  ...COUNTING.map((t) => t.drop),
  ...FUNCTIONS.map((fn) => `DROP FUNCTION IF EXISTS ${fn}`),
  `DROP TABLE IF EXISTS ${TABLE}`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP()) await sql.raw(statement).execute(db);
  await sql`SELECT active_listing_grams_rebuild()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
