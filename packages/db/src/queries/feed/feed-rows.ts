import { sql } from 'kysely';
import type { Db } from '../../database';
import type { ActivityRow } from '../api/activity';
import { iso } from '../api/pagination';
import { tokenPropertyVersion } from '../api/property-version';
import { feedCheckpointRow } from '../checkpoints';
import { NATIVE_COIN } from '../market-rules';
import {
  type FeedEvent,
  type FeedPosition,
  indexedEnd,
  MARKET_KINDS,
  RANKING_EVENT_OFFSET,
  TOKEN_KINDS,
} from './feed-events';

/** What a `ranking_changed` row carries beyond the shared columns (one jsonb column of the union). */
interface RankingColumns {
  ranking: string;
  rank: number | null;
  previous_rank: number | null;
  score: number | null;
  top_n: number;
  window_start: string | null;
  computed_at: string;
}

/** An activity row (the columns the API's activity lists read) plus what the feed's other sources carry. */
interface FeedRow extends Omit<ActivityRow, 'source' | 'flags'> {
  source: 'market' | 'token' | 'purchase' | 'reveal' | 'floor' | 'rank';
  listing_id: string | null;
  offer_id: string | null;
  lootbox_id: number | null;
  tier: string | null;
  ranking: RankingColumns | null;
}

const TOKEN_KIND_LIST = sql.join(Object.keys(TOKEN_KINDS).map((k) => sql.lit(k)));

/**
 * Feed events strictly after `after` and at or below version `upTo`, in chain order. Each branch
 * walks its (transaction_version, event_index) primary key from the position, so a page costs
 * `limit` index entries per table however far back the consumer is.
 */
export async function feedEventsAfter(
  db: Db,
  after: FeedPosition,
  upTo: number,
  limit: number,
): Promise<FeedEvent[]> {
  const from = sql`(${after.version}::bigint, ${after.eventIndex}::int)`;
  const { rows } = await sql<FeedRow>`
    SELECT * FROM (
      (SELECT 'market' AS source, m.transaction_version, m.event_index, m.kind, m.token_data_id,
              m.token_standard, ${sql.raw(tokenPropertyVersion('m'))}::text AS property_version, m.collection_id, NULL::text AS from_address,
              NULL::text AS to_address, m.seller, m.buyer, m.price::text, m.coin_type,
              m.token_amount::text AS quantity, m.marketplace, m.listing_id, m.offer_id,
              NULL::bigint AS lootbox_id, NULL::text AS tier, NULL::jsonb AS ranking,
              m.transaction_timestamp
         FROM marketplace_activities m
        WHERE (m.transaction_version, m.event_index) > ${from} AND m.transaction_version <= ${upTo}
        ORDER BY m.transaction_version, m.event_index LIMIT ${limit})
      UNION ALL
      (SELECT 'token', a.transaction_version, a.event_index, a.kind, a.token_data_id, a.token_standard,
              a.property_version::text, a.collection_id, a.from_address, a.to_address, NULL, NULL, NULL, NULL,
              a.amount::text, NULL, NULL, NULL, NULL, NULL, NULL, a.transaction_timestamp
         FROM token_activities a
        WHERE (a.transaction_version, a.event_index) > ${from} AND a.transaction_version <= ${upTo}
          AND a.kind IN (${TOKEN_KIND_LIST})
        ORDER BY a.transaction_version, a.event_index LIMIT ${limit})
      UNION ALL
      (SELECT 'purchase', p.transaction_version, p.event_index, 'purchased', NULL, NULL, NULL, l.collection_id,
              NULL, NULL, NULL, p.buyer, p.amount_paid::text, p.coin_type, p.quantity::text, NULL, NULL, NULL,
              p.lootbox_id, NULL, NULL, p.transaction_timestamp
         FROM lootbox_purchases p LEFT JOIN lootboxes l ON l.lootbox_id = p.lootbox_id
        WHERE (p.transaction_version, p.event_index) > ${from} AND p.transaction_version <= ${upTo}
        ORDER BY p.transaction_version, p.event_index LIMIT ${limit})
      UNION ALL
      (SELECT 'reveal', r.transaction_version, r.event_index, 'opened', r.token_data_id, 'v2', '0',
              l.collection_id, NULL, r.owner_address, NULL, NULL, NULL, NULL, '1', NULL, NULL, NULL,
              r.lootbox_id, r.tier, NULL, r.transaction_timestamp
         FROM lootbox_reveals r LEFT JOIN lootboxes l ON l.lootbox_id = r.lootbox_id
        WHERE (r.transaction_version, r.event_index) > ${from} AND r.transaction_version <= ${upTo}
        ORDER BY r.transaction_version, r.event_index LIMIT ${limit})
      UNION ALL
      (SELECT 'floor', f.transaction_version, f.event_index, 'floor', NULL, NULL, NULL, f.collection_id,
              NULL, NULL, NULL, NULL, f.floor_price::text, ${NATIVE_COIN}::text, '1', NULL, NULL, NULL, NULL, NULL,
              NULL, f.transaction_timestamp
         FROM collection_floor_changes f
        WHERE (f.transaction_version, f.event_index) > ${from} AND f.transaction_version <= ${upTo}
        ORDER BY f.transaction_version, f.event_index LIMIT ${limit})
      UNION ALL
      (SELECT 'rank', k.transaction_version, k.event_index, 'ranking', NULL, NULL, NULL, k.collection_id,
              NULL, NULL, NULL, NULL, NULL, NULL, '1', NULL, NULL, NULL, NULL, NULL,
              jsonb_build_object('ranking', k.ranking, 'rank', k.rank, 'previous_rank', k.previous_rank,
                                 'score', k.score, 'top_n', k.top_n, 'window_start', k.window_start,
                                 'computed_at', k.computed_at),
              k.transaction_timestamp
         FROM collection_ranking_changes k
        WHERE (k.transaction_version, k.event_index) > ${from} AND k.transaction_version <= ${upTo}
        ORDER BY k.transaction_version, k.event_index LIMIT ${limit})
    ) merged
    ORDER BY transaction_version, event_index
    LIMIT ${limit}`.execute(db);
  return rows.map(toFeedEvent);
}

