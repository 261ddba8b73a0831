import { sql } from 'kysely';
import type { Db } from '../database';
import { keepKnown, lastByKey, unnestInsert } from './bulk';
import type { IngestBatch } from './types';

/** What a market activity, a listing or a token offer says about its token. */
const TOKEN_COLUMNS = {
  token_data_id: 'text',
  token_standard: 'text',
  property_version: 'numeric',
  collection_id: 'text',
  collection_name: 'text',
  creator_address: 'text',
  token_name: 'text',
} as const;

/** The token columns a later event may not repeat (the token id itself always comes along). */
const TOKEN_FIELDS = Object.keys(TOKEN_COLUMNS).filter((c) => c !== 'token_data_id');

export async function writeMarketActivities(db: Db, batch: IngestBatch): Promise<number> {
  return unnestInsert(
    db,
    'marketplace_activities',
    {
      transaction_version: 'bigint',
      event_index: 'integer',
      kind: 'text',
      marketplace: 'text',
      contract_address: 'text',
      raw_event_type: 'text',
      ...TOKEN_COLUMNS,
      price: 'numeric',
      token_amount: 'numeric',
      coin_type: 'text',
      seller: 'text',
      buyer: 'text',
      listing_id: 'text',
      offer_id: 'text',
      commission: 'numeric',
      royalties: 'numeric',
      transaction_timestamp: 'timestamptz',
      seller_funded: 'boolean',
    },
    batch.marketActivities,
    'ON CONFLICT (transaction_version, event_index) DO NOTHING',
  );
}

/**
 * A sale whose event named no price (Bluemove's BuyEvent) takes the price, and the seller if it
 * named none, of the listing it closed. Runs after the listings are written, so a listing placed
 * earlier in the same batch counts; a listing mdq never saw leaves the sale at 0.
 */
