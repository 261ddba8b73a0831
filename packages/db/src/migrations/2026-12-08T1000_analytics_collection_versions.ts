import { type Kysely, sql } from 'kysely';
import { createFunctions } from '../functions';
import {
  createCollectionVersionTriggers,
  createStatementTriggers,
} from './2026-12-01T1000_cache_collection_versions';

/*
 * `token_ownerships`, `collection_floor_changes`, `token_activities`, `token_attributes` and
 * `trait_value_counts` join the per-collection write counters (read_collection_versions): with them
 * every table collection-stats and collection-trait-floors read is counted per collection, so a
 * block that moves tokens of one collection, or a metadata document that gives one token its traits,
 * no longer retires every collection's answers (13-15% hits under the live bench; the two routes a
 * quarter of the server's time). An activity stored without its collection counts for its token's
 * (functions/bump_token_activity_collection_version.sql).
 */
const TABLES = [
  'token_ownerships',
  'collection_floor_changes',
  'token_attributes',
  'trait_value_counts',
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) await createCollectionVersionTriggers(db, table);
  await createFunctions(db, 'bump_token_activity_collection_version');
  await createStatementTriggers(
    db,
    'token_activities',
    'collection_version',
    'bump_token_activity_collection_version',
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [...TABLES, 'token_activities']) {
    for (const event of ['insert', 'update', 'delete', 'truncate']) {
      await sql.raw(`DROP TRIGGER IF EXISTS ${table}_collection_version_${event} ON ${table}`).execute(db);
    }
  }
  await sql`DROP FUNCTION IF EXISTS bump_token_activity_collection_version()`.execute(db);
}
