import type { Kysely } from 'kysely';
import {
  createCollectionVersionTriggers,
  createStatementTriggers,
} from './2026-12-01T1000_cache_collection_versions';

/*
 * A token's pages (its listing card, its history) key on its collection's counters. They read the
 * token's listings, offers and market activities by the token, and a row of those stored without
 * its collection (the marketplace's event did not name it) was counted by no collection: such a
 * row now counts for its token's stored collection, or for every collection when the token is not
 * stored (functions/bump_token_row_collection_version.sql), as token activities and ownerships do
 * since 2026-12-08T1000.
 */
const TABLES = ['listings', 'token_offers', 'marketplace_activities'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    await createStatementTriggers(db, table, 'collection_version', 'bump_token_row_collection_version');
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) await createCollectionVersionTriggers(db, table);
}