function feedKind(row: FeedRow): FeedEvent['kind'] {
  switch (row.source) {
    case 'market':
      return MARKET_KINDS[row.kind] ?? 'listing_placed';
    case 'token':
      return TOKEN_KINDS[row.kind] ?? 'transfer';
    case 'purchase':
      return 'lootbox_purchased';
    case 'reveal':
      return 'lootbox_opened';
    case 'floor':
      return 'floor_changed';
    case 'rank':
      return 'ranking_changed';
  }
}

const HOUR_MS = 3_600_000;

/** `24h`, `7d`, `30d`: the API's window names, from the run's window (null without one). */
function windowName(start: string | null, end: string): string {
  if (start === null) return 'all';
  const hours = Math.round((Date.parse(end) - Date.parse(start)) / HOUR_MS);
  return hours % 24 === 0 && hours > 24 ? `${hours / 24}d` : `${hours}h`;
}

function rankingOf(r: RankingColumns | null): FeedEvent['ranking'] {
  if (!r) return null;
  const computedAt = iso(r.computed_at) ?? r.computed_at;
  return {
    name: r.ranking,
    window: windowName(r.window_start, computedAt),
    rank: r.rank,
    previousRank: r.previous_rank,
    score: r.score,
    top: r.top_n,
    computedAt,
  };
}

function toFeedEvent(row: FeedRow): FeedEvent {
  const version = Number(row.transaction_version);
  return {
    id: `${version}:${row.event_index}`,
    kind: feedKind(row),
    version,
    eventIndex: row.event_index,
    timestamp: iso(row.transaction_timestamp) ?? '',
    collectionId: row.collection_id,
    tokenId: row.token_data_id,
    tokenStandard: row.token_standard,
    propertyVersion: row.property_version,
    seller: row.seller,
    buyer: row.buyer,
    from: row.from_address,
    to: row.to_address,
    price: row.price,
    coinType: row.coin_type,
    quantity: row.quantity,
    marketplace: row.marketplace,
    listingId: row.listing_id,
    offerId: row.offer_id,
    lootboxId: row.lootbox_id === null ? null : Number(row.lootbox_id),
    tier: row.tier,
    ranking: rankingOf(row.ranking),
  };
}

/**
 * Where "now" is in the feed: after everything committed up to the checkpoint, including the
 * worker's events already written at its version (read in the same statement, so a worker event
 * committed later sorts after it). Null before the first batch. Live-only consumers and new
 * webhook endpoints start here.
 */
export async function feedHead(db: Db): Promise<FeedPosition | null> {
  const { rows } = await sql<{ v: string | null; i: number | null }>`
    SELECT c.v::text AS v,
           (SELECT max(k.event_index) FROM collection_ranking_changes k
             WHERE k.transaction_version = c.v AND k.event_index >= ${RANKING_EVENT_OFFSET}) AS i
      FROM (SELECT last_version AS v FROM ${feedCheckpointRow} f) c`.execute(db);
  const row = rows[0];
  if (!row || row.v === null) return null;
  const end = indexedEnd(Number(row.v));
  return row.i === null ? end : { version: end.version, eventIndex: row.i };
}
