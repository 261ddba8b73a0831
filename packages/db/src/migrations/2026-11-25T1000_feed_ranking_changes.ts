import { type Kysely, sql } from 'kysely';

/**
 * The live feed's `ranking_changed` events (issue #16): one row per collection whose position in a
 * collection ranking changed within the ranking's top N, written by the worker in the transaction
 * that stores the new ranking. Its key is `(V, RANKING_EVENT_OFFSET + i)` with V the indexer
 * checkpoint, read while the checkpoint tables are locked against writers: the row sorts after every
 * chain and floor event of V, the checkpoint cannot pass V before the row commits, and rows of one
 * V commit in key order (see `appendRankingChanges`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE IF NOT EXISTS collection_ranking_changes (
      transaction_version bigint NOT NULL,
      event_index integer NOT NULL,
      ranking text NOT NULL,
      collection_id text NOT NULL,
      rank integer,
      previous_rank integer,
      score double precision,
      top_n integer NOT NULL,
      window_start timestamptz,
      computed_at timestamptz NOT NULL,
      transaction_timestamp timestamptz NOT NULL,
      PRIMARY KEY (transaction_version, event_index)
    )`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS collection_ranking_changes_collection
             ON collection_ranking_changes (collection_id, transaction_version)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS collection_ranking_changes`.execute(db);
}
