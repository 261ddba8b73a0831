import { type Kysely, sql } from 'kysely';

/*
 * Read-path indexes found with EXPLAIN ANALYZE on the 100,000-transaction chain (docs/PERFORMANCE.md):
 * - listing-cards by popularity takes each ranked collection's newest active listings in order, a
 *   page's reach at most, instead of sorting every active listing by its collection's position;
 * - collection-stats' floor at the window start reads the listings still open then (closed_at null
 *   or later) instead of every listing of the collection (a sequential scan for a busy one);
 * - token search's prefix tier reads the names starting with the text from a btree range
 *   (lower(name) LIKE 'text%'; the same index serves the exact-name tier), not from a whole pass of
 *   the GiST trigram index, which a one-letter pattern cannot narrow;
 * - the GIN trigram index on token names is dropped: no statement uses it (search walks the GiST
 *   one; zero scans over every kind of search text), and it was rewritten on every token write.
 */
const UP = [
  `CREATE INDEX IF NOT EXISTS listings_active_collection_recent
     ON listings (collection_id, listed_version DESC, marketplace, listing_id) WHERE status = 'active'`,
  'CREATE INDEX IF NOT EXISTS listings_collection_closed ON listings (collection_id, closed_at)',
  `CREATE INDEX IF NOT EXISTS tokens_name_lower_pattern
     ON tokens (lower(token_name) text_pattern_ops) WHERE NOT is_burned`,
  'DROP INDEX IF EXISTS tokens_name_lower',
  'DROP INDEX IF EXISTS tokens_name_trgm',
];

const DOWN = [
  'CREATE INDEX IF NOT EXISTS tokens_name_trgm ON tokens USING gin (token_name gin_trgm_ops)',
  'CREATE INDEX IF NOT EXISTS tokens_name_lower ON tokens (lower(token_name)) WHERE NOT is_burned',
  'DROP INDEX IF EXISTS tokens_name_lower_pattern',
  'DROP INDEX IF EXISTS listings_collection_closed',
  'DROP INDEX IF EXISTS listings_active_collection_recent',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
