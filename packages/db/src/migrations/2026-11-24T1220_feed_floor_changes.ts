import { type Kysely, sql } from 'kysely';

/**
 * The live feed's `floor_changed` events (issue #16): one row per (collection, version) whose
 * listing events moved the collection's floor, written by the indexer in the batch's transaction.
 * `event_index` is the feed's index, FLOOR_EVENT_OFFSET + the index of the collection's last
 * listing event in that version, so the key sorts after every chain event of the version and
 * stays unique (a listing event belongs to one collection).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE IF NOT EXISTS collection_floor_changes (
      transaction_version bigint NOT NULL,
      event_index integer NOT NULL,
      collection_id text NOT NULL,
      floor_price numeric,
      previous_floor_price numeric,
      transaction_timestamp timestamptz NOT NULL,
      PRIMARY KEY (transaction_version, event_index)
    )`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS collection_floor_changes_collection
             ON collection_floor_changes (collection_id, transaction_version)`.execute(db);
  // The indexer reads each touched collection's newest listing version (a re-ingested range is
  // already reflected there and records nothing again).
  await sql`CREATE INDEX IF NOT EXISTS listings_collection_version
             ON listings (collection_id, last_transaction_version DESC)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS listings_collection_version`.execute(db);
  await sql`DROP TABLE IF EXISTS collection_floor_changes`.execute(db);
}