export async function priceSalesFromListings(db: Db, batch: IngestBatch): Promise<number> {
  if (batch.salesAtListedPrice.length === 0) return 0;
  const versions = batch.salesAtListedPrice.map((s) => s.transaction_version);
  const indexes = batch.salesAtListedPrice.map((s) => s.event_index);
  const result = await sql`
    UPDATE marketplace_activities a SET price = l.price, seller = COALESCE(a.seller, l.seller)
      FROM unnest(${versions}::bigint[], ${indexes}::int[]) AS n(version, event_index), listings l
     WHERE a.transaction_version = n.version AND a.event_index = n.event_index
       AND l.marketplace = a.marketplace AND l.listing_id = a.listing_id`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/*
 * Listings and offers arrive already collapsed to their state after the batch. On conflict the
 * status and the closing fields follow the newer version; what only the place event knows
 * (listing time, price as listed, seller) is kept when a later event does not repeat it.
 */
export async function writeListings(db: Db, batch: IngestBatch): Promise<number> {
  return unnestInsert(
    db,
    'listings',
    {
      marketplace: 'text',
      listing_id: 'text',
      contract_address: 'text',
      ...TOKEN_COLUMNS,
      seller: 'text',
      buyer: 'text',
      price: 'numeric',
      token_amount: 'numeric',
      coin_type: 'text',
      status: 'text',
      listed_at: 'timestamptz',
      listed_version: 'bigint',
      closed_at: 'timestamptz',
      last_transaction_version: 'bigint',
    },
    lastByKey(batch.listings, (r) => `${r.marketplace}|${r.listing_id}`),
    `ON CONFLICT (marketplace, listing_id) DO UPDATE SET
       token_data_id = excluded.token_data_id,
       ${keepKnown('listings', [...TOKEN_FIELDS, 'seller', 'buyer', 'coin_type'])},
       price = CASE WHEN excluded.listed_version IS NOT NULL THEN excluded.price ELSE listings.price END,
       status = excluded.status,
       listed_at = COALESCE(excluded.listed_at, listings.listed_at),
       listed_version = COALESCE(excluded.listed_version, listings.listed_version),
       closed_at = excluded.closed_at,
       last_transaction_version = excluded.last_transaction_version
     WHERE listings.last_transaction_version <= excluded.last_transaction_version`,
  );
}

export async function writeTokenOffers(db: Db, batch: IngestBatch): Promise<number> {
  return unnestInsert(
    db,
    'token_offers',
    {
      marketplace: 'text',
      offer_id: 'text',
      contract_address: 'text',
      ...TOKEN_COLUMNS,
      buyer: 'text',
      seller: 'text',
      price: 'numeric',
      token_amount: 'numeric',
      coin_type: 'text',
      status: 'text',
      expiration_time: 'timestamptz',
      created_at: 'timestamptz',
      created_version: 'bigint',
      last_transaction_version: 'bigint',
    },
    lastByKey(batch.tokenOffers, (r) => `${r.marketplace}|${r.offer_id}`),
    `ON CONFLICT (marketplace, offer_id) DO UPDATE SET
       token_data_id = excluded.token_data_id,
       ${keepKnown('token_offers', [...TOKEN_FIELDS, 'seller', 'coin_type'])},
       status = excluded.status,
       expiration_time = COALESCE(excluded.expiration_time, token_offers.expiration_time),
       created_at = COALESCE(token_offers.created_at, excluded.created_at),
       created_version = COALESCE(token_offers.created_version, excluded.created_version),
       last_transaction_version = excluded.last_transaction_version
     WHERE token_offers.last_transaction_version <= excluded.last_transaction_version`,
  );
}

export async function writeCollectionOffers(db: Db, batch: IngestBatch): Promise<number> {
  const rows = lastByKey(batch.collectionOffers, (r) => `${r.marketplace}|${r.offer_id}`);
  let written = await unnestInsert(
    db,
    'collection_offers',
    {
      marketplace: 'text',
      offer_id: 'text',
      contract_address: 'text',
      collection_id: 'text',
      collection_name: 'text',
      creator_address: 'text',
      buyer: 'text',
      price: 'numeric',
      token_amount: 'numeric',
      remaining_amount: 'numeric',
      coin_type: 'text',
      status: 'text',
      expiration_time: 'timestamptz',
      created_at: 'timestamptz',
      created_version: 'bigint',
      last_transaction_version: 'bigint',
    },
    // An offer first seen through a fill or cancel (placed before indexing began) has no amount yet.
    rows.map((r) => ({
      ...r,
      token_amount: r.token_amount ?? r.remaining_amount ?? '0',
      remaining_amount: r.remaining_amount ?? r.token_amount ?? '0',
    })),
    `ON CONFLICT (marketplace, offer_id) DO UPDATE SET
       collection_id = COALESCE(excluded.collection_id, collection_offers.collection_id),
       collection_name = COALESCE(excluded.collection_name, collection_offers.collection_name),
       creator_address = COALESCE(excluded.creator_address, collection_offers.creator_address),
       token_amount = CASE WHEN excluded.created_version IS NOT NULL THEN excluded.token_amount
                           ELSE collection_offers.token_amount END,
       remaining_amount = excluded.remaining_amount,
       coin_type = COALESCE(excluded.coin_type, collection_offers.coin_type),
       status = excluded.status,
       expiration_time = COALESCE(excluded.expiration_time, collection_offers.expiration_time),
       created_at = COALESCE(collection_offers.created_at, excluded.created_at),
       created_version = COALESCE(collection_offers.created_version, excluded.created_version),
       last_transaction_version = excluded.last_transaction_version
     WHERE collection_offers.last_transaction_version <= excluded.last_transaction_version`,
  );
  // Fills that do not state what remains (Tradeport) are counted from the stored fill activities,
  // which makes the result the same however the range was split into batches. An offer placed
  // before indexing began has an unknown amount (0): its first fill closes it, as the official
  // aggregator does.
  const counted = rows.filter((r) => r.remaining_amount === null && r.status !== 'cancelled');
  if (counted.length > 0) {
    const result = await sql`
      UPDATE collection_offers co
      SET remaining_amount = GREATEST(co.token_amount - f.fills, 0),
          status = CASE WHEN co.token_amount - f.fills <= 0 THEN 'filled' ELSE 'active' END
      FROM (
        SELECT a.marketplace, a.offer_id, count(*) AS fills
        FROM marketplace_activities a
        JOIN unnest(${counted.map((r) => r.marketplace)}::text[], ${counted.map((r) => r.offer_id)}::text[])
          AS k(marketplace, offer_id) ON a.marketplace = k.marketplace AND a.offer_id = k.offer_id
        WHERE a.kind = 'fill_collection_offer'
          AND a.offer_id = ANY(${counted.map((r) => r.offer_id)}::text[])
          AND a.marketplace = ANY(${counted.map((r) => r.marketplace)}::text[])
        GROUP BY a.marketplace, a.offer_id
      ) f
      WHERE co.marketplace = f.marketplace AND co.offer_id = f.offer_id AND co.status <> 'cancelled'
    `.execute(db);
    written += Number(result.numAffectedRows ?? 0);
  }
  return written;
}
