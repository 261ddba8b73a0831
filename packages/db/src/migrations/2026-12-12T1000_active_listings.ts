import { type Kysely, sql } from 'kysely';
import { functionSql } from '../functions';
import { statementTriggers } from '../statement-triggers';

/*
 * The active listings, kept apart from the rest (issue #35; docs/PERFORMANCE.md, "The active
 * listings on their own"). listing-cards and total-listing-cards read only active listings, but
 * those are a sliver of `listings` (11,862 of ~160k rows on the 1M devnet chain, 130 MB), spread
 * over its pages: a search's matches read a heap page each (780 pages for 849 rows), which made the
 * listing search the API's costliest statement family under load. active_listings holds the same
 * rows, the same columns, in a table of their own (a few MB), kept by statement-level triggers with
 * transition tables in the writing transaction (functions/active_listings_on_listings.sql), so
 * every writer (indexer, repairs, tests) keeps it, and emptied by a TRUNCATE of listings. It has
 * its own read-version trigger: the listing-card answers key on it, and a write that touched only
 * closed listings leaves them cached.
 *
 * The same triggers keep active_listing_counts, their number per (creator, collection name) of the
 * listing rows: total-listing-cards without a filter, or filtered by those two alone, sums a few
 * rows instead of counting every active listing (a sequential scan of the table, 4 ms quiet and
 * 16 ms under the live bench, in every such page of listing-cards too).
 *
 * A search (but a text of one or two letters or digits) reads its matches through
 * active_listings_matching, which prices the table's pages as cached
 * (functions/active_listings_matching.sql).
 *
 * The indexes of `listings` that only those two routes read go: the trigram index of the active
 * names, and the two that served a short text's count (2026-12-09T1100).
 *
 * A column added to `listings` must be added here too: the trigger copies whole rows, so the
 * first write after such a migration fails until the two tables have the same columns again.
 */

const TRIGGERS = statementTriggers(
  'listings',
  'listings_active',
  'active_listings_on_listings',
  'active_listings_on_truncate',
);

/** A function, not a list: the function files are read when the migration runs, not on import. */
const UP = (): string[] => [
  // LIKE copies neither the primary key nor the indexes: the key here, and below the reads of
  // listing-cards, each.
  `CREATE TABLE IF NOT EXISTS active_listings (
     LIKE listings INCLUDING DEFAULTS INCLUDING CONSTRAINTS,
     PRIMARY KEY (marketplace, listing_id)
   )`,
  // Vacuumed after a fixed number of changes, not a fifth of the table: every listing placed, sold
  // or changed leaves a dead row in this small table, and its counts (total-listing-cards) read
  // index-only only where the visibility map is set (at the default scale, ~2,400 changes apart).
  `ALTER TABLE active_listings SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 500,
     autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 500)`,
  // The number of active listings per (creator, collection name) of the listing rows: the count of
  // total-listing-cards (and a listing-cards page's total) with no filter or only those two, read
  // from a few rows instead of every active listing.
  `CREATE TABLE IF NOT EXISTS active_listing_counts (
     creator_address text,
     collection_name text,
     listings integer NOT NULL,
     CONSTRAINT active_listing_counts_key UNIQUE NULLS NOT DISTINCT (creator_address, collection_name)
   )`,
  `CREATE OR REPLACE TRIGGER active_listing_counts_read_version
     AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON active_listing_counts
     FOR EACH STATEMENT EXECUTE FUNCTION bump_read_version()`,
  // Newest first (the default order) and each collection's newest (popularity, a collection search).
  'CREATE INDEX IF NOT EXISTS active_listings_recent ON active_listings (listed_version DESC, marketplace, listing_id)',
  `CREATE INDEX IF NOT EXISTS active_listings_collection_recent
     ON active_listings (collection_id, listed_version DESC, marketplace, listing_id)`,
  'CREATE INDEX IF NOT EXISTS active_listings_name_trgm ON active_listings USING gin (token_name gin_trgm_ops)',
  'CREATE INDEX IF NOT EXISTS active_listings_price ON active_listings (price, listed_version DESC)',
  'CREATE INDEX IF NOT EXISTS active_listings_creator_name ON active_listings (creator_address, collection_name)',
  `CREATE OR REPLACE TRIGGER active_listings_read_version
     AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON active_listings
     FOR EACH STATEMENT EXECUTE FUNCTION bump_read_version()`,
  functionSql('active_listings_rebuild'),
  functionSql('active_listings_on_truncate'),
  functionSql('active_listings_on_listings'),
  functionSql('active_listings_matching'),
  ...TRIGGERS.map((t) => t.create),
  'SELECT active_listings_rebuild()',
  // Statistics now, so the first reads are planned for a table of this size, not a default guess.
  'ANALYZE active_listings',
  'ANALYZE active_listing_counts',
  'DROP INDEX IF EXISTS listings_active_token_name_trgm',
  'DROP INDEX IF EXISTS listings_active_named',
  'DROP INDEX IF EXISTS listings_active_unnamed',
];

const DOWN = [
  `CREATE INDEX IF NOT EXISTS listings_active_token_name_trgm ON listings USING gin (token_name gin_trgm_ops)
     WHERE status = 'active'`,
  `CREATE INDEX IF NOT EXISTS listings_active_named ON listings (collection_id) INCLUDE (token_name)
     WHERE status = 'active' AND token_name IS NOT NULL`,
  `CREATE INDEX IF NOT EXISTS listings_active_unnamed ON listings (collection_id)
     WHERE status = 'active' AND token_name IS NULL`,
  ...TRIGGERS.map((t) => t.drop),
  'DROP FUNCTION IF EXISTS active_listings_on_listings()',
  'DROP FUNCTION IF EXISTS active_listings_on_truncate()',
  'DROP FUNCTION IF EXISTS active_listings_rebuild()',
  'DROP FUNCTION IF EXISTS active_listings_matching(text, text)',
  'DROP TABLE IF EXISTS active_listings',
  'DROP TABLE IF EXISTS active_listing_counts',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP()) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
