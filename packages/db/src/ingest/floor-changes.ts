import { sql } from 'kysely';
import type { Db } from '../database';
import { FLOOR_EVENT_OFFSET } from '../queries/feed/feed-events';
import { isNativeCoinType } from '../queries/worker/market-filters';
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
 * Records every (collection, version) of the batch after which the collection's floor (the lowest
 * active listing in the native coin, as the API reads it) differs from the floor before. Runs in
 * the batch's transaction BEFORE the listings are written: it starts from each touched
 * collection's stored listings and replays the batch's listing events in chain order, so the rows
 * are the same whatever the batch boundaries. Events at or below a collection's newest stored
 * listing version are already reflected (a re-ingested range) and record nothing again.
 */
export async function writeFloorChanges(db: Db, batch: IngestBatch): Promise<number> {
  const events = await listingEvents(db, batch);
  if (events.length === 0) return 0;
  const state = await storedState(db, [...new Set(events.map((e) => e.collection))]);
  // The floor is compared once per (collection, version): after the collection's last event in it.
  const lastOfVersion = new Map<string, number>();
  for (const [i, e] of events.entries()) lastOfVersion.set(`${e.collection}|${e.row.transaction_version}`, i);
  const changes: FloorChangeRow[] = [];
  for (const [i, e] of events.entries()) {
    const c = state.get(e.collection);
    if (!c || e.row.transaction_version <= c.newest) continue;
    if (e.row.kind === 'place_listing' && isNativeCoinType(e.row.coin_type))
      c.active.set(e.key, BigInt(e.row.price));
    else c.active.delete(e.key);
    if (lastOfVersion.get(`${e.collection}|${e.row.transaction_version}`) !== i) continue;
    const floor = lowest(c.active);
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

interface CollectionState {
  /** Active native-coin listings: key → price. */
  active: Map<string, bigint>;
  floor: string | null;
  /** The newest listing version stored for the collection: events at or below it are applied. */
  newest: number;
}

function lowest(active: ReadonlyMap<string, bigint>): string | null {
  let min: bigint | null = null;
  for (const price of active.values()) if (min === null || price < min) min = price;
  return min === null ? null : min.toString();
}

async function storedState(db: Db, collections: string[]): Promise<Map<string, CollectionState>> {
  const { rows } = await sql<{
    collection_id: string;
    marketplace: string | null;
    listing_id: string | null;
    price: string | null;
    coin_type: string | null;
    newest: string | null;
  }>`
    SELECT c.collection_id, l.marketplace, l.listing_id, l.price::text AS price, l.coin_type,
           (SELECT max(x.last_transaction_version)::text FROM listings x
             WHERE x.collection_id = c.collection_id) AS newest
      FROM unnest(${collections}::text[]) AS c(collection_id)
      LEFT JOIN listings l ON l.collection_id = c.collection_id AND l.status = 'active'`.execute(db);
  const state = new Map<string, CollectionState>();
  for (const r of rows) {
    let c = state.get(r.collection_id);
    if (!c) {
      c = { active: new Map(), floor: null, newest: r.newest === null ? -1 : Number(r.newest) };
      state.set(r.collection_id, c);
    }
    if (r.marketplace !== null && r.price !== null && isNativeCoinType(r.coin_type)) {
      c.active.set(`${r.marketplace}|${r.listing_id}`, BigInt(r.price));
    }
  }
  for (const c of state.values()) c.floor = lowest(c.active);
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
