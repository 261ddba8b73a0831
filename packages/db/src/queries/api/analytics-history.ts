import type { HistoryBucket as HistoryBucketAnswer } from '@mdq/contracts';
import { sql } from 'kysely';
import type { Db } from '../../database';
import { executePrepared } from '../../prepared';
import { salesOf } from './analytics-stats';
import { jsonRows } from './json-columns';

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
  // One prepared statement of four parts, one round trip: each part reads the one collection through
  // one index, in one plan for every range (docs/PERFORMANCE.md). Each bucket's sales are summed by
  // Postgres, not shipped one by one (the busiest collection's month was 5,000 rows for 30 buckets);
  // a bucket is its start's index in whole intervals since the epoch (ms), as bucketStart aligns it.
  // The snapshots come in time order, their times as epoch ms (exact: `extract` is numeric).
  const [row] = await executePrepared(
    db,
    sql<{
      sales: {
        bucket: number;
        open: string;
        close: string;
        high: string;
        low: string;
        volume: string;
        sales: number;
      }[];
      before: string | null;
      snaps: { floor: string | null; at: number }[];
      snap_before: string | null;
    }>`
    SELECT
      ${jsonRows(sql`
        SELECT floor(extract(epoch FROM m.transaction_timestamp) * 1000 / ${ms})::bigint AS bucket,
               (array_agg(m.price ORDER BY m.transaction_timestamp, m.transaction_version, m.event_index))[1]::text AS open,
               (array_agg(m.price ORDER BY m.transaction_timestamp DESC, m.transaction_version DESC,
                                           m.event_index DESC))[1]::text AS close,
               max(m.price)::text AS high, min(m.price)::text AS low, sum(m.price)::text AS volume,
               count(*)::int AS sales
          FROM marketplace_activities m
         WHERE ${salesOf(collectionId, first, new Date(end.getTime() - 1), includeFlagged)}
         GROUP BY 1`)} AS sales,
      (SELECT m.price::text FROM marketplace_activities m
        WHERE ${salesOf(collectionId, null, new Date(first.getTime() - 1), includeFlagged)}
        ORDER BY m.transaction_timestamp DESC, m.transaction_version DESC, m.event_index DESC LIMIT 1) AS before,
      ${jsonRows(sql`
        SELECT floor_price::text AS floor, floor(extract(epoch FROM snapshot_at) * 1000)::float8 AS at
          FROM collection_snapshots
         WHERE collection_id = ${collectionId} AND snapshot_at >= ${first} AND snapshot_at < ${end}
         ORDER BY snapshot_at`)} AS snaps,
      (SELECT floor_price::text FROM collection_snapshots
        WHERE collection_id = ${collectionId} AND snapshot_at < ${first}
        ORDER BY snapshot_at DESC LIMIT 1) AS snap_before`,
  );
  const sales = row?.sales ?? [];
  const snaps = row?.snaps ?? [];
  const buckets: HistoryBucket[] = [];
  let close: string | null = row?.before ?? null;
  let floor: string | null = row?.snap_before ?? null;
  const summed = new Map(sales.map((b) => [b.bucket * ms, b]));
  let fi = 0;
  for (let t = first.getTime(); t < end.getTime(); t += ms) {
    const bucketEnd = t + ms;
    const b = summed.get(t);
    if (b) close = b.close;
    for (; fi < snaps.length && (snaps[fi]?.at ?? 0) < bucketEnd; fi++) {
      floor = snaps[fi]?.floor ?? null;
    }
    buckets.push({
      start: new Date(t).toISOString(),
      open: b ? b.open : close,
      high: b ? b.high : close,
      low: b ? b.low : close,
      close,
      volume: b ? b.volume : '0',
      sales: b ? b.sales : 0,
      floor,
    });
  }
  return buckets;
}
