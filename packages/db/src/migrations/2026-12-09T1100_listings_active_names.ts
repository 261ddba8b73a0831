import { type Kysely, sql } from 'kysely';

/*
 * The count of a one- or two-letter listing search (listing-cards, total-listing-cards) tests every
 * active listing's name: no trigram narrows so short a text. Through the active-listing indexes
 * that read a heap page per active listing (5,345 pages for 11,862 on the 1M chain: 29 ms warm,
 * 320 ms cold, 220-450 ms under the live bench). The count is taken in two parts split on the
 * name's nullness (queries/api/listings.ts, countListings): the named part reads the names and
 * collections of the active listings from `listings_active_named` alone (~100 pages, 17 ms warm or
 * cold), the unnamed part the few rows of `listings_active_unnamed`. The `token_name IS NOT NULL`
 * in the predicate keeps the index from the longer texts' statements, which do not state it and
 * whose trigram bitmap is cheaper (offered this index, the planner took it: 3.8 -> 28 ms).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS listings_active_named ON listings (collection_id) INCLUDE (token_name)
              WHERE status = 'active' AND token_name IS NOT NULL`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS listings_active_unnamed ON listings (collection_id)
              WHERE status = 'active' AND token_name IS NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS listings_active_named`.execute(db);
  await sql`DROP INDEX IF EXISTS listings_active_unnamed`.execute(db);
}
