import { type Kysely, sql } from 'kysely';

/*
 * Indexes for the worker's own reads:
 * - the floor at a past time (a backfill has no snapshots yet) is rebuilt from the listings of the
 *   ranked collections that were open then;
 * - the hourly inventory snapshot finds wallets whose last snapshot still held tokens by time.
 */
const statements = [
  'CREATE INDEX IF NOT EXISTS listings_collection_listed ON listings (collection_id, listed_at) INCLUDE (closed_at, price)',
  'CREATE INDEX IF NOT EXISTS user_inventory_snapshots_time ON user_inventory_snapshots (snapshot_at)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('DROP INDEX IF EXISTS listings_collection_listed').execute(db);
  await sql.raw('DROP INDEX IF EXISTS user_inventory_snapshots_time').execute(db);
}
