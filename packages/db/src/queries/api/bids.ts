import type { Bid } from '@mdq/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../database';
import { unestimated } from '../../prepared';
import type { CollectionOffersTable } from '../../schema';
import { NATIVE_COIN } from '../market-rules';
import {
  type CollectionSet,
  collectionIdArray,
  fetchPageUntil,
  iso,
  type Page,
  type PageKey,
  type PageRequest,
  perCollection,
} from './pagination';
import type { ReadRow } from './read-row';
import { ofTokenCollection } from './token-collection';

/** A bid is a token offer or a collection offer (docs/API.md), active until filled, cancelled or expired. */
export type { Bid };

/** A row of the union of token and collection offers, typed by the schema where a column is read as stored. */
export type BidRow = Pick<
  ReadRow<CollectionOffersTable>,
  | 'offer_id'
  | 'marketplace'
  | 'buyer'
  | 'price'
  | 'coin_type'
  | 'creator_address'
  | 'collection_name'
  | 'collection_id'
  | 'expiration_time'
  | 'created_at'
  | 'created_version'
> & {
  kind: 'token_offer' | 'collection_offer';
  quantity: string;
  /** Null for a collection offer. */
  token_data_id: string | null;
  token_name: string | null;
  status: string;
};

export function toBid(r: BidRow): Bid {
  return {
    kind: r.kind,
    offerId: r.offer_id,
    marketplace: r.marketplace,
    buyer: r.buyer,
    price: r.price,
    coinType: r.coin_type ?? NATIVE_COIN,
    quantity: r.quantity,
    tokenId: r.token_data_id,
    tokenName: r.token_name,
    creator: r.creator_address,
    collection: r.collection_name,
    collectionId: r.collection_id,
    status: r.status,
    expiresAt: iso(r.expiration_time),
    timestamp: iso(r.created_at),
    version: r.created_version,
  };
}

/** Live at `now` (the API's clock, so expiry follows the same "now" as every other window). */
const live = (now: Date) =>
  sql`status = 'active' AND (expiration_time IS NULL OR expiration_time > ${unestimated(now)})`;

/** Both offer tables as one relation filtered by `where` (columns of both tables). */
function bidsUnion(tokenWhere: RawBuilder<unknown>, collectionWhere: RawBuilder<unknown>, now: Date) {
  return sql`(
    SELECT 'token_offer' AS kind, offer_id, marketplace, buyer, price, coin_type, token_amount::text AS quantity,
           token_data_id, token_name, creator_address, collection_name, collection_id, status,
           expiration_time, created_at, created_version
      FROM token_offers WHERE ${live(now)} AND ${tokenWhere}
    UNION ALL
    SELECT 'collection_offer', offer_id, marketplace, buyer, price, coin_type, remaining_amount::text,
           NULL, NULL, creator_address, collection_name, collection_id, status,
           expiration_time, created_at, created_version
      FROM collection_offers WHERE ${live(now)} AND ${collectionWhere}
  ) b`;
}

/**
 * A page of live bids and until when it holds at this read version (epoch ms; null: until the next
 * write): the first expiry among every live bid the filter matches. A bid only ever stops being live
 * with time (expiry), never starts to, so no page of the filter changes before then.
 */
export interface BidPage {
  page: Page<Bid>;
  until: number | null;
}

/** Every live bid `relation` holds, counted, and when the first of them expires. */
const countBids = (relation: RawBuilder<unknown>) =>
  sql<{ total: number; until: Date | null }>`
    SELECT count(*)::int AS total, min(b.expiration_time) AS until FROM ${relation}`;

function bidPage(
  db: Db,
  relation: RawBuilder<unknown>,
  keys: PageKey<BidRow>[],
  request: PageRequest,
  now: Date,
): Promise<BidPage> {
  return fetchPageUntil(
    db,
    {
      keys,
      rows: (p) => sql<BidRow>`SELECT * FROM ${relation} WHERE ${p.after()} ORDER BY ${p.order} ${p.window}`,
      count: countBids(relation),
      now,
      // One buyer's offers from their indexes, `now` hidden from the estimates (unestimated):
      // the same plan for every buyer.
      prepared: true,
      map: toBid,
    },
    request,
  );
}

const HIGHEST: PageKey<BidRow>[] = [
  { expr: sql`b.price`, dir: 'desc', kind: 'u64', field: 'price' },
  { expr: sql`b.kind`, dir: 'asc', kind: 'text', field: 'kind' },
  { expr: sql`b.marketplace`, dir: 'asc', kind: 'text', field: 'marketplace' },
  { expr: sql`b.offer_id`, dir: 'asc', kind: 'text', field: 'offer_id' },
];

/** Live bids on collections (token and collection offers), highest price first. */
export function bidsOfCollections(
  db: Db,
  collections: CollectionSet,
  request: PageRequest,
  now: Date = new Date(),
): Promise<BidPage> {
  const where = sql`collection_id = ANY(${collectionIdArray(collections)})`;
  return fetchPageUntil(
    db,
    {
      keys: HIGHEST,
      // Each collection's page from its two (collection, price) indexes, merged in price order.
      rows: (p) => sql<BidRow>`
        SELECT b.* FROM ${perCollection(collections, (id) => {
          const one = sql`collection_id = ${id}`;
          return sql`SELECT * FROM ${bidsUnion(one, one, now)} WHERE ${p.after()} ORDER BY ${p.order} LIMIT ${p.reach}`;
        })} b
         ORDER BY ${p.order} ${p.window}`,
      count: countBids(bidsUnion(where, where, now)),
      now,
      prepared: true,
      map: toBid,
    },
    request,
  );
}

const NEWEST: PageKey<BidRow>[] = [
  {
    expr: sql`coalesce(b.created_version, 0)`,
    dir: 'desc',
    kind: 'int',
    field: 'created_version',
    ifNull: 0,
  },
  { expr: sql`b.kind`, dir: 'asc', kind: 'text', field: 'kind' },
  { expr: sql`b.marketplace`, dir: 'asc', kind: 'text', field: 'marketplace' },
  { expr: sql`b.offer_id`, dir: 'asc', kind: 'text', field: 'offer_id' },
];

/** A buyer's live bids, newest first. */
export function bidsOfBuyer(
  db: Db,
  buyer: string,
  request: PageRequest,
  now: Date = new Date(),
): Promise<BidPage> {
  const where = sql`buyer = ${buyer}`;
  return bidPage(db, bidsUnion(where, where, now), NEWEST, request, now);
}

/** The best live bid on a token: its own offers or its collection's offers (a subquery). */
export function bestBidForTokenSql(
  tokenId: string,
  collectionId: RawBuilder<unknown>,
  now: Date,
): RawBuilder<BidRow> {
  return sql<BidRow>`
    SELECT b.kind, b.offer_id, b.marketplace, b.buyer, b.price::text AS price, b.coin_type, b.quantity,
           b.token_data_id, b.token_name, b.creator_address, b.collection_name, b.collection_id, b.status,
           b.expiration_time, b.created_at, b.created_version
      FROM ${bidsUnion(sql`token_data_id = ${tokenId} AND ${ofTokenCollection('collection_id', collectionId)}`, sql`collection_id = ${collectionId}`, now)}
     ORDER BY b.price DESC LIMIT 1`;
}
