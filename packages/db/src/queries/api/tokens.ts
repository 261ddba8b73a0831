import type { TokenBalance } from '@mdq/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../database';
import { executePrepared } from '../../prepared';
import { type LootboxKey, lootboxIdOf } from './lootbox';
import {
  type CollectionSet,
  collectionIdArray,
  fetchPage,
  orderOf,
  type Page,
  type PageKey,
  type PageParts,
  type PageRequest,
  perCollection,
  type SortKey,
} from './pagination';
import { ofTokenCollection } from './token-collection';
import {
  TOKEN_COLUMNS,
  type TokenRecord,
  type TokenSummary,
  tokenSummaryRows,
  toTokenSummary,
} from './token-rows';

/** Natural name order ("#2" before "#10"): the ICU numeric collation of tokens_collection_natural_name. */
const BY_NAME: PageKey<TokenRecord>[] = [
  { expr: sql`t.token_name COLLATE mdq_natural`, dir: 'asc', kind: 'text', field: 'token_name' },
  { expr: sql`t.token_data_id`, dir: 'asc', kind: 'text', field: 'token_data_id' },
];
const BY_ID: PageKey<TokenRecord>[] = [
  { expr: sql`t.token_data_id`, dir: 'asc', kind: 'text', field: 'token_data_id' },
];

/** Live tokens of collections by name, each collection's page read from tokens_collection_natural_name. */
export function tokensOfCollections(
  db: Db,
  collections: CollectionSet,
  request: PageRequest,
): Promise<Page<TokenSummary>> {
  return fetchPage(
    db,
    {
      keys: BY_NAME,
      // Each collection's tokens from its name index: one plan for every collection.
      prepared: true,
      rows: (p) =>
        tokenSummaryRows(
          sql`SELECT t.* FROM ${perCollection(
            collections,
            (id) => sql`
              SELECT * FROM tokens t WHERE t.collection_id = ${id} AND NOT t.is_burned AND ${p.after()}
               ORDER BY ${p.order} LIMIT ${p.reach}`,
          )} t ORDER BY ${p.order} ${p.window}`,
          p.order,
        ),
      // The live tokens the tokens' trigger keeps per collection (collection_trait_totals), not a
      // count of the collection's index entries (32k for the 1M chain's largest) on every miss.
      count: sql`SELECT coalesce(sum(k.live_tokens), 0)::int AS total FROM collection_trait_totals k
                  WHERE k.collection_id = ANY(${collectionIdArray(collections)})`,
      map: toTokenSummary,
    },
    request,
  );
}

/**
 * The lootbox's live tokens in id order (tokens_lootbox_burned); an unknown lootbox reads as none
 * (the api's ofKnownSubject tells it apart).
 */
export function tokensOfLootbox(
  db: Db,
  lootbox: LootboxKey,
  request: PageRequest,
): Promise<Page<TokenSummary>> {
  const id = 'lootboxId' in lootbox ? sql`${lootbox.lootboxId}` : lootboxIdOf(db, lootbox);
  const where = sql`t.lootbox_id = ${id} AND NOT t.is_burned`;
  return fetchPage(
    db,
    {
      keys: BY_ID,
      rows: (p) =>
        tokenSummaryRows(
          sql`SELECT t.* FROM tokens t WHERE ${where} AND ${p.after()} ORDER BY ${p.order} ${p.window}`,
          p.order,
        ),
      count: sql`SELECT count(*)::int AS total FROM tokens t WHERE ${where}`,
      map: toTokenSummary,
      // One lootbox's index range, whichever lootbox: the plan never depends on which.
      prepared: true,
    },
    request,
  );
}

/** One token by its id (token data id / object address), as a subquery. */
export function tokenByIdSql(tokenId: string): RawBuilder<TokenRecord> {
  return sql<TokenRecord>`
    SELECT ${TOKEN_COLUMNS} FROM tokens t LEFT JOIN collections c ON c.collection_id = t.collection_id
     WHERE t.token_data_id = ${tokenId}`;
}

/** One token by its id (token data id / object address). */
export async function findTokenById(db: Db, tokenId: string): Promise<TokenSummary | null> {
  const rows = await executePrepared(db, tokenByIdSql(tokenId));
  return rows[0] ? toTokenSummary(rows[0]) : null;
}

