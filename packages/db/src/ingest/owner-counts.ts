import { sql } from 'kysely';
import type { Db } from '../database';

export interface HolderPair {
  collectionId: string;
  owner: string;
}

/**
 * Collection owner counts are kept by delta: for every (collection, wallet) pair a batch can affect,
 * whether the wallet held any token of the collection before and after the batch's writes. The cost
 * is one index probe per pair, independent of the collection's size, and a replayed batch changes
 * no holding, so it adds nothing.
 */
export async function pairsAffected(
  db: Db,
  named: readonly HolderPair[],
  tokensChangingHands: readonly string[],
): Promise<HolderPair[]> {
  const pairs = new Map(named.map((p) => [`${p.collectionId}|${p.owner}`, p]));
  if (tokensChangingHands.length > 0) {
    // Previous holders of v2 tokens and burned tokens are not named in the batch's facts. One
    // primary-key probe per token (a LATERAL subquery that OFFSET 0 keeps from being flattened):
    // offered `token_data_id = ANY(...)`, the planner read the whole table whenever its statistics
    // lagged, and even with fresh ones up to ~100k rows, so a batch cost as much as the table was big.
    const { rows } = await sql<{ collection_id: string; owner_address: string }>`
      SELECT DISTINCT o.collection_id, o.owner_address
        FROM unnest(${[...new Set(tokensChangingHands)]}::text[]) AS k(token)
        CROSS JOIN LATERAL (
          SELECT collection_id, owner_address FROM token_ownerships
           WHERE token_data_id = k.token AND amount > 0 AND collection_id IS NOT NULL OFFSET 0) o
    `.execute(db);
    for (const r of rows)
      pairs.set(`${r.collection_id}|${r.owner_address}`, {
        collectionId: r.collection_id,
        owner: r.owner_address,
      });
  }
  return [...pairs.values()];
}

export async function holdings(db: Db, pairs: readonly HolderPair[]): Promise<boolean[]> {
  if (pairs.length === 0) return [];
  const { rows } = await sql<{ i: number; holds: boolean }>`
    SELECT k.i::int AS i, EXISTS (
      SELECT 1 FROM token_ownerships o
      WHERE o.owner_address = k.owner AND o.collection_id = k.collection_id AND o.amount > 0
    ) AS holds
    FROM unnest(${pairs.map((p) => p.collectionId)}::text[], ${pairs.map((p) => p.owner)}::text[])
      WITH ORDINALITY AS k(collection_id, owner, i)
  `.execute(db);
  const out = new Array<boolean>(pairs.length).fill(false);
  for (const r of rows) out[r.i - 1] = r.holds;
  return out;
}

export async function applyOwnerCountDeltas(
  db: Db,
  pairs: readonly HolderPair[],
  before: readonly boolean[],
  after: readonly boolean[],
): Promise<void> {
  const deltas = new Map<string, number>();
  pairs.forEach((p, i) => {
    const d = Number(after[i] ?? false) - Number(before[i] ?? false);
    if (d !== 0) deltas.set(p.collectionId, (deltas.get(p.collectionId) ?? 0) + d);
  });
  if (deltas.size === 0) return;
  await sql`
    UPDATE collections c SET owner_count = GREATEST(c.owner_count + d.delta, 0)
    FROM unnest(${[...deltas.keys()]}::text[], ${[...deltas.values()]}::int[]) AS d(id, delta)
    WHERE c.collection_id = d.id
  `.execute(db);
}

/** A collection row created after some of its tokens were already held starts from a full count. */
export async function recountOwners(db: Db, collectionIds: readonly string[]): Promise<void> {
  if (collectionIds.length === 0) return;
  await sql`
    UPDATE collections c SET owner_count = (
      SELECT count(DISTINCT owner_address)::int FROM token_ownerships
      WHERE collection_id = c.collection_id AND amount > 0)
    WHERE c.collection_id = ANY(${[...collectionIds]}::text[])
  `.execute(db);
}
