import { type Kysely, sql } from 'kysely';
import { createFunctions } from '../functions';
import { createStatementTriggers, dropStatementTriggers } from './2026-12-01T1000_cache_collection_versions';

/*
 * The pages of a lootbox's tokens stand across blocks that touch other lootboxes (issue #35).
 * `tokens-by-lootbox` and `tokens-by-lootbox-creator` keyed on the global counters of `tokens`,
 * token documents, `lootboxes` and `collections`, which a moving chain writes several times a second
 * (20-24% hits). Now:
 * - `tokens` (by lootbox_id) and `metadata_documents` (by their token's) join the per-lootbox
 *   counters (bump_lootbox_version, applied again with its new branches);
 * - the pseudo-table 'collections:identity' counts a collection's writes other than those of the
 *   four columns that move with its tokens (bump_collection_identity_version): a page that shows a
 *   token's collection by name, creator and URI keys on it, and an owner count moving in every
 *   block retires it no more;
 * - a pair's own counter ('collections:name', bump_collection_name_version, applied again) moves on
 *   an update only where a row's (creator, name) changed: it moved at every update, so a collection's
 *   counts retired every page asked by its pair.
 */
const LOOTBOX_TABLES = ['tokens', 'metadata_documents'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await createFunctions(
    db,
    'bump_lootbox_version',
    'bump_collection_identity_version',
    'bump_collection_name_version',
  );
  for (const table of LOOTBOX_TABLES)
    await createStatementTriggers(db, table, 'lootbox_version', 'bump_lootbox_version');
  await createStatementTriggers(db, 'collections', 'identity_version', 'bump_collection_identity_version');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION IF EXISTS bump_collection_identity_version() CASCADE`.execute(db);
  for (const table of LOOTBOX_TABLES)
    await dropStatementTriggers(db, table, 'lootbox_version', 'bump_lootbox_version');
}
