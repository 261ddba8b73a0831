import { type Kysely, sql } from 'kysely';

/*
 * Token search (docs/PERFORMANCE.md, "search and rarities on the 1M chain"): a text of one or two
 * characters is answered as a prefix search in name order, a range of this index read in its own
 * order and cut at the limit. The lower(name) btree gains the token id as its second column so that
 * the order is total (names repeat: "#1" tokens of many collections) and the page needs no sort. It
 * replaces tokens_name_lower_pattern (the exact and prefix tiers of longer texts read it the same
 * way), so a token write still updates one lower(name) index.
 */
const UP = [
  `CREATE INDEX IF NOT EXISTS tokens_name_lower_order
     ON tokens (lower(token_name) text_pattern_ops, token_data_id) WHERE NOT is_burned`,
  'DROP INDEX IF EXISTS tokens_name_lower_pattern',
];

const DOWN = [
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
