import type { InventoryHistory } from '@mdq/contracts';
import { sql } from 'kysely';
import type { Db } from '../../database';
import { isNativeCoin } from '../market-rules';
import { INVENTORY_BUCKET_ORIGIN, INVENTORY_BUCKETS, loadInventoryHistory } from '../worker/inventory';
import { iso } from './pagination';

export type { InventoryHistory };
export type InventoryHistoryRange = InventoryHistory['range'];
export type InventoryHistoryPoint = InventoryHistory['points'][number];

/**
 * The first instant after `now` at which the same stored snapshots give another series read from
 * them: the next bucket boundary (a bucket is added and, for a bounded range, the oldest leaves) and
 * the owner's next snapshot dated after `now` (it joins the current bucket when the clock passes
 * it). A cache keyed by the snapshots' write counter may keep such an answer until then; a live
 * point moves with the chain and is not kept at all (the route says so).
 */
export async function inventoryHistoryChangesAt(
  db: Db,
  address: string,
  history: InventoryHistory,
  now: Date,
): Promise<number> {
  const step = INVENTORY_BUCKETS[history.range].stepMs;
  const origin = Date.parse(INVENTORY_BUCKET_ORIGIN);
  const boundary = origin + (Math.floor((now.getTime() - origin) / step) + 1) * step;
  const { rows } = await sql<{ next: Date | null }>`
    SELECT min(snapshot_at) AS next FROM user_inventory_snapshots
     WHERE owner_address = ${address} AND snapshot_at > ${now}`.execute(db);
  const next = rows[0]?.next ? new Date(rows[0].next).getTime() : Infinity;
  return Math.min(boundary, next);
}

/**
 * The worker's series (one point per bucket: the latest snapshot taken by the bucket's end, so a
 * quiet bucket carries the previous value), from the owner's first snapshot on. A wallet with no
 * snapshot yet gets one point computed now, so that a holder's series is never empty.
 */
export async function inventoryHistory(
  db: Db,
  address: string,
  range: InventoryHistoryRange,
  now = new Date(),
): Promise<InventoryHistory> {
  const series = await loadInventoryHistory(db, address, range, now);
  const points: InventoryHistoryPoint[] = [];
  for (const p of series) {
    if (p.tokenCount === null || p.floorValue === null) continue;
    points.push({
      timestamp: iso(p.bucketStart) ?? '',
      tokenCount: p.tokenCount,
      floorValue: p.floorValue,
      live: false,
    });
  }
  if (points.length === 0) points.push(await liveInventoryPoint(db, address, now));
  return { address, range, bucket: INVENTORY_BUCKETS[range].step, points };
}

/** What the worker's snapshot would say now: tokens held (listed ones included) valued at live floors. */
export async function liveInventoryPoint(
  db: Db,
  address: string,
  now = new Date(),
): Promise<InventoryHistoryPoint> {
  const { rows } = await sql<{ token_count: number; floor_value: string }>`
    WITH held AS (
      SELECT collection_id, count(*) AS n FROM (
        SELECT o.collection_id FROM token_ownerships o WHERE o.owner_address = ${address} AND o.amount > 0
        UNION ALL
        -- A listed token (in escrow or a listing object) is still the seller's, as for the worker.
        SELECT l.collection_id FROM listings l
         WHERE l.status = 'active' AND l.seller = ${address}
           AND NOT EXISTS (SELECT 1 FROM token_ownerships x
                            WHERE x.token_data_id = l.token_data_id AND x.owner_address = ${address} AND x.amount > 0)
      ) h GROUP BY collection_id)
    SELECT coalesce(sum(h.n), 0)::int AS token_count,
           coalesce(round(sum(h.n * f.floor)), 0)::numeric(40, 0)::text AS floor_value
      FROM held h
      LEFT JOIN LATERAL (
        SELECT min(l.price) AS floor FROM listings l
         WHERE l.collection_id = h.collection_id AND l.status = 'active'
           AND ${isNativeCoin('l.coin_type')}) f ON true`.execute(db);
  return {
    timestamp: new Date(Math.floor(now.getTime() / 1000) * 1000).toISOString(),
    tokenCount: rows[0]?.token_count ?? 0,
    floorValue: rows[0]?.floor_value ?? '0',
    live: true,
  };
}
