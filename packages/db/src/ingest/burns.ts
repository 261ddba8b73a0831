import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../database';
import { lastByKey } from './bulk';
import type { IngestBatch } from './types';

type Marks = { token_data_id: string; last_transaction_version: number }[];

/**
 * Marks burned tokens. `burnedTokens` are gone for good (a v2 object deleted or soft-burned, a v1
 * TokenData deleted); a v1 burn that left the TokenData (untracked supply, or copies left) marks
 * the token only when no positive balance of it remains once this batch's balances are written.
 * A v1 token data burned for good can be created and minted again under the same name (same id):
 * a later mint makes it live again (first, so a burn after it in the batch still counts).
 */
export async function writeBurns(db: Db, batch: IngestBatch): Promise<number> {
  const v1Mints = batch.tokenActivities
    .filter((a) => a.kind === 'mint' && a.token_standard === 'v1')
    .map((a) => ({ token_data_id: a.token_data_id, last_transaction_version: a.transaction_version }));
  let rows = await setBurned(db, v1Mints, false, sql`t.is_burned AND t.token_standard = 'v1'`);

  const gone = lastByKey(batch.burnedTokens, (r) => r.token_data_id);
  rows += await setBurned(db, gone, true, sql`true`);
  if (gone.length > 0) {
    const { tokens, versions } = columns(gone);
    const owners = await sql`
      UPDATE token_ownerships o SET amount = 0, last_transaction_version = n.version
      FROM unnest(${tokens}::text[], ${versions}::bigint[]) AS n(token, version)
      WHERE o.token_data_id = n.token AND o.token_standard = 'v2' AND o.amount > 0 AND o.last_transaction_version <= n.version
        AND o.token_data_id = ANY(${tokens}::text[])
    `.execute(db);
    rows += Number(owners.numAffectedRows ?? 0) + (await cancelListings(db, gone));
  }

  const unlessHeld = lastByKey(batch.v1BurnedUnlessHeld, (r) => r.token_data_id);
  rows += await setBurned(
    db,
    unlessHeld,
    true,
    sql`t.token_standard = 'v1' AND NOT t.is_burned
      AND NOT EXISTS (SELECT 1 FROM token_ownerships o WHERE o.token_data_id = n.token AND o.amount > 0)`,
  );
  // Only the ones that were marked: a token still held keeps its listings.
  rows += await cancelListings(
    db,
    unlessHeld,
    sql`AND EXISTS (SELECT 1 FROM tokens t WHERE t.token_data_id = n.token AND t.is_burned)`,
  );
  return rows;
}

function columns(marks: Marks): { tokens: string[]; versions: number[] } {
  return {
    tokens: marks.map((m) => m.token_data_id),
    versions: marks.map((m) => m.last_transaction_version),
  };
}

/** Sets `is_burned` on the tokens whose row is not newer than the mark and meets `condition`. */
async function setBurned(
  db: Db,
  marks: Marks,
  burned: boolean,
  condition: RawBuilder<unknown>,
): Promise<number> {
  if (marks.length === 0) return 0;
  const { tokens, versions } = columns(lastByKey(marks, (m) => m.token_data_id));
  const result = await sql`
    UPDATE tokens t SET is_burned = ${burned}, last_transaction_version = GREATEST(t.last_transaction_version, n.version)
    FROM unnest(${tokens}::text[], ${versions}::bigint[]) AS n(token, version)
    WHERE t.token_data_id = n.token AND t.last_transaction_version <= n.version
      AND t.token_data_id = ANY(${tokens}::text[]) AND ${condition}
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** A burned token can no longer be bought: its listings stop counting toward floors. */
async function cancelListings(db: Db, marks: Marks, condition: RawBuilder<unknown> = sql``): Promise<number> {
  if (marks.length === 0) return 0;
  const { tokens, versions } = columns(marks);
  const result = await sql`
    UPDATE listings l SET status = 'cancelled', closed_at = NULL, last_transaction_version = n.version
    FROM unnest(${tokens}::text[], ${versions}::bigint[]) AS n(token, version)
    WHERE l.token_data_id = n.token AND l.status = 'active' AND l.last_transaction_version <= n.version
      AND l.token_data_id = ANY(${tokens}::text[]) ${condition}
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
