import { type Kysely, sql } from 'kysely';

/*
 * A collection's burns by time (issue #35). collection-stats asks whether a listing of its
 * collection was open when its token was burned before the window's start (floorsFromChanges):
 * through token_activities_burns, keyed by token, that was a bitmap of the collection's every
 * activity ANDed with one of every burn of the chain: 35 ms a miss for the 1M chain's largest
 * collection and 8.5 ms for its 51st (a warm connection), against 3.5 and 0.35 ms through this
 * index. Burns are a sliver of the activities, so ingestion barely pays for it.
 */
const UP = [
  `CREATE INDEX IF NOT EXISTS token_activities_burns_collection
     ON token_activities (collection_id, transaction_timestamp) WHERE kind = 'burn'`,
];

const DOWN = ['DROP INDEX IF EXISTS token_activities_burns_collection'];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
