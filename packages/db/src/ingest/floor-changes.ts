import { sql } from 'kysely';
import type { Db } from '../database';
import { FLOOR_EVENT_OFFSET } from '../queries/feed/feed-events';
import { isNativeCoin, isNativeCoinType } from '../queries/market-rules';
import { unnestInsert } from './bulk';
import { listingKey } from './map/market-state';
import type { IngestBatch, MarketActivityRow } from './types';

interface FloorChangeRow {
  transaction_version: number;
  event_index: number;
  collection_id: string;
  floor_price: string | null;
  previous_floor_price: string | null;
  transaction_timestamp: string;
}

interface ListingEvent {
  row: MarketActivityRow;
  key: string;
  collection: string;
}

/**
 * How many of a collection's lowest active listings the replay starts from. Every other active
 * listing is priced at or above the highest of them, so the floor is known while one of them (or a
 * cheaper new one) is still open; a batch that closes them all (a sweep) has that collection
 * replayed again from all its active listings. Reading a few listings per collection, from the
 * collection's price index, instead of all of them keeps the step's cost off the size of
 * `listings` (docs/PERFORMANCE.md).
 */
const FLOOR_STATE_LISTINGS = 16;

/**
 * Records every (collection, version) of the batch after which the collection's floor (the lowest
 * active listing in the native coin, as the API reads it) differs from the floor before. Runs in
 * the batch's transaction BEFORE the listings are written: it starts from each touched
 * collection's stored listings and replays the batch's listing events in chain order, so the rows
 * are the same whatever the batch boundaries. Events at or below a collection's newest stored
 * listing version are already reflected (a re-ingested range) and record nothing again.
 * `lowest` is how many stored listings per collection the replay starts from (tests vary it).
 */
export async function writeFloorChanges(
  db: Db,
  batch: IngestBatch,
  lowest: number = FLOOR_STATE_LISTINGS,
): Promise<number> {
  const events = await listingEvents(db, batch);
  if (events.length === 0) return 0;
  const byCollection = new Map<string, ListingEvent[]>();
  for (const e of events) {
    const list = byCollection.get(e.collection) ?? [];
    list.push(e);
    byCollection.set(e.collection, list);
  }
  const changes: FloorChangeRow[] = [];
  const states = await storedState(db, [...byCollection.keys()], lowest);
  const again: string[] = [];
  for (const [collection, list] of byCollection) {
    const replayed = replay(states.get(collection), list);
    if (replayed) changes.push(...replayed);
    else again.push(collection);
  }
  if (again.length > 0) {
    const full = await storedState(db, again, null);
    for (const collection of again)
      changes.push(...(replay(full.get(collection), byCollection.get(collection) ?? []) ?? []));
  }
  return unnestInsert(
    db,
    'collection_floor_changes',
    {
      transaction_version: 'bigint',
      event_index: 'integer',
      collection_id: 'text',
      floor_price: 'numeric',
      previous_floor_price: 'numeric',
      transaction_timestamp: 'timestamptz',
    },
    changes,
    'ON CONFLICT (transaction_version, event_index) DO NOTHING',
  );
}

/**
 * One collection's floor changes over its events (chain order): the floor is compared once per
 * version, after the collection's last event in it. Null when the state stops knowing the floor:
 * it started from the lowest listings only, and none of them nor any cheaper new one is open.
 */
function replay(c: CollectionState | undefined, events: readonly ListingEvent[]): FloorChangeRow[] | null {
  if (!c) return [];
  const changes: FloorChangeRow[] = [];
  for (const [i, e] of events.entries()) {
    if (e.row.transaction_version <= c.newest) continue;
    if (e.row.kind === 'place_listing' && isNativeCoinType(e.row.coin_type))
      c.active.set(e.key, BigInt(e.row.price));
    else c.active.delete(e.key);
    if (events[i + 1]?.row.transaction_version === e.row.transaction_version) continue;
    const floor = lowestPrice(c.active);
    if (c.unseenFrom !== null && (floor === null || BigInt(floor) > c.unseenFrom)) return null;
    if (floor === c.floor) continue;
    changes.push({
      transaction_version: e.row.transaction_version,
      event_index: FLOOR_EVENT_OFFSET + e.row.event_index,
      collection_id: e.collection,
      floor_price: floor,
      previous_floor_price: c.floor,
      transaction_timestamp: e.row.transaction_timestamp,
    });
    c.floor = floor;
  }
  return changes;
}

