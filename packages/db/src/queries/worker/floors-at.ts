import { sql } from 'kysely';
import type { Db } from '../../database';
import { isNativeCoin } from '../market-rules';

/*
 * The listing key of a market event, as the indexer derives it (apps/indexer market-state
 * listingKey): the marketplace's listing id, else token, property version and seller. Tradeport v1
 * has no listing ids, so a token relisted by the same seller reuses the key of its earlier listing.
 */
const eventListingKey = sql`COALESCE(m.listing_id, m.token_data_id || ':' || COALESCE(m.property_version::text, '0') || ':' || m.seller)`;

/**
 * The floor of each collection at the instant `at`, rebuilt from the listing events: a listing
 * counts when its last listing event before `at` is a placement (a price update is a placement too,
 * so the price is the one asked at `at`) and its token was not burned before `at`. Events at `at`
 * itself are not included: a window [at, now] holds them, so its start is the state before them.
 * Candidates are the listings open now or closed at or after `at`; a key that was closed and placed
 * again is replayed from its events, so the row's latest price or close never stands for an earlier
 * listing. A collection without a listing open at `at` maps to null.
 */
export async function rebuildFloorsAt(
  db: Db,
  collectionIds: readonly string[],
  at: Date,
): Promise<Map<string, string | null>> {
  const result = new Map<string, string | null>(collectionIds.map((id) => [id, null]));
  if (collectionIds.length === 0) return result;
  // One join of the candidate listings with their events before `at`, the last event per listing
  // kept by DISTINCT ON: a hash join over the listing events, where a lookup per listing (a
  // LATERAL with ORDER BY … LIMIT 1) cost one index probe and sort per candidate, and over a
  // 30-day window nearly every listing of the chain is a candidate (docs/PERFORMANCE.md).
  const { rows } = await sql<{ id: string; floor: string }>`
    SELECT e.collection_id AS id, min(e.price)::text AS floor
    FROM (
      SELECT DISTINCT ON (l.marketplace, l.listing_id) l.collection_id, l.token_data_id, m.kind, m.price, m.coin_type
      FROM listings l
      JOIN marketplace_activities m ON m.token_data_id = l.token_data_id AND m.marketplace = l.marketplace
        AND m.kind IN ('place_listing', 'cancel_listing', 'fill_listing')
        AND ${eventListingKey} = l.listing_id AND m.transaction_timestamp < ${at}
        -- The listing's events are of its collection. One stored without a collection is written
        -- with its listing row (the indexer keeps listings from their events), which is counted
        -- per collection: the collection pages' keys see it either way.
        AND (m.collection_id = l.collection_id OR m.collection_id IS NULL)
      WHERE l.collection_id = ANY(${[...collectionIds]}::text[])
        AND (l.closed_at IS NULL OR l.closed_at >= ${at})
      ORDER BY l.marketplace, l.listing_id, m.transaction_version DESC, m.event_index DESC
    ) e
    WHERE e.kind = 'place_listing' AND ${isNativeCoin('e.coin_type')}
      AND NOT EXISTS (SELECT 1 FROM token_activities a WHERE a.token_data_id = e.token_data_id
                        AND a.kind = 'burn' AND a.transaction_timestamp < ${at}
                        -- The token's burn is of its collection (one asked for); one stored without
                        -- a collection counts for its token's (the per-collection write counters).
                        AND (a.collection_id = ANY(${[...collectionIds]}::text[]) OR a.collection_id IS NULL))
    GROUP BY e.collection_id
  `.execute(db);
  for (const r of rows) result.set(r.id, r.floor);
  return result;
}
