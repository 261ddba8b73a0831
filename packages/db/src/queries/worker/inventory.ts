import type { InventoryHistory } from '@mdq/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../database';
import { heldSql } from './market-filters';

/**
 * One inventory row per owner for the hour `at` (tokens held, listed ones included, and their value at each collection's floor in
 * that hour's collection snapshot), for every current holder plus every owner whose latest snapshot
 * still showed tokens (so a sold-out wallet gets its zero point). Run after the hour's collection
 * snapshots. First observation per hour wins. `held` is heldSql or a table of its rows already
 * computed (writeHourlySnapshots). Returns rows written.
 */
export async function writeInventorySnapshots(
  db: Db,
  at: Date,
  held: RawBuilder<unknown> = sql`(${heldSql})`,
): Promise<number> {
  const result = await sql`
    WITH floors AS (
      SELECT DISTINCT ON (collection_id) collection_id, floor_price FROM collection_snapshots
      WHERE snapshot_at <= ${at} AND snapshot_at > ${at}::timestamptz - interval '2 hours'
      ORDER BY collection_id, snapshot_at DESC
    ), held AS (
      SELECT h.holder AS owner_address, h.collection_id, h.n FROM ${held} h
    ), now_held AS (
      SELECT h.owner_address, sum(h.n)::int AS token_count, COALESCE(sum(h.n * f.floor_price), 0) AS floor_value
      FROM held h LEFT JOIN floors f ON f.collection_id = h.collection_id
      GROUP BY h.owner_address
    ), emptied AS (
      SELECT l.owner_address, 0 AS token_count, 0::numeric AS floor_value
      FROM (
        SELECT DISTINCT ON (owner_address) owner_address, token_count FROM user_inventory_snapshots
        WHERE snapshot_at < ${at} AND snapshot_at > ${at}::timestamptz - interval '8 days'
        ORDER BY owner_address, snapshot_at DESC
      ) l
      WHERE l.token_count > 0 AND NOT EXISTS (SELECT 1 FROM now_held n WHERE n.owner_address = l.owner_address)
    )
    INSERT INTO user_inventory_snapshots (owner_address, snapshot_at, token_count, floor_value)
    SELECT owner_address, ${at}::timestamptz, token_count, floor_value FROM now_held
    UNION ALL
    SELECT owner_address, ${at}::timestamptz, token_count, floor_value FROM emptied
    ON CONFLICT (owner_address, snapshot_at) DO NOTHING
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Where `date_bin` starts the buckets: a Monday, UTC, so weekly buckets run Monday to Monday. */
export const INVENTORY_BUCKET_ORIGIN = '2000-01-03T00:00:00Z';

/*
 * Retention mirrors the API's buckets: every hourly row for 48 hours, then the earliest row per
 * 6 hours up to 8 days, per day up to 31 days, per week after that. Keeping the earliest row of each
 * bucket is stable as rows age into coarser buckets, so pruning twice changes nothing.
 */
export async function pruneInventorySnapshots(db: Db, now: Date): Promise<number> {
  const result = await sql`
    DELETE FROM user_inventory_snapshots s USING (
      SELECT owner_address, snapshot_at,
             row_number() OVER (PARTITION BY owner_address, bucket ORDER BY snapshot_at) AS rn
      FROM (
        SELECT owner_address, snapshot_at,
          CASE
            WHEN snapshot_at >= ${now}::timestamptz - interval '8 days'
              THEN date_bin('6 hours', snapshot_at, ${INVENTORY_BUCKET_ORIGIN}::timestamptz)
            WHEN snapshot_at >= ${now}::timestamptz - interval '31 days'
              THEN date_bin('1 day', snapshot_at, ${INVENTORY_BUCKET_ORIGIN}::timestamptz)
            ELSE date_bin('7 days', snapshot_at, ${INVENTORY_BUCKET_ORIGIN}::timestamptz)
          END AS bucket
        FROM user_inventory_snapshots
        WHERE snapshot_at < ${now}::timestamptz - interval '48 hours'
      ) b
    ) x
    WHERE x.rn > 1 AND s.owner_address = x.owner_address AND s.snapshot_at = x.snapshot_at
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** The API's ranges (its inventory-history contract). */
export type InventoryRange = InventoryHistory['range'];

const HOUR_MS = 3_600_000;

/** Each range's bucket (as an interval, and in ms for the API's cache), and how far back it reaches. */
export const INVENTORY_BUCKETS: Record<
  InventoryRange,
  { step: string; stepMs: number; span: string | null }
> = {
  '24h': { step: '1 hour', stepMs: HOUR_MS, span: '24 hours' },
  '7d': { step: '6 hours', stepMs: 6 * HOUR_MS, span: '7 days' },
  '30d': { step: '1 day', stepMs: 24 * HOUR_MS, span: '30 days' },
  all: { step: '7 days', stepMs: 7 * 24 * HOUR_MS, span: null },
};

export interface InventoryPoint {
  /** Start of the bucket (UTC, aligned: hours, 6 hours, days, weeks from Monday). */
  bucketStart: Date;
  /** Null before the first snapshot of this owner. */
  tokenCount: number | null;
  floorValue: string | null;
}

/**
 * A user's inventory series for a range: one point per bucket, the latest snapshot taken by the end
 * of that bucket. "all" starts at the owner's first snapshot. Reads the primary key only.
 */
export async function loadInventoryHistory(
  db: Db,
  owner: string,
  range: InventoryRange,
  now: Date,
): Promise<InventoryPoint[]> {
  const { step, span } = INVENTORY_BUCKETS[range];
  const origin = sql`${INVENTORY_BUCKET_ORIGIN}::timestamptz`;
  const start = span
    ? sql`${now}::timestamptz - ${span}::interval`
    : sql`(SELECT min(snapshot_at) FROM user_inventory_snapshots WHERE owner_address = ${owner})`;
  const { rows } = await sql<InventoryPoint>`
    SELECT b AS "bucketStart", s.token_count AS "tokenCount", s.floor_value::text AS "floorValue"
    FROM generate_series(date_bin(${step}::interval, ${start}, ${origin}),
                         ${now}::timestamptz, ${step}::interval) AS b
    LEFT JOIN LATERAL (
      SELECT token_count, floor_value FROM user_inventory_snapshots
      WHERE owner_address = ${owner} AND snapshot_at < LEAST(b + ${step}::interval, ${now}::timestamptz + interval '1 microsecond')
      ORDER BY snapshot_at DESC LIMIT 1
    ) s ON true
    ORDER BY b
  `.execute(db);
  return rows;
}
