import { type Kysely, sql } from 'kysely';

/*
 * Indexes for API reads the initial schema does not serve:
 * - token-balances without greaterThanZeroBalance lists a wallet's zero balances too, which the
 *   partial (amount > 0) owner index cannot return;
 * - listing-cards' collectionUrl filter resolves collections by URI.
 * Named after the worker's 0200 so that databases that already ran 0200 apply it in order.
 */
const statements = [
  'CREATE INDEX IF NOT EXISTS ownerships_owner_all ON token_ownerships (owner_address, collection_id, token_data_id)',
  'CREATE INDEX IF NOT EXISTS collections_uri ON collections (uri)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('DROP INDEX IF EXISTS ownerships_owner_all').execute(db);
  await sql.raw('DROP INDEX IF EXISTS collections_uri').execute(db);
}