/**
 * One token by (creator, collection, tokenName), narrowed by standard and collection URI when given.
 * Resolved through the collection (its creator and name), not the token row: v2 token rows may not
 * repeat them, and (collection_id, token_name) is what the tokens index serves.
 */
export interface TokenNameKey {
  creator: string;
  collection: string;
  tokenName: string;
  tokenStandard?: 'v1' | 'v2' | undefined;
  collectionUrl?: string | undefined;
}

/** The token `key` names: the live one first, then the newest. */
function tokenByNameSql(key: TokenNameKey, columns: RawBuilder<unknown>): RawBuilder<TokenRecord> {
  return sql<TokenRecord>`
    SELECT ${columns} FROM collections c JOIN tokens t ON t.collection_id = c.collection_id
     WHERE c.creator_address = ${key.creator} AND c.collection_name = ${key.collection}
       AND t.token_name = ${key.tokenName}
       ${key.tokenStandard ? sql`AND t.token_standard = ${key.tokenStandard}` : sql``}
       ${key.collectionUrl ? sql`AND c.uri = ${key.collectionUrl}` : sql``}
     ORDER BY t.is_burned, t.last_transaction_version DESC
     LIMIT 1`;
}

export async function findTokenByName(db: Db, key: TokenNameKey): Promise<TokenSummary | null> {
  // Key lookups (the pair's collections, then the name): prepared, planned once per connection.
  const rows = await executePrepared(db, tokenByNameSql(key, TOKEN_COLUMNS));
  return rows[0] ? toTokenSummary(rows[0]) : null;
}

/**
 * The id of the token `key` names as a scalar subquery (null when there is none), for a statement
 * that reads by it: the lookup and the read then cost one round trip.
 */
export function tokenIdOfName(key: TokenNameKey): RawBuilder<string | null> {
  return sql<string | null>`(${tokenByNameSql(key, sql`t.token_data_id`)})`;
}

/** The collection of the token `key` names, as a scalar subquery (null when there is none). */
export function collectionIdOfName(key: TokenNameKey): RawBuilder<string | null> {
  return sql<string | null>`(${tokenByNameSql(key, sql`t.collection_id`)})`;
}

export type { TokenBalance };

interface BalanceRow {
  token_data_id: string;
  property_version: string;
  owner_address: string;
  collection_id: string | null;
  token_standard: string;
  amount: string;
  is_soulbound: boolean;
  last_transaction_version: number;
  listed: boolean;
  token_name: string | null;
  creator_address: string | null;
  collection_name: string | null;
  token_uri: string | null;
  lootbox_id?: number | null;
  lootbox_tier?: string | null;
  rarity_rank?: number | null;
  listing_id?: string | null;
  marketplace?: string | null;
  listing_price?: string | null;
  listing_coin_type?: string | null;
  listing_amount?: string | null;
  listed_at?: Date | null;
}

export interface BalanceFilter {
  address: string;
  greaterThanZeroBalance: boolean;
  /** Resolved from the collection / creator filters; undefined when neither was given. */
  collectionIds?: string[] | undefined;
  serviceInfo: boolean;
}

/** The same order over the listings branch of a wallet's balances. */
const LISTED_BALANCE_KEYS: SortKey[] = [
  { expr: sql`coalesce(l.collection_id, '')`, dir: 'asc', kind: 'text' },
  { expr: sql`l.token_data_id`, dir: 'asc', kind: 'text' },
  { expr: sql`coalesce(l.property_version, 0)`, dir: 'asc', kind: 'u64' },
];

const BALANCE_KEYS: PageKey<BalanceRow>[] = [
  { expr: sql`coalesce(o.collection_id, '')`, dir: 'asc', kind: 'text', field: 'collection_id', ifNull: '' },
  { expr: sql`o.token_data_id`, dir: 'asc', kind: 'text', field: 'token_data_id' },
  { expr: sql`o.property_version`, dir: 'asc', kind: 'u64', field: 'property_version' },
];

