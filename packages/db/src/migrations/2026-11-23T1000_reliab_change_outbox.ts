import { type Kysely, sql } from 'kysely';

/*
 * The indexer's outbox of collection-changed jobs: written in the same transaction as the batch
 * that touched the collection, deleted once the job is enqueued. Ingestion never waits for Redis;
 * what it could not enqueue while Redis was down is still here when Redis returns (or after a crash).
 * One row per collection: a newer change only raises the version.
 */
const statements = [
  `CREATE TABLE IF NOT EXISTS collection_change_outbox (
    collection_id text PRIMARY KEY,
    version bigint NOT NULL
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('DROP TABLE IF EXISTS collection_change_outbox').execute(db);
}
