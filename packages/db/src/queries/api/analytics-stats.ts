import type { CollectionStats } from '@mdq/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../database';
import { executePrepared, unestimated } from '../../prepared';
import { isNativeCoin, isSale } from '../market-rules';
import { holderCount } from '../worker/rankings';
import { loadCurrentFloors, loadExactFloorsAt } from '../worker/snapshots';
import { jsonRow } from './json-columns';
import { iso } from './pagination';

export const ANALYTICS_WINDOWS = ['1h', '24h', '7d', '30d', 'all'] as const;
export type AnalyticsWindow = (typeof ANALYTICS_WINDOWS)[number];

const WINDOW_MS: Record<Exclude<AnalyticsWindow, 'all'>, number> = {
  '1h': 3_600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
};

/** Start of a trailing window ending at `now` (null = all time). A sale at the start is inside. */
export function windowStart(window: AnalyticsWindow, now: Date): Date | null {
  return window === 'all' ? null : new Date(now.getTime() - WINDOW_MS[window]);
}

export async function collectionExists(db: Db, collectionId: string): Promise<boolean> {
  const row = await db
    .selectFrom('collections')
    .select('collection_id')
    .where('collection_id', '=', collectionId)
    .executeTakeFirst();
  return row !== undefined;
}

/*
 * The sales an analytics figure counts: fills of the collection in the native coin, in [from, to],
 * without wash-flagged ones unless asked. Served by market_activities_collection_sales.
 */
export function salesOf(
  collectionId: string,
  from: Date | null,
  to: Date | null,
  includeFlagged: boolean,
): RawBuilder<boolean> {
  return sql<boolean>`m.collection_id = ${collectionId}
    AND ${isSale('m.kind')}
    AND ${from === null ? sql`true` : sql`m.transaction_timestamp >= ${from}`}
    AND ${to === null ? sql`true` : sql`m.transaction_timestamp <= ${to}`}
    AND ${isNativeCoin('m.coin_type')}
    AND ${includeFlagged ? sql`true` : sql`m.wash_flags = '{}'`}`;
}

export type { CollectionStats };

function ratio(part: bigint | number, whole: bigint | number | null): number | null {
  if (whole === null || Number(whole) === 0) return null;
  return Number(part) / Number(whole);
}

/** Windowed statistics of one collection at `now`; null when the collection is unknown. */
export async function collectionStats(
  db: Db,
  collectionId: string,
  window: AnalyticsWindow,
  now: Date,
  includeFlagged: boolean,
): Promise<CollectionStats | null> {
  // The figures that read this one collection through one index each are one prepared statement:
  // for most collections planning them cost a third of the answer (docs/PERFORMANCE.md), their plans
  // are the same for the largest collection and the smallest and for every window, and as subqueries
  // of one statement they cost one round trip instead of seven. The floors, shared with the
  // worker's many collections, are planned each time, after it.
  const start = windowStart(window, now);
  const [row] = await executePrepared(
    db,
    sql<{
      collection_name: string;
      creator_address: string;
      sales: { volume: string; sales: number; median: string | null; buyers: number; sellers: number };
      flagged: { sales: number; volume: string };
      holders: number;
      top_held: number;
      offer: string | null;
      live: string;
      burned: string;
    }>`
    SELECT c.collection_name, c.creator_address,
      ${jsonRow(sql`
        SELECT COALESCE(sum(m.price), 0)::text AS volume, count(*)::int AS sales,
               (percentile_disc(0.5) WITHIN GROUP (ORDER BY m.price))::text AS median,
               count(DISTINCT m.buyer)::int AS buyers, count(DISTINCT m.seller)::int AS sellers
          FROM marketplace_activities m WHERE ${salesOf(collectionId, start, now, includeFlagged)}`)} AS sales,
      ${jsonRow(sql`
        SELECT count(*)::int AS sales, COALESCE(sum(m.price), 0)::text AS volume
          FROM marketplace_activities m
         WHERE ${salesOf(collectionId, start, now, true)} AND m.wash_flags <> '{}'`)} AS flagged,
      ${holderCount(sql`${collectionId}`)} AS holders,
      -- The ten largest holdings (top10HoldersShare), kept per holder by the writers' triggers
      -- (collection_holdings, migration 2026-12-17T1000): the first ten entries of an index, where
      -- grouping the collection's every holding took 33-150 ms for the 1M chain's largest.
      (SELECT COALESCE(sum(top.held), 0)::int FROM (
        SELECT h.held FROM collection_holdings h WHERE h.collection_id = ${collectionId}
         ORDER BY h.held DESC LIMIT 10) top) AS top_held,
      (SELECT max(o.price)::text FROM collection_offers o
        WHERE o.collection_id = ${collectionId} AND o.status = 'active' AND o.remaining_amount > 0
          AND (o.expiration_time IS NULL OR o.expiration_time > ${unestimated(now)})
          AND ${isNativeCoin('o.coin_type')}) AS offer,
      -- v2 collections carry no maintained supply. The live tokens are the count the tokens' trigger
      -- keeps (collection_trait_totals, as trait floors read it); minted adds the burned ones, few and
      -- in their own index, rather than reading the collection's every token entry (27 ms for 32k).
      COALESCE((SELECT live_tokens FROM collection_trait_totals WHERE collection_id = ${collectionId}), 0)::text AS live,
      (SELECT count(*) FROM tokens WHERE collection_id = ${collectionId} AND is_burned)::text AS burned
    FROM collections c WHERE c.collection_id = ${collectionId}`,
  );
  if (!row) return null;
  // One after another: `db` is the answer's one connection (the API's analyticsAnswer), where
  // statements sent at once only queue in the client, a use pg deprecates (an error from pg 9).
  const floors = await loadCurrentFloors(db, [collectionId]);
  // The floor at the exact instant the window starts, not the hourly snapshot before it.
  const floorsAt = start === null ? null : await loadExactFloorsAt(db, [collectionId], start);
  const s = row.sales;
  const count = s.sales;
  const volume = s.volume;
  const floor = floors.get(collectionId)?.floor ?? null;
  const floorAtStart = floorsAt?.get(collectionId) ?? null;
  const supply = row.live;
  const burned = row.burned;
  const listed = floors.get(collectionId)?.listed ?? 0;
  return {
    collectionId,
    collection: row.collection_name,
    creator: row.creator_address,
    window,
    windowStart: iso(start),
    windowEnd: now.toISOString(),
    includeFlagged,
    volume,
    sales: count,
    averageSale: count === 0 ? null : String(BigInt(volume) / BigInt(count)),
    medianSale: s.median,
    uniqueBuyers: s.buyers,
    uniqueSellers: s.sellers,
    flaggedSales: row.flagged.sales,
    flaggedVolume: row.flagged.volume,
    floor,
    floorAtWindowStart: floorAtStart,
    floorChange:
      floor === null || floorAtStart === null || BigInt(floorAtStart) === 0n
        ? null
        : Number(BigInt(floor) - BigInt(floorAtStart)) / Number(floorAtStart),
    bestCollectionOffer: row.offer,
    listedCount: listed,
    listedShare: ratio(listed, BigInt(supply)),
    holders: row.holders,
    top10HoldersShare: ratio(row.top_held, BigInt(supply)),
    supply,
    minted: String(BigInt(supply) + BigInt(burned)),
    burned,
  };
}