/**
 * The wallet's balances, in (collection, token) order: its positive (or all) ownership rows, plus
 * the tokens it has listed, which a marketplace holds in escrow or a listing object but which are
 * still the seller's (the same rule as the worker's holder counts).
 */
export async function tokenBalances(
  db: Db,
  filter: BalanceFilter,
  request: PageRequest,
): Promise<Page<TokenBalance>> {
  const a = filter.address;
  const inCollections = (column: string) =>
    filter.collectionIds ? sql`AND ${sql.ref(column)} = ANY(${filter.collectionIds})` : sql``;
  // OFFSET 0 keeps this a lookup per ownership row: without it the planner may turn the EXISTS
  // into a hash of every active listing (a 51 ms scan of the table, twice) for a wallet with
  // thousands of rows, although a page looks at a few dozen of them.
  const activeListingBy = (owner: RawBuilder<unknown>) => sql`EXISTS (
    SELECT 1 FROM listings lx
     WHERE lx.token_data_id = o.token_data_id AND lx.seller = ${owner} AND lx.status = 'active' OFFSET 0)`;
  // One row per token: an ownership row above zero (listed when the wallet also has an active
  // listing of it, e.g. a listing that keeps the token in the wallet), else the wallet's active
  // listing (the token sits in escrow or a listing object). A zero row of a listed token is left
  // to its listing, so that greaterThanZeroBalance=false neither shows it twice nor as unlisted.
  const ownershipFilter = filter.greaterThanZeroBalance
    ? sql`AND o.amount > 0`
    : sql`AND (o.amount > 0 OR NOT ${activeListingBy(sql`o.owner_address`)})`;
  const notHeld = sql`NOT EXISTS (SELECT 1 FROM token_ownerships x
                         WHERE x.token_data_id = l.token_data_id AND x.owner_address = ${a} AND x.amount > 0)`;
  // Each branch is cut at the page's reach in the page's order (the ownership branch straight from
  // ownerships_owner_page), so a page never sorts everything a busy wallet holds.
  const held = (p: PageParts) => sql`(
    (SELECT o.token_data_id, o.property_version, o.owner_address, o.collection_id, o.token_standard, o.amount,
            o.is_soulbound, o.last_transaction_version, ${activeListingBy(sql`o.owner_address`)} AS listed
       FROM token_ownerships o
      WHERE o.owner_address = ${a} ${ownershipFilter}
            ${inCollections('o.collection_id')} AND ${p.after()}
      ORDER BY ${p.order} LIMIT ${p.reach})
    UNION ALL
    (SELECT l.token_data_id, coalesce(l.property_version, 0), l.seller, l.collection_id,
            coalesce(l.token_standard, 'v2'), l.token_amount, false, l.last_transaction_version, true
       FROM listings l
      WHERE l.status = 'active' AND l.seller = ${a} ${inCollections('l.collection_id')}
        AND ${notHeld} AND ${p.after(LISTED_BALANCE_KEYS)}
      ORDER BY ${orderOf(LISTED_BALANCE_KEYS)} LIMIT ${p.reach})
  ) o`;
  // The ownership rows the page shows, counted without reading each one's amount: all of them
  // (index-only), less the zero rows the wallet has listed (from its few active listings), or the
  // rows above zero (index-only, ownerships_owner). A wallet that traded thousands of tokens has
  // thousands of zero rows; reading each from the heap took 60 ms.
  const ownershipCount = filter.greaterThanZeroBalance
    ? sql`(SELECT count(*) FROM token_ownerships o
            WHERE o.owner_address = ${a} AND o.amount > 0 ${inCollections('o.collection_id')})`
    : sql`((SELECT count(*) FROM token_ownerships o
             WHERE o.owner_address = ${a} ${inCollections('o.collection_id')})
         - (SELECT count(*) FROM (SELECT DISTINCT lx.token_data_id FROM listings lx
                                   WHERE lx.seller = ${a} AND lx.status = 'active') lx
              JOIN token_ownerships o ON o.token_data_id = lx.token_data_id
             WHERE o.owner_address = ${a} AND NOT (o.amount > 0) ${inCollections('o.collection_id')}))`;
  const listedCount = sql`(SELECT count(*) FROM listings l
     WHERE l.status = 'active' AND l.seller = ${a} ${inCollections('l.collection_id')} AND ${notHeld})`;
  const service = filter.serviceInfo
    ? {
        columns: sql`, t.lootbox_id, t.lootbox_tier, r.rank AS rarity_rank, al.listing_id, al.marketplace,
          al.price AS listing_price, al.coin_type AS listing_coin_type, al.token_amount AS listing_amount, al.listed_at`,
        joins: sql`
          LEFT JOIN token_rarity r ON r.token_data_id = o.token_data_id
          LEFT JOIN LATERAL (
            SELECT l.listing_id, l.marketplace, l.price, l.coin_type, l.token_amount, l.listed_at FROM listings l
             WHERE l.token_data_id = o.token_data_id AND l.status = 'active' AND l.seller = o.owner_address
             ORDER BY l.price LIMIT 1) al ON true`,
      }
    : { columns: sql``, joins: sql`` };
  return fetchPage(
    db,
    {
      keys: BALANCE_KEYS,
      // One wallet's rows from its ownership index, each token's parts by key: one plan for every wallet.
      prepared: true,
      rows: (p) => sql<BalanceRow>`
        SELECT o.token_data_id, o.property_version, o.owner_address, o.collection_id, o.token_standard, o.amount,
               o.is_soulbound, o.last_transaction_version, o.listed, t.token_name,
               coalesce(t.creator_address, c.creator_address) AS creator_address,
               coalesce(t.collection_name, c.collection_name) AS collection_name, t.token_uri
               ${service.columns}
          FROM ${held(p)}
          LEFT JOIN tokens t ON t.token_data_id = o.token_data_id
          LEFT JOIN collections c ON c.collection_id = o.collection_id
          ${service.joins}
         ORDER BY ${p.order} ${p.window}`,
      count: sql`SELECT (${ownershipCount} + ${listedCount})::int AS total`,
      map: (r) => toBalance(r, filter.serviceInfo),
    },
    request,
  );
}

