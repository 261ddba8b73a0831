import { type Kysely, sql } from 'kysely';

/*
 * Reads answered from an index in the answer's order (docs/PERFORMANCE.md, "search and rarities on
 * the 1M chain"):
 * - token search answers a text of one or two characters as a prefix search in name order: a range
 *   of this lower(name) btree read in its own order and cut at the limit. The token id as second
 *   column makes the order total (names repeat: the "#1" of many collections), so the page needs no
 *   sort. It replaces tokens_name_lower_pattern (the exact and prefix tiers of longer texts read it
 *   the same way), so a token write still updates one lower(name) index.
 * - rarities-by-collection reads a collection's rarity rows in rank order; with the rest of the row
 *   in the index (INCLUDE) that range is an index-only scan, instead of one heap visit per row up to
 *   the page's reach (the planner chose a bitmap of the whole collection and a sort for deeper pages).
 *   It replaces token_rarity_collection: same index count.
 */
const UP = [
  `CREATE INDEX IF NOT EXISTS tokens_name_lower_order
     ON tokens (lower(token_name) text_pattern_ops, token_data_id) WHERE NOT is_burned`,
  'DROP INDEX IF EXISTS tokens_name_lower_pattern',
  `CREATE INDEX IF NOT EXISTS token_rarity_collection_rank
     ON token_rarity (collection_id, rank, token_data_id) INCLUDE (score, trait_count, computed_at)`,
  'DROP INDEX IF EXISTS token_rarity_collection',
];

const DOWN = [
  'CREATE INDEX IF NOT EXISTS token_rarity_collection ON token_rarity (collection_id, rank, token_data_id)',
  'DROP INDEX IF EXISTS token_rarity_collection_rank',
  `CREATE INDEX IF NOT EXISTS tokens_name_lower_pattern
     ON tokens (lower(token_name) text_pattern_ops) WHERE NOT is_burned`,
  'DROP INDEX IF EXISTS tokens_name_lower_order',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
