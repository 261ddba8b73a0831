import { type Kysely, sql } from 'kysely';
import { createFunctions } from '../functions';
import { createStatementTriggers, dropStatementTriggers } from './2026-12-01T1000_cache_collection_versions';

/*
 * A wallet's holdings pages stand across blocks that touch other wallets (issue #35).
 * `token-balances` and `market/user-listings` keyed on the global counters of `token_ownerships`,
 * `listings` and `tokens`, which a moving chain writes in every block (17% hits under the live
 * bench). Now they join the wallet bucket counters (read_collection_versions, 'wallet:<bucket>'):
 * - ownerships by their owner and listings by their seller (bump_wallet_version, applied again
 *   with its new branches);
 * - a token's row by the wallets that have an ownership row or a listing of it
 *   (bump_wallet_tokens_version): a page reads the rows of its wallet's tokens;
 * - a statement of more than 64 buckets (a backfill batch) moves '*' rather than each bucket
 *   (bump_wallet_buckets, which bump_wallet_version now counts through too).
 */
const OWN_ROWS = ['token_ownerships', 'listings'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await createFunctions(db, 'bump_wallet_buckets', 'bump_wallet_version', 'bump_wallet_tokens_version');
  for (const table of OWN_ROWS)
    await createStatementTriggers(db, table, 'wallet_version', 'bump_wallet_version');
  await createStatementTriggers(db, 'tokens', 'wallet_tokens_version', 'bump_wallet_tokens_version');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION IF EXISTS bump_wallet_tokens_version() CASCADE`.execute(db);
  // bump_wallet_version (2026-12-07T1000) keeps calling bump_wallet_buckets: it stays.
  for (const table of OWN_ROWS)
    await dropStatementTriggers(db, table, 'wallet_version', 'bump_wallet_version');
}