interface CollectionState {
  /** Active native-coin listings read or replayed: key → price. */
  active: Map<string, bigint>;
  floor: string | null;
  /** The newest listing version stored for the collection: events at or below it are applied. */
  newest: number;
  /**
   * Null when `active` started from every stored active listing; else the price at or above which
   * the listings not read are (the highest one read).
   */
  unseenFrom: bigint | null;
}

function lowestPrice(active: ReadonlyMap<string, bigint>): string | null {
  let min: bigint | null = null;
  for (const price of active.values()) if (min === null || price < min) min = price;
  return min === null ? null : min.toString();
}

/**
 * Each collection's newest stored listing version and its active native-coin listings: the
 * `lowest` cheapest (one ordered read of the collection's price index), or all with null.
 */
async function storedState(
  db: Db,
  collections: string[],
  lowest: number | null,
): Promise<Map<string, CollectionState>> {
  const { rows } = await sql<{
    collection_id: string;
    marketplace: string | null;
    listing_id: string | null;
    price: string | null;
    newest: string | null;
  }>`
    SELECT c.collection_id, l.marketplace, l.listing_id, l.price::text AS price,
           (SELECT max(x.last_transaction_version)::text FROM listings x
             WHERE x.collection_id = c.collection_id) AS newest
      FROM unnest(${collections}::text[]) AS c(collection_id)
      LEFT JOIN LATERAL (
        SELECT l.marketplace, l.listing_id, l.price FROM listings l
         WHERE l.collection_id = c.collection_id AND l.status = 'active' AND ${isNativeCoin('l.coin_type')}
         ${lowest === null ? sql`` : sql`ORDER BY l.price LIMIT ${lowest}`}
      ) l ON true`.execute(db);
  const state = new Map<string, CollectionState>();
  const read = new Map<string, number>();
  for (const r of rows) {
    let c = state.get(r.collection_id);
    if (!c) {
      c = {
        active: new Map(),
        floor: null,
        newest: r.newest === null ? -1 : Number(r.newest),
        unseenFrom: null,
      };
      state.set(r.collection_id, c);
    }
    if (r.marketplace !== null && r.price !== null) {
      const price = BigInt(r.price);
      c.active.set(`${r.marketplace}|${r.listing_id}`, price);
      read.set(r.collection_id, (read.get(r.collection_id) ?? 0) + 1);
      if (lowest !== null && (c.unseenFrom === null || price > c.unseenFrom)) c.unseenFrom = price;
    }
  }
  for (const [id, c] of state) {
    // Fewer than asked for: these are all of them.
    if (lowest === null || (read.get(id) ?? 0) < lowest) c.unseenFrom = null;
    c.floor = lowestPrice(c.active);
  }
  return state;
}

/**
 * The batch's listing events in chain order, each with its listing key (as the listings table
 * keys it) and collection: its own, else an earlier event's of the same listing, else the stored
 * listing's. An event whose collection is unknown everywhere moves no floor.
 */
async function listingEvents(db: Db, batch: IngestBatch): Promise<ListingEvent[]> {
  const keyed: { row: MarketActivityRow; key: string }[] = [];
  for (const row of batch.marketActivities) {
    if (!row.kind.endsWith('_listing') || !row.token_data_id) continue;
    const id = listingKey({
      listingId: row.listing_id,
      tokenDataId: row.token_data_id,
      propertyVersion: row.property_version,
      seller: row.seller,
    });
    if (id) keyed.push({ row, key: `${row.marketplace}|${id}` });
  }
  keyed.sort(
    (a, b) => a.row.transaction_version - b.row.transaction_version || a.row.event_index - b.row.event_index,
  );
  const known = new Map<string, string>();
  for (const { row, key } of keyed)
    if (row.collection_id && !known.has(key)) known.set(key, row.collection_id);
  const missing = [...new Set(keyed.filter((k) => !known.has(k.key)).map((k) => k.key))];
  if (missing.length > 0) {
    const { rows } = await sql<{ key: string; collection_id: string }>`
      SELECT k.key, l.collection_id
        FROM unnest(${missing}::text[]) AS k(key)
        JOIN listings l ON l.marketplace = split_part(k.key, '|', 1)
                       AND l.listing_id = substr(k.key, length(split_part(k.key, '|', 1)) + 2)
       WHERE l.collection_id IS NOT NULL`.execute(db);
    for (const r of rows) known.set(r.key, r.collection_id);
  }
  const events: ListingEvent[] = [];
  for (const { row, key } of keyed) {
    const collection = row.collection_id ?? known.get(key);
    if (collection) events.push({ row, key, collection });
  }
  return events;
}
