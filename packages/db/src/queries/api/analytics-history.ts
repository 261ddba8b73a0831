import type { HistoryBucket as HistoryBucketAnswer } from '@mdq/contracts';
import { sql } from 'kysely';
import type { Db } from '../../database';
import { executePrepared } from '../../prepared';
import { salesOf } from './analytics-stats';

export const HISTORY_INTERVALS = { '1h': 3_600_000, '1d': 86_400_000 } as const;
export type HistoryInterval = keyof typeof HISTORY_INTERVALS;

export type HistoryBucket = HistoryBucketAnswer;

/** Aligns `t` down to the interval (UTC). */
export function bucketStart(t: Date, interval: HistoryInterval): Date {
  const ms = HISTORY_INTERVALS[interval];
  return new Date(Math.floor(t.getTime() / ms) * ms);
}

/**
 * Gap-free buckets from the bucket holding `from` to the one holding `to`: sale OHLC, volume and
 * count (wash-flagged sales left out unless asked), and the floor at each bucket's end from
 * collection_snapshots. The last sale and snapshot before `from` seed the carried values.
 */
export async function collectionHistory(
  db: Db,
  collectionId: string,
  interval: HistoryInterval,
  from: Date,
  to: Date,
  includeFlagged: boolean,
): Promise<HistoryBucket[]> {
  const ms = HISTORY_INTERVALS[interval];
  const first = bucketStart(from, interval);
  const end = new Date(bucketStart(to, interval).getTime() + ms);
  const [sales, before, snaps, snapBefore] = await Promise.all([
    // Prepared: each reads the one collection through one index, in one plan for every range
    // (docs/PERFORMANCE.md, trait floors and collection-stats).
    executePrepared(
      db,
      sql<{ price: string; ts: Date }>`
      SELECT m.price::text AS price, m.transaction_timestamp AS ts FROM marketplace_activities m
       WHERE ${salesOf(collectionId, first, new Date(end.getTime() - 1), includeFlagged)}
       ORDER BY m.transaction_timestamp, m.transaction_version, m.event_index`,
    ),
    executePrepared(
      db,
      sql<{ price: string }>`
      SELECT m.price::text AS price FROM marketplace_activities m
       WHERE ${salesOf(collectionId, null, new Date(first.getTime() - 1), includeFlagged)}
       ORDER BY m.transaction_timestamp DESC, m.transaction_version DESC, m.event_index DESC LIMIT 1`,
    ),
    executePrepared(
      db,
      sql<{ floor: string | null; at: Date }>`
      SELECT floor_price::text AS floor, snapshot_at AS at FROM collection_snapshots
       WHERE collection_id = ${collectionId} AND snapshot_at >= ${first} AND snapshot_at < ${end}
       ORDER BY snapshot_at`,
    ),
    executePrepared(
      db,
      sql<{ floor: string | null }>`
      SELECT floor_price::text AS floor FROM collection_snapshots
       WHERE collection_id = ${collectionId} AND snapshot_at < ${first}
       ORDER BY snapshot_at DESC LIMIT 1`,
    ),
  ]);
  const buckets: HistoryBucket[] = [];
  let close: string | null = before[0]?.price ?? null;
  let floor: string | null = snapBefore[0]?.floor ?? null;
  let si = 0;
  let fi = 0;
  for (let t = first.getTime(); t < end.getTime(); t += ms) {
    const bucketEnd = t + ms;
    let open: string | null = null;
    let high: bigint | null = null;
    let low: bigint | null = null;
    let volume = 0n;
    let count = 0;
    for (; si < sales.length && (sales[si]?.ts.getTime() ?? 0) < bucketEnd; si++) {
      const price = sales[si]?.price as string;
      const p = BigInt(price);
      open ??= price;
      high = high === null || p > high ? p : high;
      low = low === null || p < low ? p : low;
      volume += p;
      count++;
      close = price;
    }
    for (; fi < snaps.length && (snaps[fi]?.at.getTime() ?? 0) < bucketEnd; fi++) {
      floor = snaps[fi]?.floor ?? null;
    }
    buckets.push({
      start: new Date(t).toISOString(),
      open: open ?? close,
      high: high === null ? close : String(high),
      low: low === null ? close : String(low),
      close,
      volume: String(volume),
      sales: count,
      floor,
    });
  }
  return buckets;
}
