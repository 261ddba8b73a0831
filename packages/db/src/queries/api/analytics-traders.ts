import type { Trader as TraderAnswer, TraitFloor as TraitFloorAnswer } from '@mdq/contracts';
import { sql } from 'kysely';
import type { Db } from '../../database';
import { executePrepared } from '../../prepared';
import { isNativeCoin } from '../market-rules';
import { salesOf } from './analytics-stats';
import { jsonRows } from './json-columns';
import { iso } from './pagination';

export type TraitFloor = TraitFloorAnswer;

/**
 * Every trait value of the collection with its count, share, live floor and last sale. Counts, the
 * collection's live tokens and each value's floor per coin type are read from what the database
 * keeps (trait_value_counts, collection_trait_totals, trait_value_floors): a few hundred rows of
 * three indexes, where the floors computed per request joined the collection's every active
 * listing with its tokens' attribute rows.
 */
export async function collectionTraitFloors(
  db: Db,
  collectionId: string,
  includeFlagged: boolean,
): Promise<TraitFloor[]> {
  // Prepared, as collection-stats' statements of one collection: planning them cost as much as
  // running them for most collections, and forced generic their plans were as fast for the largest
  // collection and the smallest (docs/PERFORMANCE.md). The live token count rides on each value's
  // row (a value listed means the collection has its count), saving a round trip.
  // One after another: on the answer's one connection, statements sent at once only queue in the
  // client (collectionStats says why).
  const values = await executePrepared(
    db,
    sql<{ trait_type: string; value: string; count: number; floor: string | null; live: number | null }>`
      SELECT c.trait_type, c.value, c.live_count AS count,
             (SELECT min(f.floor) FROM trait_value_floors f
               WHERE f.collection_id = ${collectionId} AND f.trait_type = c.trait_type AND f.value = c.value
                 AND ${isNativeCoin('f.coin_type')})::text AS floor,
             (SELECT live_tokens FROM collection_trait_totals WHERE collection_id = ${collectionId}) AS live
        FROM trait_value_counts c
       WHERE c.collection_id = ${collectionId} AND c.live_count > 0
       ORDER BY c.trait_type, c.value`,
  );
  const last = await traitLastSales(db, collectionId, includeFlagged);
  const live = values[0]?.live ?? 0;
  return values.map((r) => {
    const sale = last.get(traitKey(r.trait_type, r.value));
    return {
      traitType: r.trait_type,
      value: r.value,
      count: r.count,
      share: live === 0 ? null : r.count / live,
      floor: r.floor,
      lastSalePrice: sale?.price ?? null,
      lastSaleAt: iso(sale?.ts ?? null),
    };
  });
}

/** Sales read newest first for the live trait values' last sales before asking the rest by token. */
const RECENT_SALES = 2000;

export const traitKey = (traitType: string, value: string) => `${traitType}\u0000${value}`;

/**
 * The last sale (by chain order) of a token with each live trait value of the collection. Joining
 * every sale with its token's attributes and keeping the newest per value read all 191k attribute
 * rows of the 1M chain's largest collection: 365 ms. Instead, in two steps:
 * 1. Each value's newest sale among the collection's latest RECENT_SALES sales (index-only, newest
 *    first): a value's tokens sell often enough that a handful of sales finds most: 4-8 ms.
 * 2. The values not found there, when older sales exist, from their own tokens: each token's newest
 *    sale through the token index. A value missing from the recent sales is one whose tokens rarely
 *    sell, which mostly means few tokens.
 * The answer is the same as the join's: both keep, per value, the sale with the highest
 * (version, event index) among the collection's sales of tokens with that value.
 */
