import { type Kysely, sql } from 'kysely';

/*
 * The chain tip the indexer last saw, so that every process (the API above all) can say how far
 * behind the chain its answers are. One row per network deployment; `seen_at` tells whether the
 * indexer is still watching (a stale row means no indexer is running).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE IF NOT EXISTS chain_tip (
      id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
      version bigint NOT NULL,
      seen_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS chain_tip`.execute(db);
}
