import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../database';
import { isNativeCoin } from '../market-rules';
import { rebuildFloorsAt } from './floors-at';
import { heldSql, notBurned } from './market-filters';

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
    SELECT f.collection_id AS "collectionId", f.floor::text AS floor, f.listed
    FROM (${currentFloorsSql(sql`l.collection_id = ANY(${[...collectionIds]}::text[])`)}) f
  `.execute(db);
  return new Map(rows.map((r) => [r.collectionId, r]));
}

/** (collection_id, floor, listed) by the live floor's rule, for the collections `where` keeps. */
function currentFloorsSql(where: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`
    SELECT l.collection_id, min(l.price) AS floor, count(*)::int AS listed
    FROM listings l
    WHERE l.status = 'active' AND ${where} AND ${isNativeCoin('l.coin_type')} AND ${notBurned('l.token_data_id', 'l.collection_id')}
    GROUP BY l.collection_id`;
}

/** How far back a snapshot may be and still stand for "the floor at time T" (snapshots are hourly). */
const SNAPSHOT_TOLERANCE = '2 hours';

/**
 * The floor of each collection at the instant `at`, for the rankings' floor change. First from the
 * floor changes the indexer records (floorsFromChanges: exact, one index read per collection);
 * for the collections those cannot answer, the latest hourly snapshot at or before `at` (within two
 * hours); for the rest the floor is rebuilt from the listing events (rebuildFloorsAt, the same
 * answer as the floor changes but 0.4–0.9 s for every collection of the 1M chain). A collection
 * without a listing then maps to null. `exact` leaves the snapshots out (loadExactFloorsAt).
 */
export async function loadFloorsAt(
  db: Db,
  collectionIds: readonly string[],
  at: Date,
  { exact = false }: { exact?: boolean } = {},
): Promise<Map<string, string | null>> {
  const result = await floorsFromChanges(db, collectionIds, at);
  const unanswered = collectionIds.filter((id) => !result.has(id));
  if (unanswered.length === 0) return result;
  if (!exact) {
    const { rows: snaps } = await sql<{ id: string; floor: string | null }>`
      SELECT DISTINCT ON (collection_id) collection_id AS id, floor_price::text AS floor
      FROM collection_snapshots
      WHERE collection_id = ANY(${unanswered}::text[])
        AND snapshot_at <= ${at} AND snapshot_at > ${at}::timestamptz - ${SNAPSHOT_TOLERANCE}::interval
      ORDER BY collection_id, snapshot_at DESC
    `.execute(db);
    for (const s of snaps) result.set(s.id, s.floor);
  }
  const missing = unanswered.filter((id) => !result.has(id));
  for (const [id, floor] of await rebuildFloorsAt(db, missing, at)) result.set(id, floor);
  return result;
}

/**
 * The floor of each collection at exactly `at` (a window's start): the recorded floor changes,
 * else rebuilt from the listing events; never an hourly snapshot. The same answer as
 * rebuildFloorsAt alone, which replays every listing of the collection open at `at` (tens of
 * milliseconds for a large one).
 */
export function loadExactFloorsAt(
  db: Db,
  collectionIds: readonly string[],
  at: Date,
): Promise<Map<string, string | null>> {
  return loadFloorsAt(db, collectionIds, at, { exact: true });
}

/**
 * The floor at `at` read from `collection_floor_changes`, which holds the floor after every version
 * that moved it (the indexer writes it in the batch's transaction, replaying the listing events
 * from the stored listings): the floor after the collection's last change before `at`. Two cases
 * are left out (absent from the map), where the record is not the floor at `at`:
 * - no change before `at`, unless the collection's first change is its first listing (the floor
 *   rose from none, and no listing row is older): else the changes may have been first recorded
 *   after the collection's listings (a database indexed before the table existed, or rows written
 *   without the indexer);
 * - a listing that was open when its token was burned before `at`: the recorded floor counts that
 *   listing (a burned token can stay listed on chain), the floor at `at` does not.
 */
async function floorsFromChanges(
  db: Db,
  collectionIds: readonly string[],
  at: Date,
): Promise<Map<string, string | null>> {
  if (collectionIds.length === 0) return new Map();
  const ids = [...collectionIds];
  // The collections of the second case, found once from the few burns (a partial index by
  // collection, token_activities_burns_collection).
  const { rows } = await sql<{ id: string; floor: string | null }>`
    WITH burned_while_listed AS MATERIALIZED (
      SELECT DISTINCT l.collection_id FROM token_activities b
      JOIN listings l ON l.token_data_id = b.token_data_id
      WHERE b.kind = 'burn' AND b.transaction_timestamp < ${at}
        -- The token's burn is of its collection (one asked for); one stored without a collection
        -- counts for its token's (the per-collection write counters).
        AND (b.collection_id = ANY(${ids}::text[]) OR b.collection_id IS NULL)
        AND (l.closed_at IS NULL OR l.closed_at >= b.transaction_timestamp)
        AND l.collection_id = ANY(${ids}::text[])
    )
    SELECT k.id, f.floor_price::text AS floor
    FROM unnest(${ids}::text[]) AS k(id)
    CROSS JOIN LATERAL (
      SELECT floor_price FROM collection_floor_changes f
      WHERE f.collection_id = k.id AND f.transaction_timestamp < ${at}
      ORDER BY f.transaction_timestamp DESC, f.transaction_version DESC, f.event_index DESC
      LIMIT 1
    ) f
    WHERE NOT EXISTS (SELECT 1 FROM burned_while_listed u WHERE u.collection_id = k.id)
    UNION ALL
    -- No listing before \`at\`: the collection's first recorded change is its first listing (the
    -- floor rose from none), at or after \`at\`, and no listing of the collection is older.
    SELECT k.id, NULL
    FROM unnest(${ids}::text[]) AS k(id)
    CROSS JOIN LATERAL (
      SELECT g.transaction_timestamp, g.previous_floor_price FROM collection_floor_changes g
      WHERE g.collection_id = k.id ORDER BY g.transaction_version, g.event_index LIMIT 1
    ) g
    WHERE g.transaction_timestamp >= ${at} AND g.previous_floor_price IS NULL
      AND NOT EXISTS (SELECT 1 FROM listings l WHERE l.collection_id = k.id
                        AND (l.listed_at IS NULL OR l.listed_at < g.transaction_timestamp))
  `.execute(db);
  return new Map(rows.map((r) => [r.id, r.floor]));
}

/**
 * One snapshot row per collection that has holders or listings, keyed by (collection, hour). The
 * first observation in an hour wins, so a retried or doubled job keeps the reading nearest the hour.
 * `held` is heldSql or a table of its rows already computed (writeHourlySnapshots). Returns the rows
 * written.
 */
export async function writeCollectionSnapshots(
  db: Db,
  at: Date,
  held: RawBuilder<unknown> = sql`(${heldSql})`,
): Promise<number> {
  const result = await sql`
    INSERT INTO collection_snapshots (collection_id, snapshot_at, floor_price, holder_count, listed_count, current_supply)
    SELECT c.collection_id, ${at}, f.floor, COALESCE(h.holders, 0), COALESCE(f.listed, 0), COALESCE(c.current_supply, 0)
    FROM collections c
    LEFT JOIN (${currentFloorsSql(sql`true`)}) f ON f.collection_id = c.collection_id
    LEFT JOIN (
      SELECT collection_id, count(*)::int AS holders FROM ${held} h GROUP BY collection_id
    ) h ON h.collection_id = c.collection_id
    WHERE f.collection_id IS NOT NULL OR h.collection_id IS NOT NULL
    ON CONFLICT (collection_id, snapshot_at) DO NOTHING
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
