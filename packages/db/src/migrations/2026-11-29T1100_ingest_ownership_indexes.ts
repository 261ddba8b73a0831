import { type Kysely, sql } from 'kysely';

/*
 * One index fewer on token_ownerships, the table every batch writes most (issue #20). An ownership
 * write changes its amount, which the partial indexes' predicates read, so no such update is HOT:
 * every row written goes into every index of the table. ownerships_owner_all
 * (owner, collection, token; 2026-11-22T0300) served a wallet's balances including zero ones;
 * ownerships_owner_page (owner, coalesce(collection, ''), token, property version; 2026-11-24T1250)
 * has since served the same reads by the same leading column, in the page's order, and the
 * EXPLAIN test (apps/api/test/index-plans.test.ts) finds every read index-backed without it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS ownerships_owner_all`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS ownerships_owner_all ON token_ownerships (owner_address, collection_id, token_data_id)`.execute(
    db,
  );
}
