import type { ListingCard } from '@mdq/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../database';
import type { ListingsTable, TokensTable } from '../../schema';
import { NATIVE_COIN } from '../market-rules';
import {
  type CollectionSet,
  collectionIdArray,
  countOf,
  fetchPage,
  iso,
  orderOf,
  type Page,
  type PageKey,
  type PageRequest,
  perCollection,
} from './pagination';
import { tokenPropertyVersion } from './property-version';
import type { ReadRow } from './read-row';
import { ofTokenCollection } from './token-collection';

export type { ListingCard };

/** The columns LISTING_COLUMNS reads, typed by the schema. */
export type ListingCardRow = Pick<
  ReadRow<ListingsTable>,
  | 'listing_id'
  | 'marketplace'
  | 'token_data_id'
  | 'token_name'
  | 'token_standard'
  | 'property_version'
  | 'creator_address'
  | 'collection_name'
  | 'collection_id'
  | 'seller'
  | 'price'
  | 'coin_type'
  | 'token_amount'
  | 'listed_at'
  | 'listed_version'
> &
  Pick<ReadRow<TokensTable>, 'token_uri'> & { status: string; popularity?: number };

// u64 numerics as text: the same whether read as a row or inside JSON (listing card).
const LISTING_COLUMNS = sql`l.listing_id, l.marketplace, l.token_data_id, l.token_name, l.token_standard,
  ${sql.raw(tokenPropertyVersion('l'))}::text AS property_version, l.creator_address, l.collection_name, l.collection_id,
  t.token_uri, l.seller, l.price::text AS price, l.coin_type, l.token_amount::text AS token_amount, l.status,
  l.listed_at, l.listed_version`;

