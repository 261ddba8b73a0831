import { type Kysely, sql } from 'kysely';
import { createFunctions } from '../functions';
import { createStatementTriggers } from './2026-12-01T1000_cache_collection_versions';

/*
 * Write counters per wallet bucket for the tables a wallet's pages read by a wallet column
 * (functions/bump_wallet_version.sql): a wallet's market activity, purchases and bids retire when
 * a write names a wallet of its bucket, not at every block. Keyed on the tables' global counters,
 * every block with a sale or a bid anywhere retired them all (7-9% hits under the live bench).
 * The counters share read_collection_versions (ids 'wallet:<bucket>'), its folding and its reading.
 */
const TABLES = ['marketplace_activities', 'token_offers', 'collection_offers'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  // bump_wallet_version's current text counts through bump_wallet_buckets (since 2026-12-15T1000).
  await createFunctions(db, 'bump_wallet_buckets', 'bump_wallet_version');
  for (const table of TABLES)
    await createStatementTriggers(db, table, 'wallet_version', 'bump_wallet_version');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION IF EXISTS bump_wallet_version() CASCADE`.execute(db);
}
