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
 * quarter of the server's time). An activity or ownership stored without its collection counts for
 * its token's (functions/bump_token_row_collection_version.sql).
 */
const TABLES = ['collection_floor_changes', 'token_attributes', 'trait_value_counts'] as const;
/** A token's rows, stored without their collection when the transaction did not name it. */
const TOKEN_ROW_TABLES = ['token_activities', 'token_ownerships'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) await createCollectionVersionTriggers(db, table);
  await createFunctions(db, 'bump_token_row_collection_version');
  for (const table of TOKEN_ROW_TABLES) {
    await createStatementTriggers(db, table, 'collection_version', 'bump_token_row_collection_version');
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [...TABLES, ...TOKEN_ROW_TABLES]) {
    for (const event of ['insert', 'update', 'delete', 'truncate']) {
      await sql.raw(`DROP TRIGGER IF EXISTS ${table}_collection_version_${event} ON ${table}`).execute(db);
    }
  }
  await sql`DROP FUNCTION IF EXISTS bump_token_row_collection_version()`.execute(db);
}