function toBalance(r: BalanceRow, serviceInfo: boolean): TokenBalance {
  const balance: TokenBalance = {
    tokenId: r.token_data_id,
    tokenName: r.token_name,
    tokenStandard: r.token_standard,
    propertyVersion: r.property_version,
    creator: r.creator_address,
    collection: r.collection_name,
    collectionId: r.collection_id,
    tokenUri: r.token_uri,
    owner: r.owner_address,
    amount: r.amount,
    isSoulbound: r.is_soulbound,
    listed: r.listed,
    version: r.last_transaction_version,
  };
  if (!serviceInfo) return balance;
  balance.serviceInfo = {
    lootboxId: r.lootbox_id ?? null,
    rarityTier: r.lootbox_tier ?? null,
    rarityRank: r.rarity_rank ?? null,
    listing:
      r.listing_id && r.marketplace && r.listing_price
        ? {
            listingId: r.listing_id,
            marketplace: r.marketplace,
            price: r.listing_price,
            coinType: r.listing_coin_type ?? null,
            quantity: r.listing_amount ?? '1',
            listedAt: r.listed_at ? r.listed_at.toISOString() : null,
          }
        : null,
  };
  return balance;
}

/** The token's OpenRarity rank and score as the worker last computed them (a subquery). */
export function tokenRaritySql(
  tokenId: string,
  collection: RawBuilder<unknown>,
): RawBuilder<{ rank: number; score: number }> {
  // The token's collection stated (a rank is its collection's): see ofTokenCollection.
  return sql`SELECT rank, score FROM token_rarity WHERE token_data_id = ${tokenId} AND collection_id = ${collection}`;
}

/** The current holders of a token (several for a fungible v1 token), largest balance first (a subquery). */
export function tokenOwnersSql(
  tokenId: string,
  collection: RawBuilder<unknown>,
): RawBuilder<{ owner: string; amount: string }> {
  return sql`
    SELECT owner_address AS owner, amount::text AS amount FROM token_ownerships o
     WHERE o.token_data_id = ${tokenId} AND amount > 0 AND ${ofTokenCollection('o.collection_id', collection)}
     ORDER BY amount DESC LIMIT 10`;
}
