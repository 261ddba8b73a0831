import type { Kysely } from 'kysely';
import { createFunctions } from '../functions';

/*
 * The notifications on `mdq_read_versions` also name each collection (or wallet bucket) whose
 * counters moved, as '<table>@<id>' (functions/bump_collection_versions.sql; more than 64 in one
 * statement: '<table>@*'). The table alone said a block's sales had moved `marketplace_activities`,
 * so every wallet's and collection's page resolved by an earlier reading needed a new one after
 * each block, though its key stood: readings ran back to back under a live chain, and a cached
 * answer waited for one. With the scopes named, a scope a commit did not touch stays resolved
 * (apps/api plugins/freshness.ts). The trigger functions now bump through bump_collection_versions,
 * which announces what it bumps, so no counter moves unannounced.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createFunctions(
    db,
    'bump_collection_versions',
    'bump_collection_version',
    'bump_token_row_collection_version',
    'bump_wallet_version',
  );
}
