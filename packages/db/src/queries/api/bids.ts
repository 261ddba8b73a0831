import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../database';
import {
  type CursorValue,
  decodeCursor,
  iso,
  keysetAfter,
  kindsOf,
  NATIVE_COIN,
  offsetOf,
  type Page,
  type PageRequest,
  type SortKey,
  toPage,
} from './pagination';

/** A bid is a token offer or a collection offer (DESIGN), active until filled, cancelled or expired. */
export interface Bid {
  kind: 'token_offer' | 'collection_offer';
  offerId: string;
  marketplace: string;
  buyer: string;
  price: string;
  coinType: string;
  /** Tokens still wanted: the offer amount, or a collection offer's remaining amount. */
  quantity: string;
  tokenId: string | null;
  tokenName: string | null;
  creator: string | null;
  collection: string | null;
  collectionId: string | null;
  status: string;
  expiresAt: string | null;
  timestamp: string | null;
  version: number | null;
}

interface BidRow {
  kind: 'token_offer' | 'collection_offer';
  offer_id: string;
  marketplace: string;
  buyer: string;
  price: string;
  coin_type: string | null;
  quantity: string;
  token_data_id: string | null;
  token_name: string | null;
  creator_address: string | null;
  collection_name: string | null;
  collection_id: string | null;
  status: string;
  expiration_time: Date | null;
  created_at: Date | null;
  created_version: number | null;
}

function toBid(r: BidRow): Bid {
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
const live = (now: Date) => sql`status = 'active' AND (expiration_time IS NULL OR expiration_time > ${now})`;

/** Both offer tables as one relation filtered by `where` (columns of both tables). */
function bidsUnion(tokenWhere: RawBuilder<unknown>, collectionWhere: RawBuilder<unknown>, now: Date) {
  return sql`(
    SELECT 'token_offer' AS kind, offer_id, marketplace, buyer, price, coin_type, token_amount AS quantity,
           token_data_id, token_name, creator_address, collection_name, collection_id, status,
           expiration_time, created_at, created_version
      FROM token_offers WHERE ${live(now)} AND ${tokenWhere}
    UNION ALL
    SELECT 'collection_offer', offer_id, marketplace, buyer, price, coin_type, remaining_amount,
           NULL, NULL, creator_address, collection_name, collection_id, status,
           expiration_time, created_at, created_version
      FROM collection_offers WHERE ${live(now)} AND ${collectionWhere}
  ) b`;
}

async function bidPage(
  db: Db,
  relation: RawBuilder<unknown>,
  keys: SortKey[],
  keyOf: (r: BidRow) => CursorValue[],
  request: PageRequest,
): Promise<Page<Bid>> {
  const after = request.cursor ? keysetAfter(keys, decodeCursor(request.cursor, kindsOf(keys))) : sql`true`;
  const order = sql.join(
    keys.map((k) => sql`${k.expr} ${sql.raw(k.dir)}`),
    sql`, `,
  );
  const [{ rows }, { rows: count }] = await Promise.all([
    sql<BidRow>`SELECT * FROM ${relation} WHERE ${after} ORDER BY ${order}
      LIMIT ${request.limit + 1} OFFSET ${offsetOf(request)}`.execute(db),
    sql<{ total: number }>`SELECT count(*)::int AS total FROM ${relation}`.execute(db),
  ]);
  return toPage(rows, request, count[0]?.total ?? 0, keyOf, toBid);
}

const HIGHEST: SortKey[] = [
  { expr: sql`b.price`, dir: 'desc', kind: 'u64' },
  { expr: sql`b.kind`, dir: 'asc', kind: 'text' },
  { expr: sql`b.marketplace`, dir: 'asc', kind: 'text' },
  { expr: sql`b.offer_id`, dir: 'asc', kind: 'text' },
];

/** Live bids on collections (token and collection offers), highest price first. */
export function bidsOfCollections(
  db: Db,
  collectionIds: string[],
  request: PageRequest,
  now: Date = new Date(),
): Promise<Page<Bid>> {
  const where = sql`collection_id = ANY(${collectionIds})`;
  return bidPage(
    db,
    bidsUnion(where, where, now),
    HIGHEST,
    (r) => [r.price, r.kind, r.marketplace, r.offer_id],
    request,
  );
}

const NEWEST: SortKey[] = [
  { expr: sql`coalesce(b.created_version, 0)`, dir: 'desc', kind: 'int' },
  { expr: sql`b.kind`, dir: 'asc', kind: 'text' },
  { expr: sql`b.marketplace`, dir: 'asc', kind: 'text' },
  { expr: sql`b.offer_id`, dir: 'asc', kind: 'text' },
];

/** A buyer's live bids, newest first. */
export function bidsOfBuyer(
  db: Db,
  buyer: string,
  request: PageRequest,
  now: Date = new Date(),
): Promise<Page<Bid>> {
  const where = sql`buyer = ${buyer}`;
  return bidPage(
    db,
    bidsUnion(where, where, now),
    NEWEST,
    (r) => [r.created_version ?? 0, r.kind, r.marketplace, r.offer_id],
    request,
  );
}

/** The best live bid on a token: its own offers or its collection's offers. */
export async function bestBidForToken(
  db: Db,
  tokenId: string,
  collectionId: string,
  now: Date = new Date(),
): Promise<Bid | null> {
  const { rows } = await sql<BidRow>`
    SELECT * FROM ${bidsUnion(sql`token_data_id = ${tokenId}`, sql`collection_id = ${collectionId}`, now)}
     ORDER BY b.price DESC LIMIT 1`.execute(db);
  return rows[0] ? toBid(rows[0]) : null;
}
