import { type Kysely, sql } from 'kysely';
import { createFunctions } from '../functions';
import { createStatementTriggers } from './2026-12-01T1000_cache_collection_versions';

/*
 * Write counters per lootbox for the tables a lootbox's pages read by that lootbox
 * (functions/bump_lootbox_version.sql), counted under its id and under its (creator, collection
 * name) pair: `lootbox`, `lootbox-revenue` and `rarities-by-lootbox` retire when their lootbox is
 * bought, revealed or changed, not at every purchase or reveal of any lootbox. Keyed on the tables'
 * global counters, a lootbox write anywhere (about two a second on the live bench) retired them all
 * (16-33% hits). The counters share read_collection_versions (ids 'lootbox:<id>' and
 * 'lootbox:<creator>/<name>'), its folding, its reading and its announcements.
 */
const TABLES = ['lootboxes', 'lootbox_tiers', 'lootbox_purchases', 'lootbox_revenue_days'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await createFunctions(db, 'bump_lootbox_version');
  for (const table of TABLES)
    await createStatementTriggers(db, table, 'lootbox_version', 'bump_lootbox_version');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION IF EXISTS bump_lootbox_version() CASCADE`.execute(db);
}