export async function traitLastSales(
  db: Db,
  collectionId: string,
  includeFlagged: boolean,
  recentSales = RECENT_SALES,
): Promise<Map<string, { price: string; ts: Date }>> {
  const sales = salesOf(collectionId, null, null, includeFlagged);
  const rows = await executePrepared(
    db,
    sql<{
      trait_type: string;
      value: string;
      price: string | null;
      ts: Date | null;
      complete: boolean;
    }>`
    SELECT c.trait_type, c.value, s.price::text AS price, s.ts, cut.v IS NULL AS complete
      FROM trait_value_counts c
     CROSS JOIN (SELECT (SELECT m.transaction_version FROM marketplace_activities m WHERE ${sales}
                          ORDER BY m.transaction_version DESC, m.event_index DESC
                         OFFSET ${recentSales - 1} LIMIT 1) AS v) cut
      LEFT JOIN LATERAL (
        SELECT m.price, m.transaction_timestamp AS ts FROM marketplace_activities m
         WHERE ${sales} AND m.transaction_version >= COALESCE(cut.v, 0)
           AND EXISTS (SELECT 1 FROM token_attributes a WHERE a.token_data_id = m.token_data_id
                          AND a.trait_type = c.trait_type AND a.value = c.value
                          -- The sale's token is of its collection; stated so the page reads attributes by
                          -- collection (its cache key), as a filter: an equality here let the planner
                          -- probe the collection's trait index per sale (9 -> 234 ms, the largest collection).
                          AND (a.collection_id = m.collection_id) IS TRUE)
         ORDER BY m.transaction_version DESC, m.event_index DESC LIMIT 1) s ON true
     WHERE c.collection_id = ${collectionId} AND c.live_count > 0`,
  );
  const last = new Map<string, { price: string; ts: Date }>();
  const missing: { trait_type: string; value: string }[] = [];
  for (const r of rows) {
    if (r.price !== null && r.ts !== null)
      last.set(traitKey(r.trait_type, r.value), { price: r.price, ts: r.ts });
    else if (!r.complete) missing.push(r);
  }
  if (missing.length === 0) return last;
  const older = await sql<{ trait_type: string; value: string; price: string; ts: Date }>`
    SELECT DISTINCT ON (a.trait_type, a.value) a.trait_type, a.value, s.price::text AS price, s.ts
      FROM token_attributes a
     CROSS JOIN LATERAL (
       SELECT m.price, m.transaction_timestamp AS ts, m.transaction_version AS v, m.event_index AS e
         FROM marketplace_activities m WHERE m.token_data_id = a.token_data_id AND ${sales}
        ORDER BY m.transaction_version DESC, m.event_index DESC LIMIT 1) s
     WHERE a.collection_id = ${collectionId}
       AND (a.trait_type, a.value) IN (SELECT * FROM unnest(${missing.map((m) => m.trait_type)}::text[],
                                                           ${missing.map((m) => m.value)}::text[]))
     ORDER BY a.trait_type, a.value, s.v DESC, s.e DESC`.execute(db);
  for (const r of older.rows) last.set(traitKey(r.trait_type, r.value), { price: r.price, ts: r.ts });
  return last;
}

export type Trader = TraderAnswer;

/** The collection's top buyers and sellers by volume in [from, now], largest first (ties by address). */
export async function collectionTopTraders(
  db: Db,
  collectionId: string,
  from: Date | null,
  now: Date,
  includeFlagged: boolean,
  limit: number,
): Promise<{ buyers: Trader[]; sellers: Trader[] }> {
  const side = (column: 'buyer' | 'seller') => sql<Trader>`
    SELECT m.${sql.ref(column)} AS address, sum(m.price)::text AS volume, count(*)::int AS trades
      FROM marketplace_activities m
     WHERE ${salesOf(collectionId, from, now, includeFlagged)} AND m.${sql.ref(column)} IS NOT NULL
     GROUP BY m.${sql.ref(column)}
     ORDER BY sum(m.price) DESC, m.${sql.ref(column)} LIMIT ${limit}`;
  // Prepared: one collection's sales through its index, one plan for every window. Both sides in
  // one statement, one round trip.
  const [row] = await executePrepared(
    db,
    sql<{ buyers: Trader[]; sellers: Trader[] }>`
    SELECT ${jsonRows(side('buyer'))} AS buyers, ${jsonRows(side('seller'))} AS sellers`,
  );
  return { buyers: row?.buyers ?? [], sellers: row?.sellers ?? [] };
}
