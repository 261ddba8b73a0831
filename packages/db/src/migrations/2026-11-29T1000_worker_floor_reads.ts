import { type Kysely, sql } from 'kysely';

/*
 * Indexes for the worker's floors and holder counts (issue #20; docs/PERFORMANCE.md). Each is small
 * or written rarely, so ingestion barely pays for it:
 * - tokens_burned: the burned tokens. Floors, holder counts and snapshots leave out listings and
 *   holdings of burned tokens; they asked each listing's token row, a random probe of the tokens
 *   primary key per active listing (11,862 on the 1M chain: 0.56 s cold for one floor load, 40 ms
 *   as an anti-join against this index of 7,690 entries). It changes only when a token is burned,
 *   an update that is not HOT anyway (is_burned is in other indexes).
 * - token_activities_burns: the burns with their time, which decide whether a collection's recorded
 *   floor changes can stand for its floor at a past instant (a burned token's listing counts there).
 * - collection_floor_changes_time: a collection's last floor change before an instant, one index
 *   read (the floor at a ranking window's start), where the version index walked back through
 *   every change of the window.
 */
const UP = [
  'CREATE INDEX IF NOT EXISTS tokens_burned ON tokens (token_data_id) WHERE is_burned',
  `CREATE INDEX IF NOT EXISTS token_activities_burns
     ON token_activities (token_data_id, transaction_timestamp) WHERE kind = 'burn'`,
  `CREATE INDEX IF NOT EXISTS collection_floor_changes_time
     ON collection_floor_changes (collection_id, transaction_timestamp DESC, transaction_version DESC, event_index DESC)
     INCLUDE (floor_price)`,
];

const DOWN = [
  'DROP INDEX IF EXISTS collection_floor_changes_time',
  'DROP INDEX IF EXISTS token_activities_burns',
  'DROP INDEX IF EXISTS tokens_burned',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
