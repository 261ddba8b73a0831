import { type Kysely, sql } from 'kysely';

/*
 * The Indexer GraphQL answers a v1 token's `storage_id` and a v1 collection's `table_handle_v1` by
 * the owner's table handle (`table_handle_owners` by owner and kind). Without an index each lookup
 * was a sequential scan of the table, once per row of the answer: 0.7 ms a row on the 1M chain, 145
 * of them in one owned-tokens page (docs/PERFORMANCE.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS table_handle_owners_owner ON table_handle_owners (owner_address, kind)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS table_handle_owners_owner`.execute(db);
}
