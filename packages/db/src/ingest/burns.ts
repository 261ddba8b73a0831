import { sql } from 'kysely';
import type { Db } from '../database';
import { lastByKey } from './bulk';
import type { IngestBatch } from './types';

/**
 * Marks burned tokens. `burnedTokens` are gone for good (a v2 object deleted or soft-burned, a v1
 * TokenData deleted); a v1 burn that left the TokenData (untracked supply, or copies left) marks
 * the token only when no positive balance of it remains once this batch's balances are written.
 * A v1 token data burned for good can be created and minted again under the same name (same id):
 * a later mint makes it live again (first, so a burn after it in the batch still counts).
 */
export async function writeBurns(db: Db, batch: IngestBatch): Promise<number> {
  const revived = await reviveV1Mints(db, batch);
  return revived + (await writeGoneTokens(db, batch)) + (await writeV1BurnsUnlessHeld(db, batch));
}

async function reviveV1Mints(db: Db, batch: IngestBatch): Promise<number> {
  const mints = lastByKey(
    batch.tokenActivities.filter((a) => a.kind === 'mint' && a.token_standard === 'v1'),
    (a) => a.token_data_id,
  );
  if (mints.length === 0) return 0;
  const tokens = mints.map((m) => m.token_data_id);
  const versions = mints.map((m) => m.transaction_version);
  const revived = await sql`
    UPDATE tokens t SET is_burned = false, last_transaction_version = GREATEST(t.last_transaction_version, n.version)
    FROM unnest(${tokens}::text[], ${versions}::bigint[]) AS n(token, version)
    WHERE t.token_data_id = n.token AND t.is_burned AND t.token_standard = 'v1'
      AND t.last_transaction_version <= n.version AND t.token_data_id = ANY(${tokens}::text[])
  `.execute(db);
  return Number(revived.numAffectedRows ?? 0);
}

async function writeV1BurnsUnlessHeld(db: Db, batch: IngestBatch): Promise<number> {
  const burns = lastByKey(batch.v1BurnedUnlessHeld, (r) => r.token_data_id);
  if (burns.length === 0) return 0;
  const tokens = burns.map((b) => b.token_data_id);
  const versions = burns.map((b) => b.last_transaction_version);
  const marked = await sql`
    UPDATE tokens t SET is_burned = true, last_transaction_version = GREATEST(t.last_transaction_version, n.version)
    FROM unnest(${tokens}::text[], ${versions}::bigint[]) AS n(token, version)
    WHERE t.token_data_id = n.token AND t.token_standard = 'v1' AND NOT t.is_burned
      AND t.last_transaction_version <= n.version AND t.token_data_id = ANY(${tokens}::text[])
      AND NOT EXISTS (SELECT 1 FROM token_ownerships o WHERE o.token_data_id = n.token AND o.amount > 0)
  `.execute(db);
  const listings = await cancelListings(db, tokens, versions, true);
  return Number(marked.numAffectedRows ?? 0) + listings;
}

async function writeGoneTokens(db: Db, batch: IngestBatch): Promise<number> {
  const burns = lastByKey(batch.burnedTokens, (r) => r.token_data_id);
  if (burns.length === 0) return 0;
  const tokens = burns.map((b) => b.token_data_id);
  const versions = burns.map((b) => b.last_transaction_version);
  const marked = await sql`
    UPDATE tokens t SET is_burned = true, last_transaction_version = GREATEST(t.last_transaction_version, n.version)
    FROM unnest(${tokens}::text[], ${versions}::bigint[]) AS n(token, version)
    WHERE t.token_data_id = n.token AND t.last_transaction_version <= n.version AND t.token_data_id = ANY(${tokens}::text[])
  `.execute(db);
  const owners = await sql`
    UPDATE token_ownerships o SET amount = 0, last_transaction_version = n.version
    FROM unnest(${tokens}::text[], ${versions}::bigint[]) AS n(token, version)
    WHERE o.token_data_id = n.token AND o.token_standard = 'v2' AND o.amount > 0 AND o.last_transaction_version <= n.version
      AND o.token_data_id = ANY(${tokens}::text[])
  `.execute(db);
  const listings = await cancelListings(db, tokens, versions, false);
  return [marked, owners].reduce((sum, r) => sum + Number(r.numAffectedRows ?? 0), listings);
}

/** A burned token can no longer be bought: its listings stop counting toward floors. */
async function cancelListings(
  db: Db,
  tokens: string[],
  versions: number[],
  onlyIfBurned: boolean,
): Promise<number> {
  const result = await sql`
    UPDATE listings l SET status = 'cancelled', closed_at = NULL, last_transaction_version = n.version
    FROM unnest(${tokens}::text[], ${versions}::bigint[]) AS n(token, version)
    WHERE l.token_data_id = n.token AND l.status = 'active' AND l.last_transaction_version <= n.version
      AND l.token_data_id = ANY(${tokens}::text[])
      ${onlyIfBurned ? sql`AND EXISTS (SELECT 1 FROM tokens t WHERE t.token_data_id = n.token AND t.is_burned)` : sql``}
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
