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

export interface ListingCard {
  listingId: string;
  marketplace: string;
  tokenId: string;
  tokenName: string | null;
  tokenStandard: string | null;
  propertyVersion: string | null;
  creator: string | null;
  collection: string | null;
  collectionId: string | null;
  tokenUri: string | null;
  seller: string | null;
  price: string;
  coinType: string;
  quantity: string;
  status: string;
  listedAt: string | null;
  version: number | null;
}

interface ListingRow {
  listing_id: string;
  marketplace: string;
  token_data_id: string;
  token_name: string | null;
  token_standard: string | null;
  property_version: string | null;
  creator_address: string | null;
  collection_name: string | null;
  collection_id: string | null;
  token_uri: string | null;
  seller: string | null;
  price: string;
  coin_type: string | null;
  token_amount: string;
  status: string;
  listed_at: Date | null;
  listed_version: number | null;
  popularity?: number;
}

const LISTING_COLUMNS = sql`l.listing_id, l.marketplace, l.token_data_id, l.token_name, l.token_standard,
  l.property_version, l.creator_address, l.collection_name, l.collection_id, t.token_uri, l.seller, l.price,
  l.coin_type, l.token_amount, l.status, l.listed_at, l.listed_version`;

export function toListingCard(r: ListingRow): ListingCard {
  return {
    listingId: r.listing_id,
    marketplace: r.marketplace,
    tokenId: r.token_data_id,
    tokenName: r.token_name,
    tokenStandard: r.token_standard,
    propertyVersion: r.property_version,
    creator: r.creator_address,
    collection: r.collection_name,
    collectionId: r.collection_id,
    tokenUri: r.token_uri,
    seller: r.seller,
    price: r.price,
    coinType: r.coin_type ?? NATIVE_COIN,
    quantity: r.token_amount,
    status: r.status,
    listedAt: iso(r.listed_at),
    version: r.listed_version,
  };
}

export interface ListingFilter {
  search?: string | undefined;
  minPrice?: string | undefined;
  maxPrice?: string | undefined;
  coinType?: string | undefined;
  collectionName?: string | undefined;
  creatorAddress?: string | undefined;
  collectionUrl?: string | undefined;
}

/** Escapes LIKE wildcards so that a user's `%` or `_` matches itself. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The one WHERE clause of listing-cards and total-listing-cards, so that the count always agrees
 * with the list. Collection-level filters (search by collection name, collection URL) are resolved
 * to collection ids first: an `= ANY(ids)` term can use the listings index, a join could not.
 */
export async function listingFilterWhere(db: Db, f: ListingFilter): Promise<RawBuilder<boolean>> {
  const terms: RawBuilder<unknown>[] = [sql`l.status = 'active'`];
  if (f.search !== undefined && f.search.trim() !== '') {
    const text = f.search.trim();
    const { rows } = await sql<{ collection_id: string }>`
      SELECT collection_id FROM collections
       WHERE collection_name ILIKE ${likePattern(text)} OR collection_name % ${text}
       LIMIT 500`.execute(db);
    const ids = rows.map((r) => r.collection_id);
    terms.push(
      sql`(l.token_name ILIKE ${likePattern(text)} OR l.token_name % ${text} OR l.collection_id = ANY(${ids}))`,
    );
  }
  if (f.minPrice !== undefined) terms.push(sql`l.price >= ${f.minPrice}::numeric`);
  if (f.maxPrice !== undefined) terms.push(sql`l.price <= ${f.maxPrice}::numeric`);
  if (f.coinType !== undefined) terms.push(sql`coalesce(l.coin_type, ${NATIVE_COIN}) = ${f.coinType}`);
  if (f.collectionName !== undefined) terms.push(sql`l.collection_name = ${f.collectionName}`);
  if (f.creatorAddress !== undefined) terms.push(sql`l.creator_address = ${f.creatorAddress}`);
  if (f.collectionUrl !== undefined) {
    const { rows } = await sql<{ collection_id: string }>`
      SELECT collection_id FROM collections WHERE uri = ${f.collectionUrl} LIMIT 500`.execute(db);
    terms.push(sql`l.collection_id = ANY(${rows.map((r) => r.collection_id)})`);
  }
  return sql<boolean>`(${sql.join(terms, sql` AND `)})`;
}

const NEWEST: SortKey[] = [
  { expr: sql`l.listed_version`, dir: 'desc', kind: 'int' },
  { expr: sql`l.marketplace`, dir: 'asc', kind: 'text' },
  { expr: sql`l.listing_id`, dir: 'asc', kind: 'text' },
];
// Popularity: the collection's place in the worker's 7-day trending ranking (volume 0.5, sales 0.3,
// unique buyers 0.2); collections outside the ranking come after every ranked one.
const POPULAR: SortKey[] = [
  { expr: sql`coalesce(rs.position, 2147483647)`, dir: 'asc', kind: 'int' },
  ...NEWEST,
];

