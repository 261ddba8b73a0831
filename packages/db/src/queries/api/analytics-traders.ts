import { sql } from 'kysely';
import type { Db } from '../../database';
import { isNativeCoin } from '../worker/market-filters';
import { salesOf } from './analytics-stats';
import { iso } from './pagination';

export interface TraitFloor {
  traitType: string;
  value: string;
  /** Live (unburned) tokens with this value. */
  count: number;
  /** count / live tokens of the collection. */
  share: number | null;
  /** Lowest active native-coin listing among them. */
  floor: string | null;
  lastSalePrice: string | null;
  lastSaleAt: string | null;
}

/** Every trait value of the collection with its count, share, live floor and last sale. */
export async function collectionTraitFloors(
  db: Db,
  collectionId: string,
  includeFlagged: boolean,
): Promise<TraitFloor[]> {
  const [values, lastSales, supply] = await Promise.all([
    sql<{ trait_type: string; value: string; count: number; floor: string | null }>`
      SELECT a.trait_type, a.value, count(*)::int AS count,
             (SELECT min(l.price)::text FROM listings l
               WHERE l.token_data_id = ANY(array_agg(a.token_data_id)) AND l.status = 'active'
                 AND ${isNativeCoin('l.coin_type')}) AS floor
        FROM token_attributes a JOIN tokens t ON t.token_data_id = a.token_data_id
       WHERE a.collection_id = ${collectionId} AND NOT t.is_burned
       GROUP BY a.trait_type, a.value
       ORDER BY a.trait_type, a.value`.execute(db),
    sql<{ trait_type: string; value: string; price: string; ts: Date }>`
      SELECT DISTINCT ON (a.trait_type, a.value) a.trait_type, a.value, m.price::text AS price,
             m.transaction_timestamp AS ts
        FROM marketplace_activities m JOIN token_attributes a ON a.token_data_id = m.token_data_id
       WHERE ${salesOf(collectionId, null, null, includeFlagged)}
       ORDER BY a.trait_type, a.value, m.transaction_version DESC, m.event_index DESC`.execute(db),
    sql<{ live: number }>`
      SELECT count(*)::int AS live FROM tokens WHERE collection_id = ${collectionId} AND NOT is_burned`.execute(
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

export interface Trader {
  address: string;
  volume: string;
  trades: number;
}

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
