import { sql } from 'kysely';
import type { Db } from '../../database';
import { rebuildFloorsAt } from './floors-at';
import { holdingsSql, isNativeCoin } from './market-filters';

export interface CurrentFloor {
  collectionId: string;
  /** Lowest active native-coin listing price, or null with no such listing. */
  floor: string | null;
  listed: number;
}

/*
 * The live floor: lowest active listing in the native coin whose token is not burned. Filled and
 * cancelled listings are not 'active'; burned tokens can stay listed on chain, so they are excluded here.
 */
export async function loadCurrentFloors(
  db: Db,
  collectionIds: readonly string[],
): Promise<Map<string, CurrentFloor>> {
  if (collectionIds.length === 0) return new Map();
  const { rows } = await sql<CurrentFloor>`
    SELECT l.collection_id AS "collectionId", min(l.price)::text AS floor, count(*)::int AS listed
    FROM listings l LEFT JOIN tokens t ON t.token_data_id = l.token_data_id
    WHERE l.status = 'active' AND l.collection_id = ANY(${[...collectionIds]}::text[])
      AND ${isNativeCoin('l.coin_type')} AND NOT COALESCE(t.is_burned, false)
    GROUP BY l.collection_id
  `.execute(db);
  return new Map(rows.map((r) => [r.collectionId, r]));
}

/** How far back a snapshot may be and still stand for "the floor at time T" (snapshots are hourly). */
const SNAPSHOT_TOLERANCE = '2 hours';

/**
 * The floor of each collection near time `at`, for the rankings' floor change: the latest hourly
 * snapshot at or before `at` (within two hours), cheap for every collection at once; collections with
 * none (history from before the worker ran, e.g. a backfill) are rebuilt from the listing events at
 * the instant `at` (rebuildFloorsAt). A collection without a listing then maps to null.
 */
export async function loadFloorsAt(
  db: Db,
  collectionIds: readonly string[],
  at: Date,
): Promise<Map<string, string | null>> {
  const result = new Map<string, string | null>();
  if (collectionIds.length === 0) return result;
  const { rows: snaps } = await sql<{ id: string; floor: string | null }>`
    SELECT DISTINCT ON (collection_id) collection_id AS id, floor_price::text AS floor
    FROM collection_snapshots
    WHERE collection_id = ANY(${[...collectionIds]}::text[])
      AND snapshot_at <= ${at} AND snapshot_at > ${at}::timestamptz - ${SNAPSHOT_TOLERANCE}::interval
    ORDER BY collection_id, snapshot_at DESC
  `.execute(db);
  for (const s of snaps) result.set(s.id, s.floor);
  const missing = collectionIds.filter((id) => !result.has(id));
  for (const [id, floor] of await rebuildFloorsAt(db, missing, at)) result.set(id, floor);
  return result;
}

/**
 * One snapshot row per collection that has holders or listings, keyed by (collection, hour). The
 * first observation in an hour wins, so a retried or doubled job keeps the reading nearest the hour.
 * Returns the rows written.
 */
export async function writeCollectionSnapshots(db: Db, at: Date): Promise<number> {
  const result = await sql`
    INSERT INTO collection_snapshots (collection_id, snapshot_at, floor_price, holder_count, listed_count, current_supply)
    SELECT c.collection_id, ${at}, f.floor, COALESCE(h.holders, 0), COALESCE(f.listed, 0), COALESCE(c.current_supply, 0)
    FROM collections c
    LEFT JOIN (
      SELECT l.collection_id, min(l.price) AS floor, count(*)::int AS listed
      FROM listings l LEFT JOIN tokens t ON t.token_data_id = l.token_data_id
      WHERE l.status = 'active' AND ${isNativeCoin('l.coin_type')} AND NOT COALESCE(t.is_burned, false)
      GROUP BY l.collection_id
    ) f ON f.collection_id = c.collection_id
    LEFT JOIN (
      SELECT collection_id, count(DISTINCT holder)::int AS holders FROM (${holdingsSql}) hs GROUP BY collection_id
    ) h ON h.collection_id = c.collection_id
    WHERE f.collection_id IS NOT NULL OR h.collection_id IS NOT NULL
    ON CONFLICT (collection_id, snapshot_at) DO NOTHING
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
