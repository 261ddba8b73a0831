import type { Trader as TraderAnswer, TraitFloor as TraitFloorAnswer } from '@mdq/contracts';
import { sql } from 'kysely';
import type { Db } from '../../database';
import { isNativeCoin } from '../market-rules';
import { salesOf } from './analytics-stats';
import { iso } from './pagination';

export type TraitFloor = TraitFloorAnswer;

/**
 * Every trait value of the collection with its count, share, live floor and last sale. Counts and
 * the collection's live tokens are read from what the database keeps (trait_value_counts,
 * collection_trait_totals); the floors are one pass over the collection's active listings joined
 * with their tokens' attribute rows, rather than a listing probe per token of each value.
 */
export async function collectionTraitFloors(
  db: Db,
  collectionId: string,
  includeFlagged: boolean,
): Promise<TraitFloor[]> {
  const [values, lastSales, supply] = await Promise.all([
    sql<{ trait_type: string; value: string; count: number; floor: string | null }>`
      WITH floors AS (
        SELECT a.trait_type, a.value, min(l.price) AS floor
          FROM token_attributes a
          JOIN listings l ON l.token_data_id = a.token_data_id
          JOIN tokens t ON t.token_data_id = a.token_data_id
         WHERE a.collection_id = ${collectionId} AND l.status = 'active' AND ${isNativeCoin('l.coin_type')}
           -- The listing's own collection too, so the collection's active listings come from their
           -- index: without it, the 1M chain's plan read every active listing of every collection.
           AND l.collection_id = ${collectionId}
           AND NOT t.is_burned
         GROUP BY a.trait_type, a.value
      )
      SELECT c.trait_type, c.value, c.live_count AS count, f.floor::text AS floor
        FROM trait_value_counts c
        LEFT JOIN floors f ON f.trait_type = c.trait_type AND f.value = c.value
       WHERE c.collection_id = ${collectionId} AND c.live_count > 0
       ORDER BY c.trait_type, c.value`.execute(db),
    sql<{ trait_type: string; value: string; price: string; ts: Date }>`
      SELECT DISTINCT ON (a.trait_type, a.value) a.trait_type, a.value, m.price::text AS price,
             m.transaction_timestamp AS ts
        FROM marketplace_activities m JOIN token_attributes a ON a.token_data_id = m.token_data_id
       WHERE ${salesOf(collectionId, null, null, includeFlagged)}
       ORDER BY a.trait_type, a.value, m.transaction_version DESC, m.event_index DESC`.execute(db),
    sql<{ live: number }>`
      SELECT live_tokens AS live FROM collection_trait_totals WHERE collection_id = ${collectionId}`.execute(
      db,
    ),
  ]);
  const last = new Map(lastSales.rows.map((r) => [`${r.trait_type}\u0000${r.value}`, r]));
  const live = supply.rows[0]?.live ?? 0;
  return values.rows.map((r) => {
    const sale = last.get(`${r.trait_type}\u0000${r.value}`);
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
  const [buyers, sellers] = await Promise.all([side('buyer').execute(db), side('seller').execute(db)]);
  return { buyers: buyers.rows, sellers: sellers.rows };
}