export function toListingCard(r: ListingCardRow): ListingCard {
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
 * Whether every name trigram-similar to `text` also contains it, so that `name % text` adds no row to
 * `name ILIKE '%text%'`: true for one or two ASCII letters or digits at pg_trgm's default threshold
 * (0.3, which mdq never changes). pg_trgm pads each word with two spaces before and one after: a
 * one-character text has the trigrams "  a" and " a ", and sharing either means a word starting with
 * it; a two-character text has three, sharing one of them gives at most 1/4 (against a one-letter
 * word, the smallest set), and any two of them mean a word holding the text. Skipping the trigram
 * test matters because such a text cannot use the trigram index: every active listing was compared
 * (30 ms a count on the 1M chain, 190 ms for one letter, the costliest statement of the live bench).
 */
function subsumedBySubstring(text: string): boolean {
  return /^[A-Za-z0-9]{1,2}$/.test(text);
}

/** The search text of a filter, trimmed; undefined when there is none. */
function searchText(f: ListingFilter): string | undefined {
  const text = f.search?.trim();
  return text === '' ? undefined : text;
}

/**
 * The terms of listing-cards and total-listing-cards but the search's, so that the count always
 * agrees with the list. The collection URL is a subquery over collections, hashed once per statement.
 */
function filterTerms(f: ListingFilter): RawBuilder<unknown>[] {
  const terms: RawBuilder<unknown>[] = [sql`true`];
  if (f.minPrice !== undefined) terms.push(sql`l.price >= ${f.minPrice}::numeric`);
  if (f.maxPrice !== undefined) terms.push(sql`l.price <= ${f.maxPrice}::numeric`);
  if (f.coinType !== undefined) terms.push(sql`coalesce(l.coin_type, ${NATIVE_COIN}) = ${f.coinType}`);
  if (f.collectionName !== undefined) terms.push(sql`l.collection_name = ${f.collectionName}`);
  if (f.creatorAddress !== undefined) terms.push(sql`l.creator_address = ${f.creatorAddress}`);
  if (f.collectionUrl !== undefined) {
    terms.push(
      sql`l.collection_id IN (SELECT collection_id FROM collections WHERE uri = ${f.collectionUrl})`,
    );
  }
  return terms;
}

const allOf = (terms: RawBuilder<unknown>[]): RawBuilder<boolean> =>
  sql<boolean>`(${sql.join(terms, sql` AND `)})`;

type ListingKey = PageKey<ListingCardRow>;
const NEWEST: ListingKey[] = [
  { expr: sql`l.listed_version`, dir: 'desc', kind: 'int', field: 'listed_version', ifNull: 0 },
  { expr: sql`l.marketplace`, dir: 'asc', kind: 'text', field: 'marketplace' },
  { expr: sql`l.listing_id`, dir: 'asc', kind: 'text', field: 'listing_id' },
];
// Popularity: the collection's place in the worker's 7-day trending ranking (volume 0.5, sales 0.3,
// unique buyers 0.2); collections outside the ranking come after every ranked one.
const UNRANKED = sql.raw('2147483647');
const popularKeys = (position: RawBuilder<unknown>): ListingKey[] => [
  { expr: position, dir: 'asc', kind: 'int', field: 'popularity' },
  ...NEWEST,
];
const POPULAR = popularKeys(sql`l.popularity`);
const CHEAPEST: ListingKey[] = [{ expr: sql`l.price`, dir: 'asc', kind: 'u64', field: 'price' }, ...NEWEST];

interface ListingCount {
  total: number;
}

/**
 * Where listing-cards and total-listing-cards read: the active listings alone, kept apart from the
 * closed ones by triggers (migration 2026-12-12T1000), so that their rows lie on a few pages.
 * The pages about a collection or a seller read `listings` through its partial indexes of the active
 * rows, whose per-collection counters their answers key on.
 */
const ACTIVE = sql.table('active_listings');
const LISTINGS = sql.table('listings');

/**
 * The rows a filter reads (`from`, aliased `l` by the reader), the terms it tests on them, and
 * whether they are a search's matches (`matched`: few enough to collect before they are sorted).
 */
interface ListingRows {
  from: RawBuilder<unknown>;
  where: RawBuilder<boolean>;
  matched: boolean;
}

/**
 * The rows of listing-cards and total-listing-cards. A search's matches (a name, or a collection's
 * name, that contains or resembles the text) are read by active_listings_matching
 * (functions/active_listings_matching.sql, the one description of that predicate) from the trigram
 * and collection indexes, pricing active_listings' pages as cached (at the default costs the planner
 * scanned the table, testing similarity on every row: 31 ms against 2.6); the filter's other terms
 * are tested on the matches. A text of one or two letters or digits only needs containing
 * (`subsumedBySubstring`) and has no trigram to narrow it: its term is tested on every active
 * listing (the collections as an array, an InitPlan, as the function reads them).
 */
function listingRows(f: ListingFilter): ListingRows {
  const terms = filterTerms(f);
  const search = searchText(f);
  if (search === undefined) return { from: ACTIVE, where: allOf(terms), matched: false };
  const like = likePattern(search);
  if (!subsumedBySubstring(search)) {
    return { from: sql`active_listings_matching(${search}, ${like})`, where: allOf(terms), matched: true };
  }
  // The collection's membership first, as in active_listings_matching: it spares the ILIKE of
  // every listing of a matching collection.
  const contains = sql`(l.collection_id = ANY(ARRAY(
    SELECT collection_id FROM collections WHERE collection_name ILIKE ${like})) OR l.token_name ILIKE ${like})`;
  return { from: ACTIVE, where: allOf([...terms, contains]), matched: false };
}

/** The count of the listings of `from` that `where` matches. */
const countListings = (from: RawBuilder<unknown>, where: RawBuilder<boolean>): RawBuilder<ListingCount> =>
  sql`SELECT count(*)::int AS total FROM ${from} l WHERE ${where}`;

/**
 * The count of listing-cards and total-listing-cards: for no filter, or a collection name and creator
 * alone, the sum of the counts the triggers keep per (creator, collection name) in
 * active_listing_counts (a few rows, not every active listing); for a search of one or two letters
 * or digits alone, the count the triggers keep per such text in active_listing_grams (one row); else
 * the matches counted.
 */
function countCards(f: ListingFilter, { from, where }: ListingRows): RawBuilder<ListingCount> {
  const { collectionName, creatorAddress, search, ...others } = f;
  const given = (v: unknown) => v !== undefined && v !== '';
  if (Object.values(others).some(given)) return countListings(from, where);
  if (given(search)) {
    const text = searchText(f);
    if (text === undefined || !subsumedBySubstring(text) || given(collectionName) || given(creatorAddress)) {
      return countListings(from, where);
    }
    return sql`SELECT coalesce((SELECT g.listings FROM active_listing_grams g WHERE g.gram = lower(${text})), 0)::int AS total`;
  }
  const terms = [sql`true`];
  if (collectionName !== undefined) terms.push(sql`k.collection_name = ${collectionName}`);
  if (creatorAddress !== undefined) terms.push(sql`k.creator_address = ${creatorAddress}`);
  return sql`SELECT coalesce(sum(k.listings), 0)::int AS total FROM active_listing_counts k
              WHERE ${sql.join(terms, sql` AND `)}`;
}

/**
 * One page of the listings of `from` matching `where`, in `keys` order. The page is cut before it
 * meets its tokens: joined first, a page at offset 80 looked up the tokens of all 101 rows it
 * skipped through.
 */
function listingPage(
  db: Db,
  from: RawBuilder<unknown>,
  where: RawBuilder<boolean>,
  keys: ListingKey[],
  request: PageRequest,
  prepared = false,
  count = countListings(from, where),
): Promise<Page<ListingCard>> {
  return fetchPage(
    db,
    {
      keys,
      prepared,
      rows: (p) => sql<ListingCardRow>`
        SELECT ${LISTING_COLUMNS}
          FROM (SELECT l.* FROM ${from} l WHERE ${where} AND ${p.after()} ORDER BY ${p.order} ${p.window}) l
          LEFT JOIN tokens t ON t.token_data_id = l.token_data_id
         ORDER BY ${p.order}`,
      count,
      map: toListingCard,
    },
    request,
  );
}

export function listingCards(
  db: Db,
  filter: ListingFilter,
  byPopular: boolean,
  request: PageRequest,
): Promise<Page<ListingCard>> {
  const rows = listingRows(filter);
  const count = countCards(filter, rows);
  if (rows.matched) return matchedPage(db, rows, byPopular, request, count);
  if (byPopular) return popularPage(db, rows.where, request, count);
  return listingPage(db, rows.from, rows.where, NEWEST, request, false, count);
}

/*
 * The listings a search text matches, newest first or by popularity: the matches are collected
 * from the indexes first (a materialized CTE of active_listings_matching) and only they are sorted,
 * by popularity after meeting their collection's ranking position. Walking every active listing
 * newest first (or each ranked collection's) and testing each one, which the planner picks from its
 * estimates, reads all of them when the matches are few and tests trigram similarity on every row (a
 * popular search 8–11 ms against 4). The total counts the same matches in the same statement
 * (`matches`): counted apart, the matches were read twice.
 */
function matchedPage(
  db: Db,
  { from, where }: ListingRows,
  byPopular: boolean,
  request: PageRequest,
  count: RawBuilder<ListingCount>,
): Promise<Page<ListingCard>> {
  const matches = byPopular
    ? sql`(SELECT m.*, coalesce(rs.position, ${UNRANKED}) AS popularity FROM page_matches m
            LEFT JOIN ranking_snapshots rs ON rs.ranking = 'trending' AND rs.collection_id = m.collection_id)`
    : sql`page_matches`;
  return fetchPage(
    db,
    {
      keys: byPopular ? POPULAR : NEWEST,
      matches: sql`SELECT l.* FROM ${from} l WHERE ${where}`,
      rows: (p) => sql<ListingCardRow>`
        SELECT ${LISTING_COLUMNS}${byPopular ? sql`, l.popularity` : sql``}
          FROM (SELECT * FROM ${matches} l WHERE ${p.after()} ORDER BY ${p.order} ${p.window}) l
          LEFT JOIN tokens t ON t.token_data_id = l.token_data_id
         ORDER BY ${p.order}`,
      count,
      map: toListingCard,
    },
    request,
  );
}

/*
 * Listings by popularity without reading every active listing. Ranked collections are walked in
 * ranking order (the ranking's primary key), each giving its newest active listings (at most
 * `reach`, from the collection's active-listing index), and the walk stops once `reach` rows are
 * in hand (an incremental sort on the position the walk already holds): a first page reads the
 * first ranked collections only. The unranked listings (newest first from the active-listing
 * index) are read only when the ranked ones cannot fill the reach (a one-time filter). They leave
 * out the ranked collections as a list read once (`<> ALL`), not as an anti-join: planned on a
 * ranking's statistics from before the worker rewrote it (143 collections, then none), the
 * anti-join became a sequential scan and sort of every active listing, 150–350 ms under the live
 * bench. The page is cut from that union in the one order, and only its rows meet their token.
 * Same rows and order as joining every active listing to its ranking position and sorting.
 */
function popularPage(
  db: Db,
  where: RawBuilder<boolean>,
  request: PageRequest,
  count: RawBuilder<ListingCount>,
): Promise<Page<ListingCard>> {
  return fetchPage(
    db,
    {
      keys: POPULAR,
      rows: (p) => sql<ListingCardRow>`
        WITH ranked AS MATERIALIZED (
          SELECT l.*, rs.position AS popularity
            FROM ranking_snapshots rs
            CROSS JOIN LATERAL (
              SELECT l.* FROM ${ACTIVE} l
               WHERE l.collection_id = rs.collection_id AND ${where} AND ${p.after(popularKeys(sql`rs.position`))}
               ORDER BY ${orderOf(NEWEST)} LIMIT ${p.reach}) l
           WHERE rs.ranking = 'trending'
           ORDER BY ${orderOf(popularKeys(sql`rs.position`))} LIMIT ${p.reach})
        SELECT ${LISTING_COLUMNS}, l.popularity FROM (
          SELECT * FROM (
            SELECT * FROM ranked
            UNION ALL
            (SELECT l.*, ${UNRANKED} AS popularity FROM ${ACTIVE} l
              WHERE (SELECT count(*) FROM ranked) < ${p.reach} AND ${where}
                AND l.collection_id <> ALL (ARRAY(SELECT rs.collection_id FROM ranking_snapshots rs
                                                   WHERE rs.ranking = 'trending' AND rs.collection_id IS NOT NULL))
                AND ${p.after(popularKeys(UNRANKED))}
              ORDER BY ${orderOf(NEWEST)} LIMIT ${p.reach})
          ) l
          ORDER BY ${p.order} ${p.window}
        ) l LEFT JOIN tokens t ON t.token_data_id = l.token_data_id
        ORDER BY ${p.order}`,
      count,
      map: toListingCard,
    },
    request,
  );
}

/**
 * The listing-cards total of a filter: the same count statement as the list's, so at one read
 * `version` the two routes share one count (and each counts once per version, not per request).
 */
export async function totalListingCards(db: Db, filter: ListingFilter, version?: string): Promise<number> {
  return (await countOf(db, countCards(filter, listingRows(filter)), version, undefined)).total;
}

/** Active listings of collections, cheapest first (each from the collection / price index). */
export function listingsOfCollections(
  db: Db,
  collections: CollectionSet,
  request: PageRequest,
): Promise<Page<ListingCard>> {
  return fetchPage(
    db,
    {
      keys: CHEAPEST,
      // Each collection's cheapest listings from its active-listing index: one plan for every collection.
      prepared: true,
      // The page is cut before it meets its tokens, as listingPage's.
      rows: (p) => sql<ListingCardRow>`
        SELECT ${LISTING_COLUMNS}
          FROM (SELECT l.* FROM ${perCollection(
            collections,
            (id) => sql`
              SELECT * FROM listings l WHERE l.status = 'active' AND l.collection_id = ${id} AND ${p.after()}
               ORDER BY ${p.order} LIMIT ${p.reach}`,
          )} l ORDER BY ${p.order} ${p.window}) l
          -- The token's own collection, always the listing's: stated so that the statement reads
          -- tokens by collection, and the page's cache key needs only its collections' counters.
          LEFT JOIN tokens t ON t.token_data_id = l.token_data_id AND t.collection_id = l.collection_id
         ORDER BY ${p.order}`,
      count: countListings(
        LISTINGS,
        sql<boolean>`(l.status = 'active' AND l.collection_id = ANY(${collectionIdArray(collections)}))`,
      ),
      map: toListingCard,
    },
    request,
  );
}

/** A seller's active listings, newest first (the seller index). */
export function listingsOfSeller(db: Db, seller: string, request: PageRequest): Promise<Page<ListingCard>> {
  // One seller's rows from the seller index: the same plan for every seller.
  return listingPage(
    db,
    LISTINGS,
    sql<boolean>`(l.status = 'active' AND l.seller = ${seller})`,
    NEWEST,
    request,
    true,
  );
}

/** The token's listings: the cheapest active one first, then its most recent closed ones (a subquery). */
export function listingsOfTokenSql(
  tokenId: string,
  collection: RawBuilder<unknown>,
): RawBuilder<ListingCardRow> {
  return sql<ListingCardRow>`
    SELECT ${LISTING_COLUMNS} FROM listings l
      LEFT JOIN tokens t ON t.token_data_id = l.token_data_id AND t.collection_id = ${collection}
     WHERE l.token_data_id = ${tokenId} AND ${ofTokenCollection('l.collection_id', collection)}
     ORDER BY (l.status = 'active') DESC, CASE WHEN l.status = 'active' THEN l.price END ASC,
              l.last_transaction_version DESC
     LIMIT 20`;
}
