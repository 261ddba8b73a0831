import { type Kysely, sql } from 'kysely';

/*
 * The lootbox token pages count a lootbox's live tokens (`lootbox_id = $1 AND NOT is_burned`). The
 * lootbox index held the ids only, so the count read every token's row for its burn flag: 8,000
 * heap reads, 8 ms a count on the 1M chain, the live API bench's third costliest statement. With the
 * flag in the index (as `tokens_collection_name` has it) the count is an index-only scan.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS tokens_lootbox_burned ON tokens (lootbox_id, token_data_id)
              INCLUDE (is_burned) WHERE lootbox_id IS NOT NULL`.execute(db);
  await sql`DROP INDEX IF EXISTS tokens_lootbox`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS tokens_lootbox ON tokens (lootbox_id, token_data_id)
              WHERE lootbox_id IS NOT NULL`.execute(db);
  await sql`DROP INDEX IF EXISTS tokens_lootbox_burned`.execute(db);
}