function orderBy(keys: SortKey[]): RawBuilder<unknown> {
  return sql.join(
    keys.map((k) => sql`${k.expr} ${sql.raw(k.dir)}`),
    sql`, `,
  );
}

export async function listingCards(
  db: Db,
  filter: ListingFilter,
  byPopular: boolean,
  request: PageRequest,
): Promise<Page<ListingCard>> {
  const where = await listingFilterWhere(db, filter);
  const keys = byPopular ? POPULAR : NEWEST;
  const after = request.cursor ? keysetAfter(keys, decodeCursor(request.cursor, kindsOf(keys))) : sql`true`;
  const popularJoin = byPopular
    ? sql`LEFT JOIN ranking_snapshots rs ON rs.ranking = 'trending' AND rs.collection_id = l.collection_id`
    : sql``;
  const [{ rows }, total] = await Promise.all([
    sql<ListingRow>`
      SELECT ${LISTING_COLUMNS} ${byPopular ? sql`, coalesce(rs.position, 2147483647) AS popularity` : sql``}
        FROM listings l
        LEFT JOIN tokens t ON t.token_data_id = l.token_data_id
        ${popularJoin}
       WHERE ${where} AND ${after}
       ORDER BY ${orderBy(keys)}
       LIMIT ${request.limit + 1} OFFSET ${offsetOf(request)}`.execute(db),
    countWhere(db, where),
  ]);
  const keyOf = (r: ListingRow) => {
    const newest = [r.listed_version ?? 0, r.marketplace, r.listing_id];
    return byPopular ? [r.popularity ?? 2147483647, ...newest] : newest;
  };
  return toPage(rows, request, total, keyOf, toListingCard);
}

async function countWhere(db: Db, where: RawBuilder<boolean>): Promise<number> {
  const { rows } = await sql<{
    total: number;
  }>`SELECT count(*)::int AS total FROM listings l WHERE ${where}`.execute(db);
  return rows[0]?.total ?? 0;
}

export async function totalListingCards(db: Db, filter: ListingFilter): Promise<number> {
  return countWhere(db, await listingFilterWhere(db, filter));
}

const CHEAPEST: SortKey[] = [
  { expr: sql`l.price`, dir: 'asc', kind: 'u64' },
  { expr: sql`l.listed_version`, dir: 'desc', kind: 'int' },
  { expr: sql`l.marketplace`, dir: 'asc', kind: 'text' },
  { expr: sql`l.listing_id`, dir: 'asc', kind: 'text' },
];

/** Active listings of collections, cheapest first (the collection / price index). */
export function listingsOfCollections(
  db: Db,
  collectionIds: string[],
  request: PageRequest,
): Promise<Page<ListingCard>> {
  return listingPage(
    db,
    sql<boolean>`(l.status = 'active' AND l.collection_id = ANY(${collectionIds}))`,
    CHEAPEST,
    (r) => [r.price, r.listed_version ?? 0, r.marketplace, r.listing_id],
    request,
  );
}

/** A seller's active listings, newest first (the seller index). */
export function listingsOfSeller(db: Db, seller: string, request: PageRequest): Promise<Page<ListingCard>> {
  return listingPage(
    db,
    sql<boolean>`(l.status = 'active' AND l.seller = ${seller})`,
    NEWEST,
    (r) => [r.listed_version ?? 0, r.marketplace, r.listing_id],
    request,
  );
}

/** One page of the listings matching `where`, in `keys` order, with the total. */
async function listingPage(
  db: Db,
  where: RawBuilder<boolean>,
  keys: SortKey[],
  keyOf: (r: ListingRow) => CursorValue[],
  request: PageRequest,
): Promise<Page<ListingCard>> {
  const after = request.cursor ? keysetAfter(keys, decodeCursor(request.cursor, kindsOf(keys))) : sql`true`;
  const [{ rows }, total] = await Promise.all([
    sql<ListingRow>`
      SELECT ${LISTING_COLUMNS} FROM listings l LEFT JOIN tokens t ON t.token_data_id = l.token_data_id
       WHERE ${where} AND ${after}
       ORDER BY ${orderBy(keys)}
       LIMIT ${request.limit + 1} OFFSET ${offsetOf(request)}`.execute(db),
    countWhere(db, where),
  ]);
  return toPage(rows, request, total, keyOf, toListingCard);
}

/** The token's listings: the cheapest active one first, then its most recent closed one. */
export async function listingsOfToken(db: Db, tokenId: string): Promise<ListingCard[]> {
  const { rows } = await sql<ListingRow>`
    SELECT ${LISTING_COLUMNS} FROM listings l LEFT JOIN tokens t ON t.token_data_id = l.token_data_id
     WHERE l.token_data_id = ${tokenId}
     ORDER BY (l.status = 'active') DESC, CASE WHEN l.status = 'active' THEN l.price END ASC,
              l.last_transaction_version DESC
     LIMIT 20`.execute(db);
  return rows.map(toListingCard);
}
