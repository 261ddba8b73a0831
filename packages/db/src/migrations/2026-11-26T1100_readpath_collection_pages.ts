import { type Kysely, sql } from 'kysely';

/*
 * Per-collection reads measured with EXPLAIN ANALYZE on the 100,000- and 1,000,000-transaction
 * chains (docs/PERFORMANCE.md, "Fourth pass"):
 * - tokens_collection_name carries is_burned, so a collection's live-token count (tokens-by-collection's
 *   total, the lootbox collection's supply) is an index-only scan instead of a heap visit per token
 *   (1,052 heap pages for a 3,400-token collection at 100k). Same index count, same columns written.
 * - live offers of a collection (active and not yet expired) are found by expiry, not by reading every
 *   active offer: an offer stays 'active' after it expires, and on the devnet chains most do, so the
 *   (collection, price) index made bids-by-collection visit every offer ever left open.
 * - token search's trigram GiST index gets 256-byte signatures (the default is 12): an internal
 *   page's signature is the union of its names' trigrams, and at 12 bytes every bit is set, so a
 *   nearest-first walk for a similar or containing name could prune nothing and read most of the
 *   index; at 256 bytes 'wizard', 'pixel wi' or 'koalas' read 2.5-3x fewer pages (100k chain), and
 *   the index is no larger.
 */
const UP = [
  `CREATE INDEX IF NOT EXISTS tokens_collection_name_live
     ON tokens (collection_id, token_name, token_data_id) INCLUDE (is_burned)`,
  'DROP INDEX IF EXISTS tokens_collection_name',
  'ALTER INDEX tokens_collection_name_live RENAME TO tokens_collection_name',
  `CREATE INDEX IF NOT EXISTS token_offers_live_collection
     ON token_offers (collection_id, expiration_time) WHERE status = 'active'`,
  `CREATE INDEX IF NOT EXISTS collection_offers_live_collection
     ON collection_offers (collection_id, expiration_time) WHERE status = 'active'`,
  `CREATE INDEX IF NOT EXISTS tokens_name_trgm_gist_256
     ON tokens USING gist (token_name gist_trgm_ops(siglen = 256)) WHERE NOT is_burned`,
  'DROP INDEX IF EXISTS tokens_name_trgm_gist',
  'ALTER INDEX tokens_name_trgm_gist_256 RENAME TO tokens_name_trgm_gist',
];

const DOWN = [
  `CREATE INDEX IF NOT EXISTS tokens_name_trgm_gist_12
     ON tokens USING gist (token_name gist_trgm_ops) WHERE NOT is_burned`,
  'DROP INDEX IF EXISTS tokens_name_trgm_gist',
  'ALTER INDEX tokens_name_trgm_gist_12 RENAME TO tokens_name_trgm_gist',
  'DROP INDEX IF EXISTS collection_offers_live_collection',
  'DROP INDEX IF EXISTS token_offers_live_collection',
  'CREATE INDEX IF NOT EXISTS tokens_collection_name_plain ON tokens (collection_id, token_name, token_data_id)',
  'DROP INDEX IF EXISTS tokens_collection_name',
  'ALTER INDEX tokens_collection_name_plain RENAME TO tokens_collection_name',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
