import { sql } from 'kysely';
import type { Db } from '../../database';
import { iso } from '../api/pagination';
import { type FeedEvent, type FeedPosition, MARKET_KINDS, TOKEN_KINDS } from './feed-events';

interface FeedRow {
  source: 'market' | 'token' | 'purchase' | 'reveal';
  transaction_version: number;
  event_index: number;
  kind: string;
  token_data_id: string | null;
  token_standard: string | null;
  property_version: string | null;
  collection_id: string | null;
  from_address: string | null;
  to_address: string | null;
  seller: string | null;
  buyer: string | null;
  price: string | null;
  coin_type: string | null;
  quantity: string;
  marketplace: string | null;
  listing_id: string | null;
  offer_id: string | null;
  lootbox_id: number | null;
  tier: string | null;
  transaction_timestamp: Date;
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
              m.token_standard, m.property_version::text, m.collection_id, NULL::text AS from_address,
              NULL::text AS to_address, m.seller, m.buyer, m.price::text, m.coin_type,
              m.token_amount::text AS quantity, m.marketplace, m.listing_id, m.offer_id,
              NULL::bigint AS lootbox_id, NULL::text AS tier, m.transaction_timestamp
         FROM marketplace_activities m
        WHERE (m.transaction_version, m.event_index) > ${from} AND m.transaction_version <= ${upTo}
        ORDER BY m.transaction_version, m.event_index LIMIT ${limit})
      UNION ALL
      (SELECT 'token', a.transaction_version, a.event_index, a.kind, a.token_data_id, a.token_standard,
              a.property_version::text, a.collection_id, a.from_address, a.to_address, NULL, NULL, NULL, NULL,
              a.amount::text, NULL, NULL, NULL, NULL, NULL, a.transaction_timestamp
         FROM token_activities a
        WHERE (a.transaction_version, a.event_index) > ${from} AND a.transaction_version <= ${upTo}
          AND a.kind IN (${TOKEN_KIND_LIST})
        ORDER BY a.transaction_version, a.event_index LIMIT ${limit})
      UNION ALL
      (SELECT 'purchase', p.transaction_version, p.event_index, 'purchased', NULL, NULL, NULL, l.collection_id,
              NULL, NULL, NULL, p.buyer, p.amount_paid::text, p.coin_type, p.quantity::text, NULL, NULL, NULL,
              p.lootbox_id, NULL, p.transaction_timestamp
         FROM lootbox_purchases p LEFT JOIN lootboxes l ON l.lootbox_id = p.lootbox_id
        WHERE (p.transaction_version, p.event_index) > ${from} AND p.transaction_version <= ${upTo}
        ORDER BY p.transaction_version, p.event_index LIMIT ${limit})
      UNION ALL
      (SELECT 'reveal', r.transaction_version, r.event_index, 'opened', r.token_data_id, 'v2', '0',
              l.collection_id, NULL, r.owner_address, NULL, NULL, NULL, NULL, '1', NULL, NULL, NULL,
              r.lootbox_id, r.tier, r.transaction_timestamp
         FROM lootbox_reveals r LEFT JOIN lootboxes l ON l.lootbox_id = r.lootbox_id
        WHERE (r.transaction_version, r.event_index) > ${from} AND r.transaction_version <= ${upTo}
        ORDER BY r.transaction_version, r.event_index LIMIT ${limit})
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
  }
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
  };
}
